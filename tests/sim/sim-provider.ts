import type {
  NewInvoice,
  PaymentProvider,
  ProviderPayment,
} from '../../src/server/modules/payments/payment-provider.ts';

// The payment provider's side of the simulation: NOWPayments as the payments service sees it (its
// callbacks are checked by signature and the status is read back with getPayment), in memory and
// driven by the seed. Each invoice has a true history of statuses; a read may answer an older entry of
// it, as a lagging provider replica or a late, reordered callback would.

export type SimInvoice = { id: string; history: ProviderPayment[] };

const NEXT: Record<string, readonly string[]> = {
  waiting: ['confirming', 'partially_paid', 'expired'],
  partially_paid: ['confirming', 'partially_paid', 'expired'],
  confirming: ['confirmed'],
  confirmed: ['sending'],
  sending: ['finished', 'finished', 'finished', 'failed'],
  finished: ['finished', 'refunded'],
};

export class SimProvider {
  readonly invoices: SimInvoice[] = [];

  /** The provider as one call sees it: reads answer entry `view` of the history (the last by default). */
  as(view?: (invoice: SimInvoice) => number, seen?: (read: ProviderPayment) => void): PaymentProvider {
    const invoices = this.invoices;
    const self = this;
    return {
      name: 'nowpayments',
      async currencies() {
        return [{ code: 'usdtbsc', name: 'Tether USD (BEP20)', network: 'bsc' }];
      },
      async minAmount() {
        return 5;
      },
      async createPayment(invoice: NewInvoice) {
        return self.create(invoice);
      },
      async getPayment(paymentId: string) {
        const found = invoices.find((i) => i.id === paymentId);
        if (!found) throw new Error(`no invoice ${paymentId}`);
        const index = Math.min(view ? view(found) : found.history.length - 1, found.history.length - 1);
        const read = found.history[index] as ProviderPayment;
        seen?.(read);
        return read;
      },
    };
  }

  create(invoice: NewInvoice): ProviderPayment {
    const id = `sim-${this.invoices.length + 1}`;
    const first: ProviderPayment = {
      payment_id: id,
      payment_status: 'waiting',
      pay_address: `0x${id.padStart(40, '0')}`,
      price_amount: invoice.priceAmount,
      price_currency: invoice.priceCurrency,
      pay_currency: invoice.payCurrency,
      pay_amount: invoice.payAmount,
      actually_paid: '0',
      order_id: invoice.orderId,
      created_at: new Date().toISOString(),
      expires_at: null,
    };
    this.invoices.push({ id, history: [first] });
    return first;
  }

  /** The invoice's true status moves on, as `roll` (0..1) picks among the next possible ones. */
  advance(invoice: SimInvoice, roll: number): ProviderPayment {
    const last = invoice.history[invoice.history.length - 1] as ProviderPayment;
    const options = NEXT[last.payment_status];
    if (!options) return last;
    const status = options[Math.floor(roll * options.length)] as string;
    const paid =
      status === 'partially_paid'
        ? (Number(last.pay_amount) * roll * 0.9).toFixed(4)
        : status === 'expired'
          ? last.actually_paid
          : last.pay_amount;
    const next = { ...last, payment_status: status, actually_paid: paid };
    invoice.history.push(next);
    return next;
  }
}
