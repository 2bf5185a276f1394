import { type ReactNode, useId } from 'react';
import { groupByDay } from '../lib/group-by-day.ts';

/**
 * The members' lists of money on a phone (transfers sent and received, transactions): rows under a
 * heading for each day, newest first, each row a `.activity` line that never widens the page. The
 * whole list is one region named `label`; each day is a list named by its heading, so a screen reader
 * hears "Today, list, 3 items". `children` draws a row.
 */
export function ActivityList<T>({
  items,
  itemKey,
  isoOf,
  label,
  testId,
  className,
  itemProps,
  children,
}: {
  items: readonly T[];
  itemKey: (item: T) => string;
  isoOf: (item: T) => string;
  label: string;
  testId?: string;
  className?: string;
  itemProps?: (item: T) => Record<string, string | undefined>;
  children: (item: T) => ReactNode;
}) {
  const id = useId();
  return (
    <section className="activity-days" aria-label={label} data-testid={testId}>
      {groupByDay(items, isoOf).map((group) => (
        <div className="activity-day" key={group.day} data-day={group.day}>
          <h2 className="activity-day-heading" id={`${id}-${group.day}`}>
            {group.label}
          </h2>
          <ul
            className={className ? `activity ${className}` : 'activity'}
            aria-labelledby={`${id}-${group.day}`}
          >
            {group.items.map((item) => (
              <li key={itemKey(item)} {...itemProps?.(item)}>
                {children(item)}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
