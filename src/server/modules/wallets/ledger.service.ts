import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatBigCents } from '../../../shared/money.ts';
import type { Reconciliation, Wallet } from '../../../shared/wallets.ts';
import { WALLET_MESSAGES, WALLETS } from '../../../shared/wallets.ts';
import { type Db, isPostgres } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import type { LedgerTransferTable } from '../../db/schema.ts';
import { AppError, conflict } from '../../http/errors.ts';
import {
  allAccounts,
  credit,
  debitIfAvailable,
  entrySums,
  findSettlement,
  findTransfer,
  holdIfAvailable,
  insertAccountIfMissing,
  insertTransfer,
  settleHold,
} from './ledger.repository.ts';

// The double-entry ledger. Each function takes the caller's transaction: the money moves, the
// transfer row, and whatever caused it (an idempotency record, an audit entry) commit together.

export const walletAccountId = (userId: string, wallet: Wallet) => `${userId}:${wallet}`;
export const PLATFORM = {
  adjustments: 'platform:adjustments',
  deposits: 'platform:deposits',
  withdrawals: 'platform:withdrawals',
  income: 'platform:income',
  fees: 'platform:fees',
} as const;

export const insufficientBalance = () => new AppError(422, WALLET_MESSAGES.insufficient);

/** A member's two wallets, created on first need. */
export async function ensureWallets(trx: Db, userId: string): Promise<void> {
  const createdAt = new Date().toISOString();
  for (const wallet of WALLETS) {
    await insertAccountIfMissing(trx, {
      id: walletAccountId(userId, wallet),
      user_id: userId,
      code: wallet,
      balance_cents: 0,
      held_cents: 0,
      allow_negative: 0,
      created_at: createdAt,
    });
  }
}

/**
 * A member's invested principal (RULES.md "Plans, top-ups and activation"): top-ups move money from the
 * payer's `business` into the beneficiary's `invested` account. Not a wallet: it is never spent or shown
 * as a balance to send from. Created on first need.
 */
export const investedAccountId = (userId: string) => `${userId}:invested`;

export async function ensureInvestedAccount(trx: Db, userId: string): Promise<void> {
  await insertAccountIfMissing(trx, {
    id: investedAccountId(userId),
    user_id: userId,
    code: 'invested',
    balance_cents: 0,
    held_cents: 0,
    allow_negative: 0,
    created_at: new Date().toISOString(),
  });
}

export type Move = {
  debitAccountId: string;
  creditAccountId: string;
  amountCents: number;
  kind: LedgerKind;
  reference?: string | null;
  description?: string | null;
  createdBy?: string | null;
  /** The row's timestamp when the caller already counted it somewhere (a daily limit); else now. */
  createdAt?: string;
};

/** A new immutable ledger row for `move`, checked (positive cents, two accounts); written by the caller. */
export function newRow(
  move: Move,
  phase: LedgerTransferTable['phase'],
  pendingId: string | null = null,
): LedgerTransferTable {
  if (!Number.isSafeInteger(move.amountCents) || move.amountCents <= 0)
    throw new RangeError('amount must be positive cents');
  if (move.debitAccountId === move.creditAccountId) throw new RangeError('a transfer needs two accounts');
  return {
    id: newId(),
    debit_account_id: move.debitAccountId,
    credit_account_id: move.creditAccountId,
    amount_cents: move.amountCents,
    phase,
    pending_id: pendingId,
    kind: move.kind,
    reference: move.reference ?? null,
    description: move.description ?? null,
    created_by: move.createdBy ?? null,
    created_at: move.createdAt ?? new Date().toISOString(),
  };
}

/**
 * Moves money at once. The two account rows are changed in a fixed order (by id), so two transfers
 * in opposite directions cannot deadlock on PostgreSQL; a failed debit rolls back the whole transaction.
 */
export async function postTransfer(trx: Db, move: Move): Promise<LedgerTransferTable> {
  const row = newRow(move, 'single');
  const steps = [
    { id: move.debitAccountId, run: () => debitIfAvailable(trx, move.debitAccountId, move.amountCents) },
    {
      id: move.creditAccountId,
      run: () => credit(trx, move.creditAccountId, move.amountCents).then(() => true),
    },
  ].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const step of steps) if (!(await step.run())) throw insufficientBalance();
  await insertTransfer(trx, row);
  return row;
}

