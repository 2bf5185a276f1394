// The specification's date format: en-US with hour and minute, everywhere. Money, USDT and percents: shared/money.ts.

const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dateOnly = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const timeOnly = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** "Dec 7, 2026, 9:05 AM" in the member's own time zone. */
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTime.format(new Date(iso)) : '—';

/** "9:05 AM": the time of a row listed under its day. */
export const formatTime = (iso: string) => timeOnly.format(new Date(iso));

/** "2026-12-07": the calendar day of a moment in the member's own time zone (the day the screen shows). */
export function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${String(date.getDate()).padStart(2, '0')}`;
}

/** A day's heading over the rows of that day: "Today", "Yesterday", else "Dec 5, 2026". */
export function formatDay(iso: string, now: Date = new Date()): string {
  const day = localDay(new Date(iso));
  if (day === localDay(now)) return 'Today';
  const before = new Date(now);
  before.setDate(before.getDate() - 1);
  return day === localDay(before) ? 'Yesterday' : dateOnly.format(new Date(iso));
}

/** A row's whole value in a narrow place: "0x5aAe…1BeAed", its first and last six characters, what people compare. */
export const shortened = (value: string) =>
  value.length <= 15 ? value : `${value.slice(0, 6)}…${value.slice(-6)}`;
