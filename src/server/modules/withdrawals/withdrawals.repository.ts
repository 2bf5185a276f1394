import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WithdrawalTable } from '../../db/schema.ts';
import { paidToMember } from '../wallets/ledger.repository.ts';

// The only SQL of withdrawals.

export type WithdrawalRow = WithdrawalTable & {
  fullname: string;
  username: string;
  email: string;
  verify_at: string | null;
  member_since: string;
  plan_name: string | null;
};

function withdrawalRows(db: Db) {
  return db
    .selectFrom('withdrawals as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .leftJoin('plans as p', 'p.id', 'w.plan_id')
    .selectAll('w')
    .select([
      'u.fullname',
      'u.username',
      'u.email',
      'u.verify_at',
      'u.created_at as member_since',
      'p.name as plan_name',
    ]);
}

export async function insertWithdrawal(trx: Db, row: WithdrawalTable): Promise<void> {
  await trx.insertInto('withdrawals').values(row).execute();
}

export async function findWithdrawal(db: Db, id: string): Promise<WithdrawalRow | undefined> {
  return withdrawalRows(db).where('w.id', '=', id).executeTakeFirst();
}

/** Pending first (oldest first: the queue), then the decided ones, newest first. */
export async function listWithdrawals(
  db: Db,
  filter: { userId?: string; status?: WithdrawalTable['status']; kinds?: WithdrawalTable['kind'][] },
): Promise<WithdrawalRow[]> {
  let query = withdrawalRows(db);
  if (filter.userId) query = query.where('w.user_id', '=', filter.userId);
  if (filter.status) query = query.where('w.status', '=', filter.status);
  if (filter.kinds) query = query.where('w.kind', 'in', filter.kinds);
  return query
    .orderBy(sql`case when w.status = 'pending' then 0 else 1 end`)
    .orderBy(sql`case when w.status = 'pending' then w.created_at end`)
    .orderBy('w.created_at', 'desc')
    .limit(2000)
    .execute();
}

/**
 * Moves a request out of pending, once: of two racing decisions (or a decision and a cancel), the
 * second finds no pending row and changes nothing. On PostgreSQL the row stays locked until commit.
 */
export async function closeWithdrawal(
  trx: Db,
  id: string,
  change: Pick<WithdrawalTable, 'status' | 'decided_at' | 'decided_by' | 'tx_hash' | 'reason'>,
): Promise<boolean> {
  const result = await trx
    .updateTable('withdrawals')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A pending compound request's new amount and its new hold (the old one was voided by the caller). */
export async function changePendingAmount(
  trx: Db,
  id: string,
  change: Pick<WithdrawalTable, 'amount_cents' | 'net_amount_cents' | 'hold_id'>,
): Promise<boolean> {
  const result = await trx
    .updateTable('withdrawals')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function openWithdrawalOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('withdrawals')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.id;
}

/** ROI already taken out of an investment, or waiting to be: pending and approved roi requests. */
export async function roiWithdrawnCents(db: Db, topupId: string): Promise<number> {
  const row = await db
    .selectFrom('withdrawals')
    .select(sql<string | number | null>`sum(amount_cents)`.as('total'))
    .where('topup_id', '=', topupId)
    .where('kind', '=', 'roi')
    .where('status', 'in', ['pending', 'approved'])
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export type MemberInvestment = {
  id: string;
  user_id: string;
  amount_cents: number | string;
  roi_paid_cents: number | string;
  roi_end_date: string;
  status: string;
  plan_name: string;
  roi_withdrawn_cents: number | string | null;
  principal_taken: number | string | null;
  promotional: number | string;
};

/** A member's investments with what has been withdrawn of each (for the options and the checks). */
export async function investmentsOf(db: Db, userId: string, topupId?: string): Promise<MemberInvestment[]> {
  let query = db
    .selectFrom('topups as t')
    .innerJoin('plans as p', 'p.id', 't.plan_id')
    .select([
      't.id',
      't.user_id',
      't.amount_cents',
      't.roi_paid_cents',
      't.roi_end_date',
      't.status',
      'p.name as plan_name',
      sql<string | number | null>`(select sum(w.amount_cents) from withdrawals w where w.topup_id = t.id
        and w.kind = 'roi' and w.status in ('pending', 'approved'))`.as('roi_withdrawn_cents'),
      sql<string | number | null>`(select count(*) from withdrawals w where w.topup_id = t.id
        and w.kind = 'principal' and w.status in ('pending', 'approved'))`.as('principal_taken'),
      // Paid by a code not recorded as paid for (a code's row links its investment when redeemed).
      sql<number | string>`case when t.type = 'code' and not exists (select 1 from activation_codes c
        where c.topup_id = t.id and c.funding = 'paid') then 1 else 0 end`.as('promotional'),
    ])
    .where('t.user_id', '=', userId);
  if (topupId) query = query.where('t.id', '=', topupId);
  return query.orderBy('t.created_at', 'desc').execute();
}

/** When each of the member's payout addresses may be used (no row: set before changes were recorded). */
export async function addressUsableFrom(db: Db, userId: string) {
  return db
    .selectFrom('payout_address_changes')
    .select(['network', 'usable_from'])
    .where('user_id', '=', userId)
    .execute();
}

export type MoneyInRow = { amount_cents: number | string; kind: string; created_at: string };

/** The member's newest money in from a platform account (paidToMember: income or deposits). */
export async function recentCredits(db: Db, userId: string, sourceAccountId: string, limit: number) {
  return paidToMember(db, sourceAccountId, userId)
    .select(['amount_cents', 'kind', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function creditTotal(db: Db, userId: string, sourceAccountId: string): Promise<number> {
  const row = await paidToMember(db, sourceAccountId, userId)
    .select(sql<string | number | null>`sum(amount_cents)`.as('total'))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function approvedTotal(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('withdrawals')
    .select(sql<string | number | null>`sum(amount_cents)`.as('total'))
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .where('kind', '<>', 'compound')
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
