// UTC calendar dates as 'YYYY-MM-DD' strings: the daily income run pays one such date, and dates in
// this form compare correctly as text on both databases.

const DAY_MS = 86_400_000;

/** The UTC date of an ISO 8601 instant (or of now). */
export const dateOf = (iso?: string) => (iso ? new Date(iso) : new Date()).toISOString().slice(0, 10);

/** `date` moved by `days` (negative goes back). */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** True for a real calendar date in the form YYYY-MM-DD (2026-02-30 is not one). */
export const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
  new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** The UTC date before today: the one the scheduled run pays. */
export const yesterday = (now = new Date()) => addDays(now.toISOString().slice(0, 10), -1);
