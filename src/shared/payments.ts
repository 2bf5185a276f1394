import * as v from 'valibot';
import { PAYMENT_STATUSES } from './enums.ts';
import { formatUsdt, parseCents } from './money.ts';
import { amountSchema, reasonSchema } from './wallets.ts';

export { PAYMENT_STATUSES };

// Crypto payments in BEP20 USDT (spec 2 "Crypto payment page", spec 4 statuses, spec 8 errors,
// spec 9 constants; API.md "Crypto payments"; RULES.md "Deposits").

/** The only currency offered (spec 9), matched case-insensitively against the provider's codes. */
export const PAY_CURRENCY = 'usdtbsc';
export const PRICE_CURRENCY = 'usd';
export const PAYMENT_EXPIRY_MS = 20 * 60 * 1000;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Polling stops on these (spec 4). */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['finished', 'failed', 'refunded', 'expired'];
export const isFinalPaymentStatus = (status: string) =>
  (FINAL_PAYMENT_STATUSES as readonly string[]).includes(status);

/**
 * Statuses only move forward: a later one never yields to an earlier one arriving late. A partial
 * payment may still be completed (the payer sends the rest), so it ranks below confirming.
 */
export const PAYMENT_STATUS_RANK: Record<PaymentStatus, number> = {
  waiting: 0,
  partially_paid: 1,
  confirming: 2,
  confirmed: 3,
  sending: 4,
  finished: 5,
  failed: 5,
  expired: 5,
  refunded: 6,
};

