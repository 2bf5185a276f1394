import { describe, expect, it } from 'vitest';
import { halfOf, offeredCurrencies } from './api.ts';

describe('halfOf', () => {
  it('halves a crypto amount exactly, to 8 decimals', () => {
    expect(halfOf('12.5')).toBe('6.25');
    expect(halfOf('13')).toBe('6.5');
    expect(halfOf('0.00000003')).toBe('0.00000001');
    expect(halfOf('100.00000000')).toBe('50');
  });
  it('is empty for anything that is not a plain decimal', () => {
    expect(halfOf('')).toBe('');
    expect(halfOf('-1')).toBe('');
    expect(halfOf('1e3')).toBe('');
  });
});

describe('offeredCurrencies', () => {
  it('offers only usdtbsc, matched whatever its case', () => {
    const list = [
      { code: 'btc', name: 'Bitcoin', network: 'btc' },
      { code: 'USDTBSC', name: 'Tether USD', network: 'bsc' },
      { code: 'usdttrc20', name: 'Tether USD', network: 'trx' },
    ];
    expect(offeredCurrencies(list).map((c) => c.code)).toEqual(['USDTBSC']);
    expect(offeredCurrencies(undefined)).toEqual([]);
  });
});
