import { describe, expect, it } from 'vitest';
import { formatDay, formatTime, shortened } from './format.ts';
import { groupByDay } from './group-by-day.ts';

// Local times, as the member's phone reads them: the test holds in any time zone.
const at = (day: number, hour: number, minute = 0) => new Date(2026, 11, day, hour, minute).toISOString();
const now = new Date(2026, 11, 7, 12, 0);

describe('groupByDay', () => {
  it('puts each row under its own day, newest first, with Today and Yesterday by name', () => {
    const rows = [
      { id: 'a', created_at: at(7, 9) },
      { id: 'b', created_at: at(7, 0, 1) },
      { id: 'c', created_at: at(6, 23, 59) },
      { id: 'd', created_at: at(2, 8) },
      { id: 'e', created_at: at(2, 7) },
    ];
    const groups = groupByDay(rows, (r) => r.created_at, now);
    expect(groups.map((g) => [g.label, g.items.map((r) => r.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Yesterday', ['c']],
      ['Dec 2, 2026', ['d', 'e']],
    ]);
  });

  it('gives no group for no rows', () => {
    expect(groupByDay([], (r: { created_at: string }) => r.created_at, now)).toEqual([]);
  });

  it('names a day of another year with its year', () => {
    expect(formatDay(new Date(2025, 11, 31, 10).toISOString(), now)).toBe('Dec 31, 2025');
  });
});

describe('formatTime', () => {
  it('writes the hour and minute en-US', () => {
    expect(formatTime(at(7, 9, 5))).toBe('9:05 AM');
    expect(formatTime(at(7, 21, 30))).toBe('9:30 PM');
  });
});

describe('shortened', () => {
  it('keeps the first and last six characters of a long value, and a short one whole', () => {
    const hash = `0x${'ab'.repeat(31)}cd`;
    expect(shortened(hash)).toBe('0xabab…ababcd');
    expect(shortened('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe('0x5aAe…1BeAed');
    expect(shortened('short-value')).toBe('short-value');
    expect(shortened('123456789012345')).toBe('123456789012345');
  });
});