/** Holds money for a pending transfer: it leaves the debit account's available balance now. */
export async function holdTransfer(trx: Db, move: Move): Promise<LedgerTransferTable> {
  const row = newRow(move, 'pending');
  if (!(await holdIfAvailable(trx, move.debitAccountId, move.amountCents))) throw insufficientBalance();
  await insertTransfer(trx, row);
  return row;
}

/** Settles a hold exactly once: post (the money reaches the credit account) or void (it returns). */
export async function settlePending(
  trx: Db,
  pendingId: string,
  outcome: 'post' | 'void',
  createdBy?: string | null,
): Promise<LedgerTransferTable> {
  const pending = await findTransfer(trx, pendingId);
  if (pending?.phase !== 'pending') throw new AppError(404, 'No pending transfer with this id');
  if (await findSettlement(trx, pendingId)) throw conflict('This pending transfer is already settled');
  const row = newRow(
    {
      debitAccountId: pending.debit_account_id,
      creditAccountId: pending.credit_account_id,
      amountCents: Number(pending.amount_cents),
      // The hold was written from a Move, so its kind is one of LEDGER_KINDS.
      kind: pending.kind as LedgerKind,
      reference: pending.reference,
      description: pending.description,
      createdBy,
    },
    outcome,
    pending.id,
  );
  // The unique pending_id index is the last word: of two racing settlements, one insert fails.
  try {
    await insertTransfer(trx, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This pending transfer is already settled');
    throw error;
  }
  // The accounts change in id order, as in postTransfer, so a settlement and a transfer the other way
  // cannot deadlock on PostgreSQL.
  const amountCents = Number(pending.amount_cents);
  const steps = [
    {
      id: pending.debit_account_id,
      run: () => settleHold(trx, pending.debit_account_id, amountCents, outcome === 'post'),
    },
    ...(outcome === 'post'
      ? [{ id: pending.credit_account_id, run: () => credit(trx, pending.credit_account_id, amountCents) }]
      : []),
  ].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const step of steps) await step.run();
  return row;
}

/** Recomputes every balance from the entries and compares it with the cached one; the sum of all accounts must be 0. */
export async function reconcile(db: Db): Promise<Reconciliation> {
  // One snapshot for both reads: read apart (two pool connections, or a transfer committing between
  // them), a transfer that moved money in between shows as a mismatch that is not there.
  const begin = db.transaction();
  const [accounts, { credits, debits }] = await (isPostgres(db)
    ? begin.setIsolationLevel('repeatable read').setAccessMode('read only')
    : begin
  ).execute(async (trx) => [await allAccounts(trx), await entrySums(trx)] as const);
  // In BigInt: an account's totals can pass 2^53 cents, where a JavaScript number is no longer exact.
  const computed = new Map<string, { balance: bigint; held: bigint }>();
  const at = (id: string) => {
    const entry = computed.get(id) ?? { balance: 0n, held: 0n };
    computed.set(id, entry);
    return entry;
  };
  for (const { account_id, phase, total } of credits) {
    if (phase === 'single' || phase === 'post') at(account_id).balance += BigInt(total);
  }
  for (const { account_id, phase, total } of debits) {
    const entry = at(account_id);
    const cents = BigInt(total);
    if (phase === 'single' || phase === 'post') entry.balance -= cents;
    if (phase === 'pending') entry.held += cents;
    if (phase === 'post' || phase === 'void') entry.held -= cents;
  }
  let sum = 0n;
  const mismatches: Reconciliation['mismatches'] = [];
  for (const account of accounts) {
    const cached = BigInt(account.balance_cents);
    const held = BigInt(account.held_cents);
    const expected = computed.get(account.id) ?? { balance: 0n, held: 0n };
    sum += cached;
    if (cached !== expected.balance || held !== expected.held) {
      mismatches.push({
        account_id: account.id,
        code: account.code,
        owner_email: account.email ?? null,
        cached: `${formatBigCents(cached)} (held ${formatBigCents(held)})`,
        computed: `${formatBigCents(expected.balance)} (held ${formatBigCents(expected.held)})`,
      });
    }
  }
  return {
    balanced: sum === 0n && mismatches.length === 0,
    ledger_sum: formatBigCents(sum),
    accounts_checked: accounts.length,
    mismatches,
    checked_at: new Date().toISOString(),
  };
}
