import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  badgeColour,
  retryCanHelp,
  reviewSummary,
  TRANSFER_MESSAGES,
  transferFormSchema,
  trendPercent,
} from './transfers.ts';
import { WALLET_MESSAGES } from './wallets.ts';

const NOW = new Date('2026-03-31T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const item = (days: number, cents: number) => ({ created_at: daysAgo(days), cents });

describe('trendPercent', () => {
  it('is null when the previous 30 days hold nothing to compare with', () => {
    expect(trendPercent([], NOW)).toBeNull();
    expect(trendPercent([item(1, 5000), item(29, 100)], NOW)).toBeNull();
    // Something 30 days back or more, but nothing within the 60: still nothing to compare.
    expect(trendPercent([item(2, 100), item(61, 100), item(400, 100)], NOW)).toBeNull();
  });

  it('gives the change of the last 30 days against the 30 before them, in percent with one decimal', () => {
    expect(trendPercent([item(1, 1500), item(40, 1000)], NOW)).toBe(50);
    expect(trendPercent([item(1, 500), item(40, 1000)], NOW)).toBe(-50);
    expect(trendPercent([item(45, 1000)], NOW)).toBe(-100);
    expect(trendPercent([item(3, 1000), item(59, 1000)], NOW)).toBe(0);
    // 7/3 -> 233.33...% rounds to 233.3; -1/3 -> -33.3; 2/3 -> 66.7.
    expect(trendPercent([item(1, 500), item(20, 500), item(35, 300)], NOW)).toBe(233.3);
    expect(trendPercent([item(1, 1000), item(35, 1500)], NOW)).toBe(-33.3);
    expect(trendPercent([item(1, 2000), item(35, 1200)], NOW)).toBe(66.7);
    // Several items per window are summed.
    expect(trendPercent([item(1, 100), item(2, 200), item(31, 100), item(50, 100)], NOW)).toBe(50);
  });

  it('puts an item exactly 30 days old into the previous window, and ignores items older than 60 days', () => {
    expect(trendPercent([item(1, 200), item(30, 100)], NOW)).toBe(100);
    expect(trendPercent([item(1, 200), item(30, 100), item(60, 5000), item(90, 5000)], NOW)).toBe(100);
    expect(trendPercent([item(1, 200), item(59.99, 100)], NOW)).toBe(100);
  });

  it('ignores items dated after now', () => {
    expect(trendPercent([item(-1, 10_000), item(1, 100), item(40, 100)], NOW)).toBe(0);
  });
});

describe('transferFormSchema', () => {
  const context = { availableCents: { business: 10_000, working: 500 }, selfId: 'me' };
  const valid = { userto_id: 'friend', amount: '50.00', from: 'business', to: 'working', desc: 'Thanks' };
  const parse = (input: Record<string, unknown>) => v.safeParse(transferFormSchema(context), input);
  const errorsOf = (input: Record<string, unknown>) => {
    const result = parse(input);
    expect(result.success).toBe(false);
    return result.issues?.map((i) => ({ field: v.getDotPath(i), message: i.message })) ?? [];
  };

  it('accepts a transfer the chosen wallet covers, with the amount in cents', () => {
    const result = parse(valid);
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ amount: 5000, from: 'business', to: 'working', desc: 'Thanks' });
    // Exactly the available balance is enough.
    expect(parse({ ...valid, amount: '100.00' }).success).toBe(true);
    expect(parse({ ...valid, amount: 5, from: 'working' }).success).toBe(true);
  });

  it('puts "Insufficient balance in selected source account" on the amount when the source wallet is short', () => {
    expect(errorsOf({ ...valid, amount: '100.01' })).toEqual([
      { field: 'amount', message: WALLET_MESSAGES.insufficient },
    ]);
    // The other wallet would cover it; the chosen one does not.
    expect(errorsOf({ ...valid, amount: '5.01', from: 'working' })).toEqual([
      { field: 'amount', message: WALLET_MESSAGES.insufficient },
    ]);
    // A wallet the context does not know holds nothing.
    const empty = v.safeParse(transferFormSchema({ availableCents: {} }), valid);
    expect(empty.issues?.map((i) => i.message)).toEqual([WALLET_MESSAGES.insufficient]);
  });

  it('puts the same-wallet message on "to" for a self-transfer into the same wallet only', () => {
    expect(errorsOf({ ...valid, userto_id: 'me', to: 'business' })).toEqual([
      { field: 'to', message: TRANSFER_MESSAGES.sameWallet },
    ]);
    // Between one's own two wallets, or any pair to someone else: fine.
    expect(parse({ ...valid, userto_id: 'me' }).success).toBe(true);
    expect(parse({ ...valid, to: 'business' }).success).toBe(true);
    // Without a known self id, no self-transfer check applies.
    const anonymous = v.safeParse(transferFormSchema({ availableCents: context.availableCents }), {
      ...valid,
      userto_id: 'me',
      to: 'business',
    });
    expect(anonymous.success).toBe(true);
  });

  it('reports both form checks at once', () => {
    expect(errorsOf({ ...valid, userto_id: 'me', to: 'business', amount: '500.00' })).toEqual([
      { field: 'amount', message: WALLET_MESSAGES.insufficient },
      { field: 'to', message: TRANSFER_MESSAGES.sameWallet },
    ]);
  });

  it('keeps the spec 5 field messages of the request schema', () => {
    expect(errorsOf({ ...valid, amount: '10000.01' })[0]).toEqual({
      field: 'amount',
      message: TRANSFER_MESSAGES.amountMax,
    });
    expect(errorsOf({ ...valid, from: '' })[0]).toEqual({
      field: 'from',
      message: TRANSFER_MESSAGES.fromRequired,
    });
    expect(errorsOf({ ...valid, desc: 'd'.repeat(201) })[0]).toEqual({
      field: 'desc',
      message: TRANSFER_MESSAGES.descriptionMax,
    });
  });
});

describe('badgeColour', () => {
  it('follows spec 4: completed green, pending yellow, failed red, anything else grey', () => {
    expect(badgeColour('completed')).toBe('green');
    expect(badgeColour('pending')).toBe('yellow');
    expect(badgeColour('failed')).toBe('red');
    expect(badgeColour('cancelled')).toBe('grey');
  });
});

describe('retryCanHelp', () => {
  it('says yes when no answer came, or the server failed, timed out or asked to wait', () => {
    for (const status of [undefined, 0, 500, 502, 503, 408, 429]) expect(retryCanHelp(status)).toBe(true);
  });

  it('says no for a rule refusal: the same transfer would be refused again', () => {
    for (const status of [400, 403, 404, 409, 422]) expect(retryCanHelp(status)).toBe(false);
  });
});

describe('reviewSummary', () => {
  it('names the amount, the recipient with their username, and the source wallet', () => {
    expect(reviewSummary('$25.50', 'Bob Stone', 'bob_ux', 'Active Wallet')).toBe(
      'Send $25.50 to Bob Stone (bob_ux) from Active Wallet',
    );
  });
});
