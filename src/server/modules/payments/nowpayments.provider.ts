import type { NewInvoice, PaymentProvider, ProviderCurrency, ProviderPayment } from './payment-provider.ts';
import { ProviderError } from './payment-provider.ts';

// NOWPayments' REST API (https://documenter.getpostman.com/view/7907941/2s93JusNJt): the x-api-key
// header; POST /v1/payment; GET /v1/payment/{id}; GET /v1/currencies; GET /v1/min-amount.

const TIMEOUT_MS = 10_000;

const NETWORKS: Record<string, { name: string; network: string }> = {
  usdtbsc: { name: 'Tether USD (BEP20)', network: 'bsc' },
  usdttrc20: { name: 'Tether USD (TRC20)', network: 'trx' },
  usdterc20: { name: 'Tether USD (ERC20)', network: 'eth' },
};

type Json = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

function toPayment(body: Json): ProviderPayment {
  const id = text(body.payment_id);
  const status = text(body.payment_status);
  const address = text(body.pay_address);
  if (!id || !status || !address)
    throw new ProviderError('NOWPayments answered without a payment id, status or address');
  return {
    payment_id: id,
    payment_status: status,
    pay_address: address,
    price_amount: text(body.price_amount) ?? '0',
    price_currency: text(body.price_currency) ?? '',
    pay_currency: text(body.pay_currency) ?? '',
    pay_amount: text(body.pay_amount) ?? '0',
    actually_paid: text(body.actually_paid),
    order_id: text(body.order_id) ?? '',
    created_at: text(body.created_at) ?? new Date().toISOString(),
    expires_at: text(body.expiration_estimate_date),
    payin_hash: text(body.payin_hash),
  };
}

export function nowPaymentsProvider(options: { apiKey: string; baseUrl: string }): PaymentProvider {
  async function call(method: 'GET' | 'POST', path: string, body?: Json): Promise<Json> {
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}${path}`, {
        method,
        headers: {
          'x-api-key': options.apiKey,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new ProviderError(`NOWPayments did not answer: ${String(error)}`);
    }
    const parsed = (await response.json().catch(() => ({}))) as Json;
    if (!response.ok) {
      const reason = text(parsed.message) ?? `HTTP ${response.status}`;
      throw new ProviderError(`NOWPayments refused ${method} ${path}: ${reason}`, response.status);
    }
    return parsed;
  }

  return {
    name: 'nowpayments',
    async currencies(): Promise<ProviderCurrency[]> {
      const body = await call('GET', '/v1/currencies');
      if (!Array.isArray(body.currencies)) throw new ProviderError('NOWPayments currencies: no list');
      return body.currencies.map((entry) => {
        const code = String(typeof entry === 'object' && entry ? (entry as Json).code : entry).toLowerCase();
        return { code, ...(NETWORKS[code] ?? { name: code.toUpperCase(), network: '' }) };
      });
    },
    async minAmount(from, to) {
      const query = new URLSearchParams({ currency_from: from, currency_to: to });
      const body = await call('GET', `/v1/min-amount?${query}`);
      const min = Number(body.min_amount);
      if (!Number.isFinite(min) || min < 0) throw new ProviderError('NOWPayments min-amount: no number');
      return min;
    },
    async createPayment(invoice: NewInvoice) {
      return toPayment(
        await call('POST', '/v1/payment', {
          price_amount: Number(invoice.priceAmount),
          price_currency: invoice.priceCurrency,
          // NOWPayments takes pay_amount as given instead of converting the price: the member is asked
          // for exactly the amount the screen shows.
          pay_amount: Number(invoice.payAmount),
          pay_currency: invoice.payCurrency,
          order_id: invoice.orderId,
          order_description: 'Deposit to the Active Wallet',
          ipn_callback_url: invoice.ipnCallbackUrl,
        }),
      );
    },
    async getPayment(paymentId) {
      return toPayment(await call('GET', `/v1/payment/${encodeURIComponent(paymentId)}`));
    },
  };
}
