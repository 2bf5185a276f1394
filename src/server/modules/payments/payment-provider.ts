// What the payments service needs from a payment provider. Two implementations: the built-in
// sandbox (no network) and NOWPayments. Nothing outside this folder's providers knows which one runs.

export type ProviderCurrency = { code: string; name: string; network: string };

/** A provider invoice, in the provider's own words (decimal strings for amounts). */
export type ProviderPayment = {
  payment_id: string;
  payment_status: string;
  pay_address: string;
  price_amount: string;
  price_currency: string;
  pay_currency: string;
  pay_amount: string;
  actually_paid: string | null;
  order_id: string;
  created_at: string;
  expires_at: string | null;
  /** The hash of the transaction the payer paid by, where the provider reports one (NOWPayments' payin_hash). */
  payin_hash?: string | null;
};

export type NewInvoice = {
  priceAmount: string;
  /** The crypto amount the payer is asked for (spec 9's displayed amount), a decimal string. */
  payAmount: string;
  priceCurrency: string;
  payCurrency: string;
  orderId: string;
  ipnCallbackUrl: string;
};

export interface PaymentProvider {
  readonly name: 'sandbox' | 'nowpayments';
  currencies(): Promise<ProviderCurrency[]>;
  /** The smallest amount of `from` the provider accepts for a payment settled in `to`. */
  minAmount(from: string, to: string): Promise<number>;
  createPayment(invoice: NewInvoice): Promise<ProviderPayment>;
  getPayment(paymentId: string): Promise<ProviderPayment>;
}

/** The provider did not answer, or answered something we cannot use. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
