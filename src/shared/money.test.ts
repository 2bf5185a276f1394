import { describe, expect, it } from 'vitest';
import { formatCents, formatPercent, formatUsd, formatUsdt, MINUS, parseCents } from './money.ts';

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

  it('shows dollars as $1,500.00 from cents or the API string, with one minus sign', () => {
    expect(formatUsd(150000)).toBe('$1,500.00');
    expect(formatUsd('1500.00')).toBe('$1,500.00');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd('0.00')).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd('0.05')).toBe('$0.05');
    expect(formatUsd(-250)).toBe('\u2212$2.50');
    expect(formatUsd('-2.50')).toBe('\u2212$2.50');
    expect(MINUS).toBe('\u2212');
    // Large: a balance of ten trillion dollars, and a bigint sum past 2^53 cents, exact to the cent.
    expect(formatUsd(1_000_000_000_000_00)).toBe('$1,000,000,000,000.00');
    expect(formatUsd('1234567890123.45')).toBe('$1,234,567,890,123.45');
    expect(formatUsd(2n ** 60n + 1n)).toBe('$11,529,215,046,068,469.77');
    expect(() => formatUsd(1.5)).toThrow();
  });

  it('signs money in with + only when asked, and never signs zero', () => {
    expect(formatUsd('12.00', 'always')).toBe('+$12.00');
    expect(formatUsd(-1200, 'always')).toBe('\u2212$12.00');
    expect(formatUsd(0, 'always')).toBe('$0.00');
    expect(formatUsd('-0.00')).toBe('$0.00');
  });

  it('shows what is not a money amount as it came, never as a wrong figure', () => {
    expect(formatUsd('n/a')).toBe('n/a');
    expect(formatUsd('1.5')).toBe('1.5');
  });

  it('shows USDT with thousands grouped and its decimals as they came', () => {
    expect(formatUsdt('12345.5')).toBe('12,345.5 USDT');
    expect(formatUsdt('0')).toBe('0 USDT');
    expect(formatUsdt('1000000.123456789012345678')).toBe('1,000,000.123456789012345678 USDT');
    expect(formatUsdt('-3.25')).toBe('\u22123.25 USDT');
    expect(formatUsdt('13.5', 'USDT (BEP20, BNB Smart Chain)')).toBe('13.5 USDT (BEP20, BNB Smart Chain)');
  });

  it('shows percents with at most two decimals and no trailing zeros', () => {
    expect(formatPercent('1.50')).toBe('1.5%');
    expect(formatPercent('5.00')).toBe('5%');
    expect(formatPercent('0.25')).toBe('0.25%');
    expect(formatPercent('0')).toBe('0%');
    expect(formatPercent('1250.00')).toBe('1,250%');
    expect(formatPercent(12)).toBe('12%');
    expect(formatPercent(12.345)).toBe('12.35%');
    expect(formatPercent(-8, 'always')).toBe('\u22128%');
    expect(formatPercent(15, 'always')).toBe('+15%');
    expect(formatPercent(0, 'always')).toBe('0%');
  });
});
