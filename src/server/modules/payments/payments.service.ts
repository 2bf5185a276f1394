import { formatCents, formatUsd } from '../../../shared/money.ts';
import {
  type CreatePaymentInput,
  isFinalPaymentStatus,
  type ManualCreditInput,
  PAY_CURRENCY,
  PAYMENT_MESSAGES,
  PAYMENT_STATUS_RANK,
  type Payment,
  type PaymentStatus,
  payAmountFor,
} from '../../../shared/payments.ts';
import { PUSH_MESSAGES } from '../../../shared/push.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, replayOf, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyDepositCredited } from '../notifications/notifications.service.ts';
import { pushToMembers } from '../push/push.service.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import { claimChainCredit, setChainCreditTransfer } from '../web3/chain-credits.repository.ts';
import { isValidIpnSignature } from './ipn-signature.ts';
import type { PaymentProvider, ProviderPayment } from './payment-provider.ts';
import { ProviderError } from './payment-provider.ts';
import {
  advanceStatus,
  findCredit,
  findPayment,
  insertCreditIfMissing,
  insertPayment,
  listPayments,
  openPayments,
  type PaymentRow,
  paymentsOfMember,
} from './payments.repository.ts';
import type { SandboxProvider } from './sandbox.provider.ts';

// RULES.md "Deposits": when the provider reports `finished`, the member's business wallet is credited
// price_amount exactly once, whether the news comes by IPN or by polling, however often it comes.

export type PaymentsDeps = {
  db: Db;
  provider: PaymentProvider;
  /** Present only when the sandbox provider runs. */
  sandbox?: SandboxProvider;
  ipnSecret: string | undefined;
  publicUrl: string;
  log: { warn: (object: unknown, message: string) => void };
};

const FINAL_RANK = PAYMENT_STATUS_RANK.finished;
const rankOf = (status: string) => PAYMENT_STATUS_RANK[status as PaymentStatus] ?? 0;

export function toPayment(row: PaymentRow): Payment {
  return {
    payment_id: row.provider_payment_id,
    pay_address: row.pay_address,
    price_amount: formatCents(Number(row.price_amount_cents)),
    price_currency: row.price_currency,
    pay_currency: row.pay_currency,
    pay_amount: row.pay_amount,
    actually_paid: row.actually_paid,
    payment_status: row.payment_status,
    created_at: row.created_at,
    expires_at: row.expires_at,
    order_id: row.id,
    credited_amount: row.credited_cents === null ? null : formatCents(Number(row.credited_cents)),
    provider: row.provider,
  };
}

const toAdminPayment = (row: PaymentRow) => ({
  ...toPayment(row),
  member_id: row.user_id,
  member_name: row.member_name,
  member_email: row.member_email,
});

const providerDown = (error: unknown) =>
  error instanceof ProviderError ? new AppError(502, PAYMENT_MESSAGES.providerDown) : error;

async function loadOwn(deps: PaymentsDeps, asker: SessionUser, paymentId: string): Promise<PaymentRow> {
  const row = await findPayment(deps.db, deps.provider.name, paymentId);
  // Another member's payment is a 404, the same as one that does not exist.
  if (!row || (asker.user.role !== 'admin' && row.user_id !== asker.user.id))
    throw notFound(PAYMENT_MESSAGES.notFound);
  return row;
}

export async function currencies(deps: PaymentsDeps) {
  try {
    return { currencies: await deps.provider.currencies() };
  } catch (error) {
    throw providerDown(error);
  }
}

export async function minAmount(deps: PaymentsDeps, from: string, to: string) {
  try {
    return { min_amount: await deps.provider.minAmount(from.toLowerCase(), to.toLowerCase()) };
  } catch (error) {
    throw providerDown(error);
  }
}

