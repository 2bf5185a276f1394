import { describe, expect, it } from 'vitest';
import { accountRefusal, amountRefusal, payoutChoice } from './withdrawal-rules.ts';
import { WITHDRAWAL_MESSAGES as M } from './withdrawals.ts';

const NOW = '2026-06-01T12:00:00.000Z';
const bep20 = { network: 'bep20' as const, address: '0xabc', usable_from: '2026-05-01T00:00:00.000Z' };
const trc20 = { network: 'trc20' as const, address: 'T123', usable_from: '2026-05-01T00:00:00.000Z' };
const ready = { emailVerified: true, openRequest: false, addresses: [bep20] };

describe('payoutChoice', () => {
  it('takes the network asked for, else BEP20 when saved, else TRC20', () => {
    expect(payoutChoice([trc20, bep20], 'trc20')?.saved).toBe(trc20);
    expect(payoutChoice([trc20, bep20])?.saved).toBe(bep20);
    expect(payoutChoice([trc20])?.saved).toBe(trc20);
    // Asked for a network with no address saved: that network, and nothing saved on it.
    expect(payoutChoice([trc20], 'bep20')).toEqual({ network: 'bep20', saved: undefined });
    expect(payoutChoice([])).toBeUndefined();
  });
});

describe('accountRefusal', () => {
  it('asks first for a verified e-mail, then no open request, then an address past its wait', () => {
    expect(
      accountRefusal('income', { ...ready, emailVerified: false, openRequest: true }, NOW)?.message,
    ).toBe(M.emailUnverified);
    expect(accountRefusal('income', { ...ready, openRequest: true, addresses: [] }, NOW)?.message).toBe(
      M.openRequest,
    );
    expect(accountRefusal('income', { ...ready, addresses: [] }, NOW)?.message).toBe(M.noAddress);
    expect(accountRefusal('income', { ...ready, addresses: [trc20] }, NOW, 'bep20')?.message).toBe(
      M.networkNotSet,
    );
    const waiting = { ...bep20, usable_from: '2026-06-02T08:30:00.000Z' };
    expect(accountRefusal('roi', { ...ready, addresses: [waiting] }, NOW)).toEqual({
      status: 422,
      message: M.addressWaiting('2026-06-02 08:30 UTC'),
    });
    expect(accountRefusal('income', ready, NOW)).toBeUndefined();
  });

  it('needs no address for a compound, which pays nothing out', () => {
    expect(accountRefusal('compound', { ...ready, addresses: [] }, NOW)).toBeUndefined();
    expect(accountRefusal('compound', { ...ready, openRequest: true }, NOW)?.message).toBe(M.openRequest);
  });
});

describe('amountRefusal', () => {
  const facts = { minimumCents: 1_000, feeBp: 500, workingAvailableCents: 5_000 };
  it('holds income and ROI to the minimum, on the amount field', () => {
    expect(amountRefusal('income', 955, facts)).toEqual({
      status: 400,
      field: 'amount',
      message: M.minimum('10.00'),
    });
    expect(amountRefusal('income', 1_000, facts)).toBeUndefined();
  });

  it('refuses more than the Income Working balance when it is known, and leaves it to the ledger when not', () => {
    expect(amountRefusal('income', 5_001, facts)).toEqual({
      status: 422,
      field: 'amount',
      message: M.insufficient,
    });
    expect(amountRefusal('compound', 5_001, facts)?.message).toBe(M.insufficient);
    expect(amountRefusal('income', 5_001, { minimumCents: 1_000, feeBp: 500 })).toBeUndefined();
  });

  it('holds ROI to what the investment has paid and not been withdrawn', () => {
    const investment = {
      amountCents: 10_000,
      roiLeftCents: 1_500,
      promotional: false,
      matured: false,
      principalTaken: false,
    };
    expect(amountRefusal('roi', 1_600, { ...facts, investment })?.message).toBe(M.roiTooMuch('15.00'));
    expect(amountRefusal('roi', 1_500, { ...facts, investment })).toBeUndefined();
  });

  it('pays a principal once, in cash, after its last ROI day, whatever the balance', () => {
    const investment = {
      amountCents: 10_000,
      roiLeftCents: 0,
      promotional: false,
      matured: true,
      principalTaken: false,
    };
    expect(amountRefusal('principal', undefined, { ...facts, investment })).toBeUndefined();
    expect(
      amountRefusal('principal', undefined, { ...facts, investment: { ...investment, matured: false } })
        ?.message,
    ).toBe(M.notMatured);
    expect(
      amountRefusal('principal', undefined, { ...facts, investment: { ...investment, principalTaken: true } })
        ?.message,
    ).toBe(M.principalTaken);
    expect(
      amountRefusal('principal', undefined, { ...facts, investment: { ...investment, promotional: true } })
        ?.message,
    ).toBe(M.principalPromotional);
  });

  it('refuses what the fee would take whole', () => {
    expect(amountRefusal('income', 1_000, { ...facts, minimumCents: 1, feeBp: 10_000 })).toEqual({
      status: 400,
      field: 'amount',
      message: M.netsNothing('10.00'),
    });
  });
});
