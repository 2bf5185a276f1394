import { describe, expect, it } from 'vitest';
import { accountAge, figuresOf, isUsable } from './figures.ts';

describe('figuresOf', () => {
  it('takes 5% of an income withdrawal, rounded half up to the cent, and pays the rest', () => {
    expect(figuresOf('income', '100', '5.00')).toEqual({
      amountCents: 10_000,
      feeCents: 500,
      netCents: 9_500,
    });
    // 10.10 x 5% = 0.505: half a cent rounds up.
    expect(figuresOf('roi', '10.10', '5.00')).toEqual({ amountCents: 1_010, feeCents: 51, netCents: 959 });
    expect(figuresOf('principal', '0.09', '5.00')).toEqual({ amountCents: 9, feeCents: 0, netCents: 9 });
  });

  it('charges a compound nothing: it all becomes the new investment', () => {
    expect(figuresOf('compound', '250.50', '5.00')).toEqual({
      amountCents: 25_050,
      feeCents: 0,
      netCents: 25_050,
    });
  });

  it('takes the fee in force: 2.5% of 100.00 is 2.50, 0% takes nothing', () => {
    expect(figuresOf('income', '100', '2.50')).toEqual({
      amountCents: 10_000,
      feeCents: 250,
      netCents: 9_750,
    });
    expect(figuresOf('roi', '100', '0.00')).toEqual({ amountCents: 10_000, feeCents: 0, netCents: 10_000 });
  });

  it('shows nothing while the text is not an amount', () => {
    for (const text of ['', ' ', 'abc', '1.234', '-5', '0', '1e3'])
      expect(figuresOf('income', text, '5.00')).toBeNull();
  });
});

describe('payout addresses', () => {
  const bep20 = { network: 'bep20' as const, address: '0xabc', usable_from: '2026-01-02T00:00:00.000Z' };

  it('is usable from its usable_from instant on', () => {
    expect(isUsable(bep20, Date.parse('2026-01-01T23:59:59.999Z'))).toBe(false);
    expect(isUsable(bep20, Date.parse('2026-01-02T00:00:00.000Z'))).toBe(true);
  });
});

describe('accountAge', () => {
  const now = Date.parse('2026-03-10T12:00:00.000Z');
  it('counts whole days', () => {
    expect(accountAge('2026-03-10T01:00:00.000Z', now)).toBe('Under a day');
    expect(accountAge('2026-03-09T11:00:00.000Z', now)).toBe('1 day');
    expect(accountAge('2023-03-10T12:00:00.000Z', now)).toBe('1,096 days');
    expect(accountAge('not a date', now)).toBe('—');
  });
});