/** A new invoice for the session's member (the body's id is not trusted), at or above the provider's minimum. */
export async function createPayment(
  deps: PaymentsDeps,
  member: SessionUser,
  input: CreatePaymentInput,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (member.user.role !== 'user') throw forbidden();
  const request = { route: 'create-payment', input: { ...input, id: undefined } };
  // A repeated submission gets the first invoice back without asking the provider for a second one.
  const earlier = await replayOf(deps.db, member.user.id, idempotencyKey, request);
  if (earlier) return earlier;
  const min = await minAmount(deps, PAY_CURRENCY, PAY_CURRENCY);
  // The provider's minimum is in USDT, worth a dollar each: the member reads it in USD, like the price.
  const minCents = Math.round(min.min_amount * 100);
  if (input.price_amount < minCents) {
    throw badRequest([
      { field: 'price_amount', message: `${PAYMENT_MESSAGES.belowMinimum}: ${formatUsd(minCents)}` },
    ]);
  }
  const orderId = newId();
  let invoice: ProviderPayment;
  try {
    invoice = await deps.provider.createPayment({
      priceAmount: formatCents(input.price_amount),
      // Spec 9's displayed amount is what the invoice asks for, so the screen shows one amount to send.
      payAmount: payAmountFor(formatCents(input.price_amount)),
      priceCurrency: input.price_currency,
      payCurrency: input.pay_currency,
      orderId,
      ipnCallbackUrl: `${deps.publicUrl}/api/v1/payments/ipn`,
    });
  } catch (error) {
    throw providerDown(error);
  }
  return runOnce(deps.db, member.user.id, idempotencyKey, request, async (trx) => {
    const now = new Date().toISOString();
    await insertPayment(trx, {
      id: orderId,
      user_id: member.user.id,
      provider: deps.provider.name,
      provider_payment_id: invoice.payment_id,
      pay_address: invoice.pay_address,
      price_amount_cents: input.price_amount,
      price_currency: input.price_currency,
      pay_currency: invoice.pay_currency || input.pay_currency,
      pay_amount: invoice.pay_amount,
      actually_paid: invoice.actually_paid,
      payment_status: invoice.payment_status,
      status_rank: rankOf(invoice.payment_status),
      created_at: now,
      updated_at: now,
      expires_at: invoice.expires_at,
    });
    const row = await findPayment(trx, deps.provider.name, invoice.payment_id);
    if (!row) throw new Error('the payment just written is missing');
    return { statusCode: 201, body: toPayment(row) };
  });
}

/**
 * Records what the provider says (statuses only move forward) and, when it says `finished`, credits
 * the business wallet in the same transaction. The credit's primary key makes it exactly-once: of two
 * racing callers one inserts it, the other finds it and moves nothing.
 */
export async function applyProviderPayment(deps: PaymentsDeps, remote: ProviderPayment): Promise<void> {
  const provider = deps.provider.name;
  let creditedMember: { id: string; amountCents: number } | undefined; // Web Push (issue 6)
  try {
    await deps.db.transaction().execute(async (trx) => {
      const row = await findPayment(trx, provider, remote.payment_id);
      if (!row) throw notFound(PAYMENT_MESSAGES.notFound);
      const stored = await advanceStatus(trx, row.id, {
        status: remote.payment_status,
        rank: rankOf(remote.payment_status),
        actuallyPaid: remote.actually_paid,
        at: new Date().toISOString(),
      });
      // Credit only what is recorded as finished: a `finished` read arriving after `refunded` (higher
      // rank) or `expired`/`failed` (same rank, another final status) did not move the status, so it
      // credits nothing either.
      if (stored !== 'finished' || (await findCredit(trx, provider, row.provider_payment_id))) return;
      // A payment paid by a BSC transaction the provider names shares the (chain, hash) uniqueness of
      // manual and on-chain deposits: one transaction on chain credits once, whatever the path.
      const payinHash = bscPayinHash(row.pay_currency, remote.payin_hash);
      if (payinHash) {
        const claim = await claimChainCredit(trx, {
          chainId: BSC_CHAIN_ID,
          txHash: payinHash,
          source: 'payment',
          sourceId: row.id,
          at: new Date().toISOString(),
        });
        // Our own claim: a concurrent caller credited this payment.
        if (claim?.source === 'payment' && claim.source_id === row.id) return;
        if (claim) {
          deps.log.warn(
            { paymentId: row.provider_payment_id, payinHash, creditedAs: claim.source },
            'crypto payment: its transaction was already credited by another path; not credited again',
          );
          return;
        }
      }
      await ensureWallets(trx, row.user_id);
      const transfer = await postTransfer(trx, {
        debitAccountId: PLATFORM.deposits,
        creditAccountId: walletAccountId(row.user_id, 'business'),
        amountCents: Number(row.price_amount_cents),
        kind: 'deposit',
        reference: `payment:${provider}:${row.provider_payment_id}`,
        description: `Crypto payment ${row.provider_payment_id}`,
      });
      const credited = await insertCreditIfMissing(trx, {
        provider,
        provider_payment_id: row.provider_payment_id,
        ledger_transfer_id: transfer.id,
        amount_cents: Number(row.price_amount_cents),
        method: 'automatic',
        created_by: null,
        created_at: transfer.created_at,
      });
      // Someone credited it between our check and our insert: undo our transfer with the transaction.
      if (!credited) throw new AlreadyCredited();
      if (payinHash) await setChainCreditTransfer(trx, BSC_CHAIN_ID, payinHash, transfer.id);
      await notifyDepositCredited(trx, {
        memberId: row.user_id,
        amountCents: Number(row.price_amount_cents),
        paymentId: row.provider_payment_id,
      });
      creditedMember = { id: row.user_id, amountCents: Number(row.price_amount_cents) };
    });
    // Web Push (issue 6): the credit has committed; in the background, never failing this call.
    if (creditedMember)
      void pushToMembers(deps.db, [creditedMember.id], {
        title: PUSH_MESSAGES.paymentReceivedTitle,
        body: PUSH_MESSAGES.paymentReceivedBody(formatCents(creditedMember.amountCents)),
        url: '/user/deposit-history',
      });
  } catch (error) {
    if (error instanceof AlreadyCredited || isUniqueViolation(error)) return;
    throw error;
  }
}

