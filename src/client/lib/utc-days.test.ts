import { describe, expect, it } from 'vitest';
import { formatUtcDay, formatUtcMonth, formatUtcShortDay } from './utc-days.ts';

describe('UTC days and months', () => {
  it('shows a date as its UTC day, whatever the time zone of the device', () => {
    expect(formatUtcDay('2026-12-05')).toBe('Dec 5, 2026 (UTC)');
    // An instant late on the 5th in UTC is still the 5th, though it is the 6th east of Greenwich.
    expect(formatUtcDay('2026-12-05T23:30:00.000Z')).toBe('Dec 5, 2026 (UTC)');
    expect(formatUtcDay('2027-01-01')).toBe('Jan 1, 2027 (UTC)');
    expect(formatUtcShortDay('2026-12-05T23:30:00.000Z')).toBe('Dec 5');
  });
  it('shows a month by name, and leaves anything else as it came', () => {
    expect(formatUtcMonth('2026-11')).toBe('November 2026 (UTC)');
    expect(formatUtcMonth('2026-01')).toBe('January 2026 (UTC)');
    expect(formatUtcMonth('2026-11', { zone: false })).toBe('November 2026');
    expect(formatUtcDay('2026-12-05', { zone: false })).toBe('Dec 5, 2026');
    expect(formatUtcDay('—')).toBe('—');
    expect(formatUtcMonth('')).toBe('');
  });
});
