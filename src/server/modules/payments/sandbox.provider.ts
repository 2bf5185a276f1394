import { createHash, randomInt } from 'node:crypto';
import { PAYMENT_EXPIRY_MS } from '../../../shared/payments.ts';
import type { Db } from '../../db/database.ts';
import type { SandboxPaymentTable } from '../../db/schema.ts';
import type { NewInvoice, PaymentProvider, ProviderPayment } from './payment-provider.ts';
import { ProviderError } from './payment-provider.ts';

// The built-in sandbox provider: invoices for the pay amount they are given, kept in the database, that
// a simulated payer can pay in full or in part. Statuses follow from the clock: after a transfer the
// invoice is confirming at once, then confirmed, sending and finished one step apart; a partial
// transfer is partially_paid after one step; an unpaid invoice expires after 20 minutes.

const DECIMALS = 8;

/** "12.5" -> 1250000000n: crypto amounts compared exactly, never as floats. */
export function decimalUnits(value: string): bigint {
  const [whole = '0', fraction = ''] = value.trim().split('.');
  return (
    BigInt(whole) * 10n ** BigInt(DECIMALS) + BigInt(fraction.padEnd(DECIMALS, '0').slice(0, DECIMALS) || '0')
  );
}

/** 1250000000n -> "12.5". */
export function unitsToDecimal(units: bigint): string {
  const scale = 10n ** BigInt(DECIMALS);
  const fraction = (units % scale).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${units / scale}.${fraction}` : String(units / scale);
}

const FULL_STEPS = ['confirming', 'confirmed', 'sending', 'finished'] as const;

export function sandboxStatus(row: SandboxPaymentTable, nowMs: number, stepMs: number): string {
  if (!row.paid_at || !row.paid_amount) return nowMs >= Date.parse(row.expires_at) ? 'expired' : 'waiting';
  const steps = Math.floor((nowMs - Date.parse(row.paid_at)) / Math.max(stepMs, 1));
  if (decimalUnits(row.paid_amount) < decimalUnits(row.pay_amount))
    return steps >= 1 ? 'partially_paid' : 'waiting';
  return FULL_STEPS[Math.min(steps, FULL_STEPS.length - 1)] ?? 'confirming';
}

export type SandboxProvider = PaymentProvider & {
  /** The simulated payer's transfer; false when the invoice is no longer waiting for one. */
  pay(paymentId: string, amount?: string): Promise<boolean>;
};

export function sandboxProvider(db: Db, options: { stepMs: number; now?: () => number }): SandboxProvider {
  const now = options.now ?? Date.now;
  const find = async (id: string) => {
    const row = await db.selectFrom('sandbox_payments').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ProviderError(`sandbox: no payment ${id}`, 404);
    return row;
  };
  const toPayment = (row: SandboxPaymentTable): ProviderPayment => ({
    payment_id: row.id,
    payment_status: sandboxStatus(row, now(), options.stepMs),
    pay_address: row.pay_address,
    price_amount: row.price_amount,
    price_currency: row.price_currency,
    pay_currency: row.pay_currency,
    pay_amount: row.pay_amount,
    actually_paid: row.paid_amount ?? '0',
    order_id: row.order_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
  });

  return {
    name: 'sandbox',
    async currencies() {
      return [
        { code: 'usdtbsc', name: 'Tether USD (BEP20)', network: 'bsc' },
        { code: 'usdttrc20', name: 'Tether USD (TRC20)', network: 'trx' },
        { code: 'btc', name: 'Bitcoin', network: 'btc' },
      ];
    },
    async minAmount() {
      return 1;
    },
    async createPayment(invoice: NewInvoice) {
      const id = String(randomInt(1_000_000_000, 9_999_999_999));
      const createdAt = new Date(now());
      const row: SandboxPaymentTable = {
        id,
        order_id: invoice.orderId,
        // Looks like a BSC address, belongs to nobody: nothing sent to it could ever arrive.
        pay_address: `0x${createHash('sha256').update(`sandbox:${id}`).digest('hex').slice(0, 40)}`,
        price_amount: invoice.priceAmount,
        price_currency: invoice.priceCurrency,
        pay_currency: invoice.payCurrency,
        pay_amount: invoice.payAmount,
        paid_amount: null,
        paid_at: null,
        created_at: createdAt.toISOString(),
        expires_at: new Date(createdAt.getTime() + PAYMENT_EXPIRY_MS).toISOString(),
      };
      await db.insertInto('sandbox_payments').values(row).execute();
      return toPayment(row);
    },
    async getPayment(paymentId) {
      return toPayment(await find(paymentId));
    },
    async pay(paymentId, amount) {
      const row = await find(paymentId);
      const status = sandboxStatus(row, now(), options.stepMs);
      // A first transfer while waiting, or the rest after a partial one (spec 4: "send the remaining amount").
      if (status !== 'partially_paid' && (status !== 'waiting' || row.paid_at)) return false;
      const before = row.paid_amount ? decimalUnits(row.paid_amount) : 0n;
      const rest = decimalUnits(row.pay_amount) - before;
      const paid = before + (amount === undefined ? rest : decimalUnits(amount));
      const result = await db
        .updateTable('sandbox_payments')
        // The full amount is kept as the invoice wrote it ("25.50"), as a provider would report it.
        .set({
          paid_amount: paid === decimalUnits(row.pay_amount) ? row.pay_amount : unitsToDecimal(paid),
          paid_at: new Date(now()).toISOString(),
        })
        .where('id', '=', paymentId)
        // Of two racing transfers, the one that saw the amount as it still is wins.
        .where((eb) =>
          row.paid_amount === null ? eb('paid_amount', 'is', null) : eb('paid_amount', '=', row.paid_amount),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
