import { formatDay, localDay } from './format.ts';

export type DayGroup<T> = { day: string; label: string; items: T[] };

/**
 * A list's rows under their day, in the order given (lists come newest first, so a day never comes
 * twice): what a bank's statement on a phone shows, one heading a day instead of a date on every row.
 */
export function groupByDay<T>(
  items: readonly T[],
  isoOf: (item: T) => string,
  now = new Date(),
): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const iso = isoOf(item);
    const day = localDay(new Date(iso));
    const last = groups.at(-1);
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, label: formatDay(iso, now), items: [item] });
  }
  return groups;
}
