// The days and months money depends on (an income run's date, a salary or CTO month, the end of an
// investment's ROI) are UTC ones, shown so and saying so; every other time is the device's own
// (formatDateTime in format.ts).

const day = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', timeZone: 'UTC' });

/**
 * "2026-12-05" (or an ISO instant, read as its UTC date) -> "Dec 5, 2026 (UTC)"; other text as it is.
 * `zone: false` leaves out "(UTC)", for a column whose header says it.
 */
export function formatUtcDay(date: string, { zone = true } = {}): string {
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(date);
  if (!match) return date;
  const text = day.format(new Date(`${match[1]}T00:00:00Z`));
  return zone ? `${text} (UTC)` : text;
}

/** "2026-12-05" -> "Dec 5", for a row of UTC days that says "UTC" once. */
export function formatUtcShortDay(date: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(date);
  return match ? shortDay.format(new Date(`${match[1]}T00:00:00Z`)) : date;
}

/** "2026-11" -> "November 2026 (UTC)"; other text as it is; `zone: false` as for formatUtcDay. */
export function formatUtcMonth(value: string, { zone = true } = {}): string {
  if (!/^\d{4}-\d{2}$/.test(value)) return value;
  const text = month.format(new Date(`${value}-01T00:00:00Z`));
  return zone ? `${text} (UTC)` : text;
}
