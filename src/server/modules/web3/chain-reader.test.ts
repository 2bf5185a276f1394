import { describe, expect, it } from 'vitest';
import { unitsToCents } from './chain-reader.ts';

describe('token units to cents', () => {
  it('is exact and rounds down', () => {
    expect(unitsToCents(10_005_000_000_000_000_000n, 18)).toBe(1000n);
    expect(unitsToCents(9_999_999_999_999_999n, 18)).toBe(0n);
    expect(unitsToCents(12_345_678n, 6)).toBe(1234n);
    expect(unitsToCents(7n, 0)).toBe(700n);
    // Far past a float's precision: still exact.
    expect(unitsToCents(123_456_789_012_345_678_901_234_567n, 18)).toBe(12_345_678_901n);
  });
});