export const PAYMENT_STATUS_MESSAGES: Record<PaymentStatus, string> = {
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
export const UNKNOWN_STATUS_MESSAGE = 'Status is being processed.';
export const paymentStatusMessage = (status: string) =>
  PAYMENT_STATUS_MESSAGES[status as PaymentStatus] ?? UNKNOWN_STATUS_MESSAGE;

/** Spec 4: finished green, failed and expired red, refunded yellow, others blue. */
export function paymentBadgeColour(status: string): 'green' | 'red' | 'yellow' | 'blue' {
  if (status === 'finished') return 'green';
  if (status === 'failed' || status === 'expired') return 'red';
  if (status === 'refunded') return 'yellow';
  return 'blue';
}

export const PAYMENT_MESSAGES = {
  title: 'Crypto Payment Gateway',
  create: 'Create Payment',
  processing: 'Processing...',
  created: 'Payment Created Successfully',
  copied: 'Address copied to clipboard!',
  copiedLabel: 'Copied!',
  copyAddress: 'Copy Address',
  downloadQr: 'Download QR',
  sendExactly: 'Send exactly',
  networkFees: 'Network fees may apply',
  createNew: 'Create New Payment',
  successTitle: 'Payment Successful!',
  returnHome: 'Return Home',
  /** Issue 22: the status panel says when it last asked, and can ask again at once. */
  lastChecked: (time: string) => `Last checked at ${time}`,
  checkNow: 'Check now',
  checking: 'Checking...',
  /** Issue 22: adding money is called a deposit on every payment screen. */
  newDeposit: 'New deposit',
  /** Beside "Send exactly X": what reaches the Active Wallet, and what the rest of X is. */
  creditNote: (credited: string, fee: string | null) =>
    fee
      ? `${credited} is credited to your Active Wallet when the payment is finished; the other ${formatUsdt(fee)} is the processing fee.`
      : `${credited} is credited to your Active Wallet when the payment is finished.`,
  failed: 'Failed',
  errorTitle: 'Payment Error',
  createFailed: 'Failed to create payment',
  statusFailed: 'Failed to fetch payment status',
  /** Under the status while the payment is not final: polling runs only while the page is on screen. */
  keepOpen:
    'Keep this page open: the status is checked only while it is on screen. If you leave, it is checked again when you come back.',
  currenciesInvalid: 'Invalid response format from currencies API',
  currenciesFailed: 'Failed to fetch currencies',
  retry: 'Retry',
  amountRequired: 'Amount is required',
  currencyRequired: 'Currency is required',
  payCurrencyRequired: 'Pay currency is required',
  onlyUsdtBsc: 'Only USDT on BNB Smart Chain (BEP20) is accepted',
  onlyUsd: 'Prices are in US dollars (usd)',
  belowMinimum: 'The amount is below the minimum the payment provider accepts',
  notFound: 'No payment with this id',
  badSignature: 'Invalid or missing IPN signature',
  sandboxOnly: 'Simulated payments exist only with the sandbox provider',
  sandboxNotWaiting: 'This payment is no longer waiting for a transfer',
  sandboxPaid: 'Simulated transfer received',
  providerDown: 'The payment provider did not answer. Please try again in a moment.',
} as const;

/** Issue 22: the coin is always written this way, wherever an amount of it is shown. */
export const PAY_COIN_LABEL = 'USDT (BEP20, BNB Smart Chain)';
/** "1234.5" -> "1,234.5 USDT (BEP20, BNB Smart Chain)": the one USDT format, with the coin named in full. */
export const coinAmount = (amount: string) => formatUsdt(amount, PAY_COIN_LABEL);

/**
 * Spec 9: the amount to pay is the price rounded up to a whole number plus 0.5, with one decimal
 * (12.30 -> "13.5"). It is the invoice's pay_amount (the server asks the provider for exactly this),
 * so "Send exactly X", the QR code, the sandbox's transfer and "Amount paid" all read the same X;
 * the Active Wallet is credited the price (RULES.md "Deposits"). Computed in cents.
 */
export function payAmountFor(priceAmount: string | number): string {
  const cents = parseCents(priceAmount) ?? 0;
  return `${Math.ceil(cents / 100)}.5`;
}

const CRYPTO_DECIMALS = 8;
const CRYPTO_SCALE = 10n ** BigInt(CRYPTO_DECIMALS);

/** "12.5" -> 1250000000n (units of 1e-8): crypto amounts compared exactly; null when not a plain decimal. */
export function cryptoUnits(amount: string | null | undefined): bigint | null {
  const match = /^(\d{1,15})(?:\.(\d{1,8})\d*)?$/.exec((amount ?? '').trim());
  if (!match) return null;
  return BigInt(match[1] ?? '0') * CRYPTO_SCALE + BigInt((match[2] ?? '').padEnd(CRYPTO_DECIMALS, '0'));
}

/** 1250000000n -> "12.5"; never negative. */
export function unitsToCrypto(units: bigint): string {
  const positive = units < 0n ? 0n : units;
  const fraction = (positive % CRYPTO_SCALE).toString().padStart(CRYPTO_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${positive / CRYPTO_SCALE}.${fraction}` : String(positive / CRYPTO_SCALE);
}

type Amounts = { pay_amount: string; actually_paid: string | null; payment_status: string };

/** What the payer has still to send: the invoice's pay_amount less what arrived (never below 0). */
export function stillToSend(payment: Amounts): string {
  const asked = cryptoUnits(payment.pay_amount);
  if (asked === null) return payment.pay_amount;
  return unitsToCrypto(asked - (cryptoUnits(payment.actually_paid) ?? 0n));
}

/** The one amount the screen asks for: the rest once partially paid, else the invoice's pay_amount. */
export const amountToSend = (payment: Amounts) =>
  payment.payment_status === 'partially_paid' ? stillToSend(payment) : payment.pay_amount;

/**
 * What the payer sends beyond the price that is credited (1 USDT counted as 1 USD): "1.2" for a
 * 12.30 price asked as 13.5. Null when the invoice asks no more than the price.
 */
export function processingFee(payment: { pay_amount: string; price_amount: string }): string | null {
  const asked = cryptoUnits(payment.pay_amount);
  const price = cryptoUnits(payment.price_amount);
  if (asked === null || price === null || asked <= price) return null;
  return unitsToCrypto(asked - price);
}

/** Spec 3 "Crypto payment create payload": {price_amount, price_currency, pay_currency, id}; id is ignored (the session decides). */
export const createPaymentSchema = v.object({
  price_amount: amountSchema,
  price_currency: v.pipe(
    v.string(PAYMENT_MESSAGES.currencyRequired),
    v.trim(),
    v.nonEmpty(PAYMENT_MESSAGES.currencyRequired),
    v.toLowerCase(),
    v.literal(PRICE_CURRENCY, PAYMENT_MESSAGES.onlyUsd),
  ),
  pay_currency: v.pipe(
    v.string(PAYMENT_MESSAGES.payCurrencyRequired),
    v.trim(),
    v.nonEmpty(PAYMENT_MESSAGES.payCurrencyRequired),
    v.toLowerCase(),
    v.literal(PAY_CURRENCY, PAYMENT_MESSAGES.onlyUsdtBsc),
  ),
  id: v.optional(v.string()),
});
export type CreatePaymentInput = v.InferOutput<typeof createPaymentSchema>;

/** Spec 3 "Payment response". Amounts are decimal strings; crypto amounts as the provider gave them. */
export const paymentSchema = v.object({
  payment_id: v.string(),
  pay_address: v.string(),
  price_amount: v.string(),
  price_currency: v.string(),
  pay_currency: v.string(),
  pay_amount: v.string(),
  actually_paid: v.nullable(v.string()),
  payment_status: v.string(),
  created_at: v.string(),
  expires_at: v.nullable(v.string()),
  order_id: v.string(),
  /** Whether the member's Active Wallet was credited for this payment, and with what. */
  credited_amount: v.nullable(v.string()),
  /** 'sandbox' payments are simulations: no real money moved on any chain. */
  provider: v.string(),
});
export type Payment = v.InferOutput<typeof paymentSchema>;

export const currenciesSchema = v.object({
  currencies: v.array(v.object({ code: v.string(), name: v.string(), network: v.string() })),
});
export const minAmountSchema = v.object({ min_amount: v.number() });
export const paymentIdParamsSchema = v.object({ payment_id: v.pipe(v.string(), v.nonEmpty()) });
export const minAmountParamsSchema = v.object({
  from: v.pipe(v.string(), v.nonEmpty()),
  to: v.pipe(v.string(), v.nonEmpty()),
});

/** Sandbox only: the simulated payer's transfer; default the full pay_amount, less gives partially_paid. */
export const sandboxPaySchema = v.object({
  amount: v.optional(
    v.pipe(
      v.union([v.string(), v.number()]),
      v.transform(String),
      v.regex(/^\d{1,12}(\.\d{1,8})?$/, 'amount is a positive decimal with at most 8 decimals'),
      v.check((x) => Number(x) > 0, 'amount is a positive decimal with at most 8 decimals'),
    ),
  ),
});

export const paymentListSchema = v.object({ payments: v.array(paymentSchema) });
export const adminPaymentSchema = v.object({
  ...paymentSchema.entries,
  member_id: v.string(),
  member_name: v.string(),
  member_email: v.string(),
});
export const adminPaymentListSchema = v.object({
  payments: v.array(adminPaymentSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
/** An admin credits a partially paid payment by hand: once per payment, with a reason, audited. */
export const manualCreditSchema = v.object({
  amount: amountSchema,
  reason: reasonSchema,
});
export type ManualCreditInput = v.InferOutput<typeof manualCreditSchema>;

export const adminPaymentQuerySchema = v.object({
  status: v.optional(v.picklist(PAYMENT_STATUSES, 'Unknown payment status')),
  page: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '1'),
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(200)), '50'),
});
