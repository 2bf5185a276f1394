import { sql } from 'kysely';
import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { type Db, isPostgres } from '../../db/database.ts';
import type { IdempotencyKeyTable, LedgerTransferTable } from '../../db/schema.ts';
import {
  type StoredSubscription,
  subscriptionsAsJson,
  subscriptionsFromJson,
} from '../push/push.repository.ts';
import type { TransferParty } from '../users/users.repository.ts';

// The only SQL of transfers. A transfer is a ledger row of kind 'transfer' between two member wallets;
// its status comes from the ledger: 'single' is completed, 'pending' waits for its post (completed)
// or void (failed). Nothing here updates a ledger row.

export const TRANSFER_KIND: LedgerKind = 'transfer';

function transferRows(db: Db) {
  return db
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as da', 'da.id', 't.debit_account_id')
    .innerJoin('ledger_accounts as ca', 'ca.id', 't.credit_account_id')
    .innerJoin('users as su', 'su.id', 'da.user_id')
    .innerJoin('users as ru', 'ru.id', 'ca.user_id')
    .leftJoin('ledger_transfers as s', 's.pending_id', 't.id')
    .where('t.kind', '=', TRANSFER_KIND)
    .where('t.phase', 'in', ['single', 'pending'])
    .select([
      't.id',
      't.amount_cents',
      't.description',
      't.created_at',
      't.phase',
      's.phase as settlement',
      'da.code as from',
      'ca.code as to',
      'su.id as sender_id',
      'su.fullname as sender_name',
      'su.email as sender_email',
      'ru.id as recipient_id',
      'ru.fullname as recipient_name',
      'ru.email as recipient_email',
    ]);
}

export type TransferRow = Awaited<ReturnType<ReturnType<typeof transferRows>['execute']>>[number];

/** Every transfer a member sent or received, newest first. */
export async function transfersOfMember(db: Db, userId: string): Promise<TransferRow[]> {
  const wallets = [`${userId}:business`, `${userId}:working`];
  return transferRows(db)
    .where((eb) => eb.or([eb('t.debit_account_id', 'in', wallets), eb('t.credit_account_id', 'in', wallets)]))
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
}

export async function findTransferRow(db: Db, id: string): Promise<TransferRow | undefined> {
  return transferRows(db).where('t.id', '=', id).executeTakeFirst();
}

/** Pending is "no settlement yet"; completed and failed are single/post and void. */
function whereStatus(status: string | undefined) {
  return <Q extends ReturnType<typeof transferRows>>(query: Q): Q => {
    if (status === 'pending') return query.where('t.phase', '=', 'pending').where('s.id', 'is', null) as Q;
    if (status === 'completed')
      return query.where((eb) => eb.or([eb('t.phase', '=', 'single'), eb('s.phase', '=', 'post')])) as Q;
    if (status === 'failed') return query.where('s.phase', '=', 'void') as Q;
    return query;
  };
}