class AlreadyCredited extends Error {}

const BSC_CHAIN_ID = 56;
/** The payin hash of a payment made on BNB Smart Chain, in lower case; null for another network or none. */
function bscPayinHash(payCurrency: string, hash: string | null | undefined): string | null {
  if (!hash || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
  return payCurrency.toLowerCase().endsWith('bsc') ? hash.toLowerCase() : null;
}

/** Asks the provider again for a payment that is not final yet, and records the answer. */
async function refresh(deps: PaymentsDeps, row: PaymentRow): Promise<PaymentRow> {
  if (isFinalPaymentStatus(row.payment_status) && row.payment_status !== 'finished') return row;
  if (row.payment_status === 'finished' && row.credited_cents !== null) return row;
  try {
    await applyProviderPayment(deps, await deps.provider.getPayment(row.provider_payment_id));
  } catch (error) {
    // The stored status is still the truth we know; the next poll asks again.
    if (!(error instanceof ProviderError)) throw error;
    deps.log.warn({ err: error, payment: row.provider_payment_id }, 'payment status check failed');
    return row;
  }
  return (await findPayment(deps.db, row.provider, row.provider_payment_id)) ?? row;
}

export async function paymentStatus(
  deps: PaymentsDeps,
  asker: SessionUser,
  paymentId: string,
): Promise<Payment> {
  return toPayment(await refresh(deps, await loadOwn(deps, asker, paymentId)));
}

/**
 * NOWPayments' callback. The signature must verify (else 401, nothing changes); then the status is
 * read again from the provider rather than taken from the callback, and recorded like a poll's.
 */
export async function handleIpn(deps: PaymentsDeps, body: unknown, signature: unknown) {
  if (!isValidIpnSignature(body, signature, deps.ipnSecret))
    throw new AppError(401, PAYMENT_MESSAGES.badSignature);
  const paymentId = String((body as { payment_id?: unknown } | null)?.payment_id ?? '');
  if (deps.provider.name !== 'nowpayments' || !paymentId) throw notFound(PAYMENT_MESSAGES.notFound);
  const row = await findPayment(deps.db, deps.provider.name, paymentId);
  if (!row) throw notFound(PAYMENT_MESSAGES.notFound);
  try {
    await applyProviderPayment(deps, await deps.provider.getPayment(paymentId));
  } catch (error) {
    throw providerDown(error);
  }
  return { message: 'ok' };
}

/** Sandbox only: the simulated payer's transfer to a member's own waiting invoice. */
export async function sandboxPay(
  deps: PaymentsDeps,
  member: SessionUser,
  paymentId: string,
  amount: string | undefined,
): Promise<Payment> {
  if (!deps.sandbox) throw notFound(PAYMENT_MESSAGES.sandboxOnly);
  const row = await loadOwn(deps, member, paymentId);
  if (!(await deps.sandbox.pay(row.provider_payment_id, amount)))
    throw conflict(PAYMENT_MESSAGES.sandboxNotWaiting);
  return toPayment(await refresh(deps, row));
}

export async function myPayments(deps: PaymentsDeps, member: SessionUser) {
  const rows = await paymentsOfMember(deps.db, member.user.id);
  // Open ones are asked about again so the history shows what the provider knows now.
  const fresh = await Promise.all(
    rows.map((row) => (isFinalPaymentStatus(row.payment_status) ? row : refresh(deps, row))),
  );
  return { payments: fresh.map(toPayment) };
}

export async function allPayments(
  deps: PaymentsDeps,
  admin: SessionUser,
  query: { status?: string; page: number; limit: number },
) {
  if (admin.user.role !== 'admin') throw forbidden();
  const { rows, total } = await listPayments(deps.db, {
    status: query.status,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { payments: rows.map(toAdminPayment), total, page: query.page, limit: query.limit };
}

/** An admin credits a partially paid payment by hand: an adjustment, once per payment, audited. */
export async function manualCredit(
  deps: PaymentsDeps,
  admin: SessionUser,
  paymentId: string,
  input: ManualCreditInput,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (admin.user.role !== 'admin') throw forbidden();
  const request = { route: 'manual-credit', paymentId, input };
  return runOnce(deps.db, admin.user.id, idempotencyKey, request, async (trx) => {
    const row = await findPayment(trx, deps.provider.name, paymentId);
    if (!row) throw notFound(PAYMENT_MESSAGES.notFound);
    if (row.payment_status !== 'partially_paid')
      throw new AppError(422, 'Only a partially paid payment is credited by hand');
    if (row.credited_cents !== null) throw conflict('This payment has already been credited');
    await ensureWallets(trx, row.user_id);
    const transfer = await postTransfer(trx, {
      debitAccountId: PLATFORM.adjustments,
      creditAccountId: walletAccountId(row.user_id, 'business'),
      amountCents: input.amount,
      kind: 'adjustment',
      reference: `payment:${row.provider}:${row.provider_payment_id}`,
      description: input.reason,
      createdBy: admin.user.id,
    });
    if (
      !(await insertCreditIfMissing(trx, {
        provider: row.provider,
        provider_payment_id: row.provider_payment_id,
        ledger_transfer_id: transfer.id,
        amount_cents: input.amount,
        method: 'manual',
        created_by: admin.user.id,
        created_at: transfer.created_at,
      }))
    )
      throw conflict('This payment has already been credited');
    await notifyDepositCredited(trx, {
      memberId: row.user_id,
      amountCents: input.amount,
      paymentId: row.provider_payment_id,
      byAdmin: admin.user.id,
    });
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'payment.manual_credit',
      targetType: 'user',
      targetId: row.user_id,
      before: {
        payment: row.provider_payment_id,
        status: row.payment_status,
        actually_paid: row.actually_paid,
      },
      after: { credited: formatCents(input.amount), wallet: 'business' },
      reason: input.reason,
    });
    const after = await findPayment(trx, deps.provider.name, paymentId);
    return { statusCode: 201, body: { message: 'Payment credited', payment: toPayment(after ?? row) } };
  });
}

/** The background check: open payments of the last day are asked about again (a missed IPN, a closed tab). */
export async function sweepOpenPayments(deps: PaymentsDeps, now = Date.now()): Promise<number> {
  const open = await openPayments(
    deps.db,
    deps.provider.name,
    new Date(now - 24 * 60 * 60 * 1000).toISOString(),
    FINAL_RANK,
  );
  for (const { provider_payment_id } of open) {
    try {
      await applyProviderPayment(deps, await deps.provider.getPayment(provider_payment_id));
    } catch (error) {
      deps.log.warn({ err: error, payment: provider_payment_id }, 'payment sweep: check failed');
    }
  }
  return open.length;
}
