import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  amountToSend,
  coinAmount,
  createPaymentSchema,
  cryptoUnits,
  isFinalPaymentStatus,
  PAYMENT_MESSAGES,
  PAYMENT_STATUSES,
  payAmountFor,
  paymentBadgeColour,
  paymentStatusMessage,
  processingFee,
  stillToSend,
  unitsToCrypto,
} from './payments.ts';
import { WALLET_MESSAGES } from './wallets.ts';

describe('payAmountFor', () => {
  it('rounds the price up to a whole number and adds 0.5, with one decimal (spec 9)', () => {
    expect(payAmountFor('12.30')).toBe('13.5');
    expect(payAmountFor(12.3)).toBe('13.5');
    expect(payAmountFor('12')).toBe('12.5');
    expect(payAmountFor('12.00')).toBe('12.5');
    expect(payAmountFor(12)).toBe('12.5');
    expect(payAmountFor('0.01')).toBe('1.5');
    expect(payAmountFor('12.01')).toBe('13.5');
    expect(payAmountFor('9999.99')).toBe('10000.5');
  });

  it('is written with the coin named in full', () => {
    expect(coinAmount(payAmountFor('49.99'))).toBe('50.5 USDT (BEP20, BNB Smart Chain)');
  });
});

describe('amountToSend and stillToSend', () => {
  const invoice = { pay_amount: '13.5', actually_paid: null, payment_status: 'waiting' };

  it("asks for the invoice's pay_amount until something arrives", () => {
    expect(amountToSend(invoice)).toBe('13.5');
    expect(amountToSend({ ...invoice, actually_paid: '0' })).toBe('13.5');
  });

  it('asks only for the rest once partially paid, exactly to 8 decimals', () => {
    expect(amountToSend({ ...invoice, actually_paid: '5', payment_status: 'partially_paid' })).toBe('8.5');
    expect(stillToSend({ ...invoice, actually_paid: '13.49999999' })).toBe('0.00000001');
    expect(stillToSend({ pay_amount: '0.3', actually_paid: '0.1', payment_status: 'partially_paid' })).toBe(
      '0.2',
    );
  });

  it('never asks for less than nothing, and keeps an amount it cannot read as it is', () => {
    expect(stillToSend({ ...invoice, actually_paid: '20' })).toBe('0');
    expect(stillToSend({ ...invoice, pay_amount: 'n/a' })).toBe('n/a');
  });
});

describe('processingFee', () => {
  it('is what the payer sends beyond the credited price, or null when nothing', () => {
    expect(processingFee({ pay_amount: '13.5', price_amount: '12.30' })).toBe('1.2');
    expect(processingFee({ pay_amount: '50.5', price_amount: '49.99' })).toBe('0.51');
    expect(processingFee({ pay_amount: '12.30', price_amount: '12.30' })).toBeNull();
    expect(processingFee({ pay_amount: '12.2', price_amount: '12.30' })).toBeNull();
  });
});

describe('cryptoUnits', () => {
  it('reads plain decimals exactly and refuses anything else', () => {
    expect(cryptoUnits('12.5')).toBe(1_250_000_000n);
    expect(cryptoUnits('0.00000001')).toBe(1n);
    expect(unitsToCrypto(cryptoUnits('100.00000000') ?? -1n)).toBe('100');
    for (const bad of ['', '-1', '1e3', 'abc', null, undefined]) expect(cryptoUnits(bad)).toBeNull();
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
