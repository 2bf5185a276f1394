import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  createPaymentSchema,
  displayedPayAmount,
  isFinalPaymentStatus,
  PAYMENT_MESSAGES,
  PAYMENT_STATUSES,
  paymentBadgeColour,
  paymentStatusMessage,
} from './payments.ts';
import { WALLET_MESSAGES } from './wallets.ts';

describe('displayedPayAmount', () => {
  it('rounds the price up to a whole number, adds 0.5 and names the pay currency in upper case (spec 9)', () => {
    expect(displayedPayAmount('12.30', 'usdtbsc')).toBe('13.5 USDTBSC');
    expect(displayedPayAmount(12.3, 'usdtbsc')).toBe('13.5 USDTBSC');
    expect(displayedPayAmount('12', 'usdtbsc')).toBe('12.5 USDTBSC');
    expect(displayedPayAmount('12.00', 'usdtbsc')).toBe('12.5 USDTBSC');
    expect(displayedPayAmount(12, 'usdtbsc')).toBe('12.5 USDTBSC');
    expect(displayedPayAmount('0.01', 'usdtbsc')).toBe('1.5 USDTBSC');
    expect(displayedPayAmount('12.01', 'UsdtBsc')).toBe('13.5 USDTBSC');
    expect(displayedPayAmount('9999.99', 'usdtbsc')).toBe('10000.5 USDTBSC');
  });
});

describe('paymentBadgeColour', () => {
  it('is green for finished, red for failed and expired, yellow for refunded and blue otherwise (spec 4)', () => {
    expect(paymentBadgeColour('finished')).toBe('green');
    expect(paymentBadgeColour('failed')).toBe('red');
    expect(paymentBadgeColour('expired')).toBe('red');
    expect(paymentBadgeColour('refunded')).toBe('yellow');
    for (const status of ['waiting', 'confirming', 'confirmed', 'sending', 'partially_paid', 'whatever'])
      expect(paymentBadgeColour(status)).toBe('blue');
  });
});

describe('paymentStatusMessage', () => {
  it("gives the spec's message for every status, verbatim", () => {
    const expected: Record<string, string> = {
      waiting: 'Waiting for payment to be sent to the provided address.',
      confirming: 'Transaction detected but not yet confirmed on the blockchain.',
      confirmed: 'Transaction confirmed on the blockchain but not yet processed.',
      sending: 'Payment is being processed and sent to the merchant.',
      partially_paid: "You've sent less than the required amount. Please send the remaining amount.",
      finished: 'Payment successfully completed and processed.',
      failed: 'Payment processing has failed. Please contact support.',
      refunded: 'Payment was refunded back to the customer.',
      expired: 'Payment time limit has expired without receiving funds.',
    };
    expect([...PAYMENT_STATUSES].sort()).toEqual(Object.keys(expected).sort());
    for (const status of PAYMENT_STATUSES) expect(paymentStatusMessage(status)).toBe(expected[status]);
  });

  it('says the status is being processed for anything it does not know', () => {
    expect(paymentStatusMessage('mystery')).toBe('Status is being processed.');
    expect(paymentStatusMessage('')).toBe('Status is being processed.');
  });
});

describe('isFinalPaymentStatus', () => {
  it('stops polling on finished, failed, refunded and expired only (spec 4)', () => {
    expect(PAYMENT_STATUSES.filter(isFinalPaymentStatus)).toEqual([
      'finished',
      'failed',
      'refunded',
      'expired',
    ]);
  });
});

describe('createPaymentSchema', () => {
  it('takes the amount as cents and only usd priced in usdtbsc, whatever the case', () => {
    const parsed = v.parse(createPaymentSchema, {
      price_amount: '12.30',
      price_currency: 'USD',
      pay_currency: 'USDTBSC',
      id: '7',
    });
    expect(parsed).toEqual({ price_amount: 1230, price_currency: 'usd', pay_currency: 'usdtbsc', id: '7' });
  });

  it('refuses a missing amount or pay currency, and any other coin, with the form messages', () => {
    const issues = (input: unknown) =>
      v.safeParse(createPaymentSchema, input).issues?.map((i) => [i.path?.[0]?.key, i.message]) ?? [];
    expect(issues({ price_amount: '', price_currency: 'usd', pay_currency: 'usdtbsc' })[0]).toEqual([
      'price_amount',
      WALLET_MESSAGES.amountRequired,
    ]);
    expect(issues({ price_amount: '5', price_currency: 'usd', pay_currency: '' })[0]).toEqual([
      'pay_currency',
      PAYMENT_MESSAGES.payCurrencyRequired,
    ]);
    expect(issues({ price_amount: '5', price_currency: 'usd', pay_currency: 'btc' })[0]).toEqual([
      'pay_currency',
      PAYMENT_MESSAGES.onlyUsdtBsc,
    ]);
  });
});
