import { describe, expect, it } from 'vitest';
import { formatCents, parseCents } from './money.ts';

describe('money', () => {
  it('parses decimal strings and numbers with at most two decimals into cents', () => {
    expect(parseCents('12')).toBe(1200);
    expect(parseCents('12.5')).toBe(1250);
    expect(parseCents('0.01')).toBe(1);
    expect(parseCents(10000)).toBe(1_000_000);
    expect(parseCents(' 7.25 ')).toBe(725);
  });

  it('refuses what is not a plain non-negative amount with at most two decimals', () => {
    for (const bad of [
      '',
      'abc',
      '1.234',
      '-1',
      '1e3',
      '1,5',
      '.5',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      0.001,
    ]) {
      expect(parseCents(bad as string | number)).toBeNull();
    }
  });

  it('formats cents as the API money string', () => {
    expect(formatCents(125000)).toBe('1250.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-250)).toBe('-2.50');
    expect(() => formatCents(1.5)).toThrow();
  });
});