export async function listTransfers(
  db: Db,
  filter: { status?: string; offset: number; limit: number },
): Promise<{ rows: TransferRow[]; total: number }> {
  const filtered = whereStatus(filter.status);
  const [rows, count] = await Promise.all([
    filtered(transferRows(db))
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    filtered(transferRows(db))
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/**
 * Adds to what a member sent others today, only while the sum stays within the limit: one guarded
 * upsert, so two racing transfers cannot both pass a check that only one of them fits.
 */
export async function addToDailyTotal(
  trx: Db,
  userId: string,
  day: string,
  amountCents: number,
  limitCents: number,
): Promise<boolean> {
  if (amountCents > limitCents) return false;
  // A sql template: it runs on every transfer (see ledger.repository.ts).
  const result = await sql`insert into transfer_daily_totals (user_id, day, amount_cents)
    values (${userId}, ${day}, ${amountCents})
    on conflict (user_id, day) do update
    set amount_cents = transfer_daily_totals.amount_cents + excluded.amount_cents
    where transfer_daily_totals.amount_cents + excluded.amount_cents <= ${limitCents}`.execute(trx);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/**
 * A rejected transfer no longer counts against its day's limit; false when the day's total does not
 * cover its amount (it was given back already).
 */
export async function subtractFromDailyTotal(
  trx: Db,
  userId: string,
  day: string,
  amountCents: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('transfer_daily_totals')
    .set({ amount_cents: sql`amount_cents - ${amountCents}` })
    .where('user_id', '=', userId)
    .where('day', '=', day)
    .where('amount_cents', '>=', amountCents)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * In the transfer's transaction, one statement: its members, the stored settings, and the
 * subscriptions of `pushFor` (the recipient, when push is set up; pushed once the money has moved).
 * One round trip where there were three, one statement where there were three. The settings are read
 * by the same statement, so the transfer applies them as they were when it read its members. On
 * PostgreSQL the members are locked for share: a block or deactivation waits for the money to move,
 * or the transfer sees it; SQLite's one writer keeps them as read until the transaction ends. A sql
 * template (see ledger.repository.ts): every transfer runs it.
 */
export async function transferPartiesWithSettings(
  trx: Db,
  ids: string[],
  pushFor: string | undefined,
): Promise<{
  parties: TransferParty[];
  settingRows: { name: string; value: string }[];
  push: StoredSubscription[];
}> {
  const postgres = isPostgres(trx);
  const settings = postgres
    ? sql`(select coalesce(json_agg(json_build_array(name, value)), '[]') from settings)`
    : sql`(select json_group_array(json_array(name, value)) from settings)`;
  const push =
    pushFor === undefined
      ? sql``
      : sql`, case when users.id = ${pushFor} then ${subscriptionsAsJson(trx, sql.ref('users.id'))} end as push`;
  const { rows } = await sql<TransferParty & { settings: unknown; push?: unknown }>`select id, role, status,
      is_active, fullname, email, ${settings} as settings${push}
    from users where id in (${sql.join(ids)})${postgres ? sql` for share of users` : sql``}`.execute(trx);
  const first = rows[0]?.settings;
  const pairs = (typeof first === 'string' ? JSON.parse(first) : (first ?? [])) as [string, string][];
  return {
    parties: rows.map(({ id, role, status, is_active, fullname, email }) => ({
      id,
      role,
      status,
      is_active,
      fullname,
      email,
    })),
    settingRows: pairs.map(([name, value]) => ({ name, value })),
    push: subscriptionsFromJson(rows.find((row) => row.id === pushFor)?.push),
  };
}

export type OneStatementTransfer = {
  row: LedgerTransferTable;
  /** Debit before credit: the caller's account-id order, the order every ledger write locks rows in. */
  debitFirst: boolean;
  /** The sender's daily counter, or null for a move between one's own wallets. */
  daily: { userId: string; day: string; limitCents: number } | null;
  key: IdempotencyKeyTable | undefined;
};

/** The refusals member_transfer raises (migration 0008), as PostgreSQL reports them. */
const REFUSALS = ['daily_limit', 'insufficient_balance'] as const;

/**
 * PostgreSQL only: every write of a transfer in one statement, its own transaction (migration 0008).
 * 'ok', or the refusal that undid all of it; any other failure (a taken Idempotency-Key) is thrown.
 */
export async function transferInOneStatement(
  db: Db,
  t: OneStatementTransfer,
): Promise<'ok' | (typeof REFUSALS)[number]> {
  const { row, daily, key } = t;
  try {
    await sql`select member_transfer(${row.id}, ${row.debit_account_id}, ${row.credit_account_id},
      ${t.debitFirst}, ${row.amount_cents}, ${row.phase}, ${row.kind}, ${row.reference}, ${row.description},
      ${row.created_by}, ${row.created_at}, ${daily?.userId ?? null}, ${daily?.day ?? null},
      ${daily?.limitCents ?? null}, ${key?.owner_id ?? null}, ${key?.key ?? null}, ${key?.request_hash ?? null},
      ${key?.status_code ?? null}, ${key?.response_body ?? null})`.execute(db);
    return 'ok';
  } catch (error) {
    const refusal = REFUSALS.find((r) => (error as { code?: string; message?: string }).message === r);
    if ((error as { code?: string }).code === 'P0001' && refusal) return refusal;
    throw error;
  }
}

/** What a member has sent to others on this UTC day (the counter the daily limit checks). */
export async function sentToday(db: Db, userId: string, day: string): Promise<number> {
  const row = await db
    .selectFrom('transfer_daily_totals')
    .select('amount_cents')
    .where('user_id', '=', userId)
    .where('day', '=', day)
    .executeTakeFirst();
  return Number(row?.amount_cents ?? 0);
}
