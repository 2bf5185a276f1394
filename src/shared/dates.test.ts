import { describe, expect, it } from 'vitest';
import { addDays, dateOf, isCalendarDate, yesterday } from './dates.ts';

describe('UTC dates', () => {
  it('takes the UTC date of an instant, whatever the time of day', () => {
    expect(dateOf('2026-11-24T23:59:59.999Z')).toBe('2026-11-24');
    expect(dateOf('2026-11-25T00:00:00.000Z')).toBe('2026-11-25');
  });

  it('adds days across months, years and a leap day', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-01-10', 29)).toBe('2026-02-08');
  });

  it('accepts only real calendar dates', () => {
    expect(isCalendarDate('2026-11-24')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('26-11-24')).toBe(false);
    expect(isCalendarDate('2026-11-24T00:00:00Z')).toBe(false);
  });

  it('names yesterday in UTC', () => {
    expect(yesterday(new Date('2026-11-25T00:05:00Z'))).toBe('2026-11-24');
  });
});
