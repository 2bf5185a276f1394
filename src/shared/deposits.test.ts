import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  addMoneyWays,
  DEPOSIT_MESSAGES,
  depositDecisionSchema,
  manualDepositRequestSchema,
} from './deposits.ts';

const hash = `0x${'Ab'.repeat(32)}`;

describe('manualDepositRequestSchema', () => {
  it('takes the amount in cents and the hash in lower case', () => {
    expect(v.parse(manualDepositRequestSchema, { amount: '12.5', tx_hash: ` ${hash} ` })).toEqual({
      amount: 1250,
      tx_hash: hash.toLowerCase(),
    });
  });
  it('refuses a hash that is not 0x and 64 hex digits, and an amount over the maximum', () => {
    expect(v.safeParse(manualDepositRequestSchema, { amount: '1', tx_hash: hash.slice(0, 65) }).success).toBe(
      false,
    );
    const big = v.safeParse(manualDepositRequestSchema, { amount: '1000000.01', tx_hash: hash });
    expect(big.success ? '' : big.issues[0]?.message).toBe(DEPOSIT_MESSAGES.amountTooLarge);
  });
});

describe('depositDecisionSchema', () => {
  const base = { amount: '10.00', user_id: 'u1' };
  it('approves without a reason', () => {
    expect(v.safeParse(depositDecisionSchema, { ...base, status: 'approved' }).success).toBe(true);
  });
  it('needs a reason of 3 to 500 characters to reject, on the reason field', () => {
    const missing = v.safeParse(depositDecisionSchema, { ...base, status: 'rejected' });
    expect(missing.success).toBe(false);
    expect(missing.issues?.[0]?.path?.[0]?.key).toBe('reason');
    expect(missing.issues?.[0]?.message).toBe(DEPOSIT_MESSAGES.reasonRequired);
    expect(v.safeParse(depositDecisionSchema, { ...base, status: 'rejected', reason: 'ab' }).success).toBe(
      false,
    );
    expect(
      v.safeParse(depositDecisionSchema, { ...base, status: 'rejected', reason: 'Wrong amount' }).success,
    ).toBe(true);
  });
});

describe('addMoneyWays', () => {
  const address = '0x7e57000000000000000000000000000000000d0d';
  it('offers the invoice always, and on chain and manual once there is a deposit address', () => {
    expect(addMoneyWays({ depositAddress: address, qrLinks: 0 })).toEqual(['invoice', 'on_chain', 'manual']);
  });
  it('offers a manual transfer to a QR link’s address without a deposit address, never the on-chain way', () => {
    expect(addMoneyWays({ depositAddress: null, qrLinks: 2 })).toEqual(['invoice', 'manual']);
  });
  it('offers only the invoice when the platform has published no address to pay to', () => {
    expect(addMoneyWays({ depositAddress: null, qrLinks: 0 })).toEqual(['invoice']);
    expect(addMoneyWays({ depositAddress: '', qrLinks: 0 })).toEqual(['invoice']);
  });
});
