import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WithdrawalTable } from '../../db/schema.ts';
import { unfinishedRun } from '../income/income.repository.ts';
import { TRANSFER_KIND } from '../transfers/transfers.repository.ts';

// The only SQL of the admin dashboard's "Needs action": each figure is one aggregate in the database
// (COUNT, SUM, MIN), never rows carried into JavaScript, so the dashboard costs the same with ten
// waiting items or ten thousand. The definitions are docs/rules.md "Admin dashboard".

/** A count, the oldest item's time and (where money waits) its total in cents. */
export type Waiting = { count: number; oldestAt: string | null; cents: number };

// PostgreSQL answers COUNT and SUM over bigint as strings, SQLite as numbers; SUM of nothing is null.
const toWaiting = (row: { n: unknown; oldest: unknown; cents?: unknown }): Waiting => ({
  count: Number(row.n ?? 0),
  oldestAt: row.oldest == null ? null : String(row.oldest),
  cents: Number(row.cents ?? 0),
});

/**
 * The two admin screens that decide withdrawals: /admin/withdrawals (income, compound) and
 * /admin/roi-request (ROI, principal). Together every kind the product has.
 */
export const withdrawalsKinds = {
  income: ['income', 'compound'],
  roi: ['roi', 'principal'],
} as const satisfies Record<string, readonly WithdrawalTable['kind'][]>;

/** What every line asks of its table: how many, the oldest, and (where money waits) how much. */
const WAITING = [
  sql<number>`count(*)`.as('n'),
  sql<string | null>`min(created_at)`.as('oldest'),
  sql<number | null>`sum(amount_cents)`.as('cents'),
] as const;
const WAITING_NO_MONEY = WAITING.slice(0, 2);

export async function pendingWithdrawals(
  db: Db,
  kinds: readonly WithdrawalTable['kind'][],
): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('withdrawals')
      .where('status', '=', 'pending')
      .where('kind', 'in', kinds)
      .select(WAITING)
      .executeTakeFirstOrThrow(),
  );
}

export async function pendingManualDeposits(db: Db): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('manual_deposits')
      .where('status', '=', 'pending')
      .select(WAITING)
      .executeTakeFirstOrThrow(),
  );
}

/** On-chain deposits the chain check handed to an admin; their amount is unknown until the chain showed one. */
export async function web3DepositsAwaitingAdmin(db: Db): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('web3_deposits')
      .where('status', '=', 'awaiting_admin')
      .select(WAITING)
      .executeTakeFirstOrThrow(),
  );
}

/** Member transfers held for review: a pending ledger row with no post or void yet (transfers.repository.ts). */
export async function transfersOnHold(db: Db): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('ledger_transfers as t')
      .leftJoin('ledger_transfers as s', 's.pending_id', 't.id')
      .where('t.kind', '=', TRANSFER_KIND)
      .where('t.phase', '=', 'pending')
      .where('s.id', 'is', null)
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.min('t.created_at').as('oldest'),
        eb.fn.sum('t.amount_cents').as('cents'),
      ])
      .executeTakeFirstOrThrow(),
  );
}

export async function ticketsWithStatus(db: Db, status: 'open' | 'in_progress'): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('tickets')
      .where('status', '=', status)
      .select(WAITING_NO_MONEY)
      .executeTakeFirstOrThrow(),
  );
}

export async function failedMails(db: Db): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('mail_outbox')
      .where('status', '=', 'failed')
      .select(WAITING_NO_MONEY)
      .executeTakeFirstOrThrow(),
  );
}

/** Pending mails the relay has refused at least once: the worker is still retrying them. */
export async function retryingMails(db: Db): Promise<Waiting> {
  return toWaiting(
    await db
      .selectFrom('mail_outbox')
      .where('status', '=', 'pending')
      .where('attempts', '>', 0)
      .where('last_error', 'is not', null)
      .select(WAITING_NO_MONEY)
      .executeTakeFirstOrThrow(),
  );
}

/**
 * Income runs that failed, or are "running" with a lease that ran out (their server died): the dates
 * the scheduler retries (income.repository.ts unfinishedRun), counted instead of listed.
 */
export async function unfinishedIncomeRuns(
  db: Db,
  nowMs: number,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('income_runs')
    .where(unfinishedRun(nowMs))
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('run_date').as('oldest')])
    .executeTakeFirstOrThrow();
  return { count: Number(row.n ?? 0), oldest: row.oldest == null ? null : String(row.oldest) };
}

/** Salary runs that failed, or are "running" with a lease that ran out. */
export async function unfinishedSalaryRuns(
  db: Db,
  nowMs: number,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('salary_runs')
    .where(unfinishedRun(nowMs))
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('month').as('oldest')])
    .executeTakeFirstOrThrow();
  return { count: Number(row.n ?? 0), oldest: row.oldest == null ? null : String(row.oldest) };
}
