import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ActivationIncomeTable, TopupTable, UserTable } from '../../db/schema.ts';

// The only SQL of top-ups and activation income.

export type TopupParty = Pick<
  UserTable,
  'id' | 'role' | 'status' | 'is_active' | 'level_status' | 'sponsor_id' | 'fullname' | 'username'
>;

/** A member with what the top-up rules read: role, status, activity and names. */
export async function findParty(db: Db, id: string): Promise<TopupParty | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'role', 'status', 'is_active', 'level_status', 'sponsor_id', 'fullname', 'username'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * PostgreSQL: the member's row, locked as the update that activates them locks it. Every transaction
 * takes members' rows before ledger accounts (a transfer locks its members for share, then its
 * accounts); one that moves money before it may activate a member takes this first, or it and the
 * member's transfer wait on each other and PostgreSQL ends one of them as a deadlock.
 */
export async function lockMemberRow(trx: Db, id: string): Promise<void> {
  await sql`select id from users where id = ${id} for no key update`.execute(trx);
}

/** The first top-up makes a member active: is_active, activation_date (kept if set before) and paid_member. */
export async function activateMember(trx: Db, id: string, nowIso: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      is_active: 'active',
      activation_date: sql`coalesce(activation_date, ${nowIso})`,
      paid_member: 1,
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('is_active', '<>', 'active'), eb('paid_member', '<>', 1), eb('activation_date', 'is', null)]),
    )
    .execute();
}

export async function hasTopup(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('topups')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * PostgreSQL: locks every ledger account a top-up will touch, in id order, before any of them changes.
 * A top-up moves several transfers (the purchase, then one per earning upline); locking as each one
 * comes would let two top-ups take the same accounts in opposite orders and deadlock. SQLite runs one
 * transaction at a time and needs none of this.
 */
export async function lockAccounts(trx: Db, ids: string[]): Promise<void> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0) return;
  await sql`select id from ledger_accounts where id in (${sql.join(sorted)}) order by id for no key update`.execute(
    trx,
  );
}

export async function insertTopup(trx: Db, row: TopupTable): Promise<void> {
  await trx.insertInto('topups').values(row).execute();
}

export async function insertActivationIncome(trx: Db, row: ActivationIncomeTable): Promise<void> {
  await trx.insertInto('activation_incomes').values(row).execute();
}

export type TopupRow = TopupTable & {
  plan_name: string;
  user_name: string;
  user_username: string;
  userby_name: string | null;
  userby_username: string | null;
};

function topupRows(db: Db) {
  return db
    .selectFrom('topups as t')
    .innerJoin('plans as p', 'p.id', 't.plan_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as b', 'b.id', 't.userby_id')
    .selectAll('t')
    .select([
      'p.name as plan_name',
      'u.fullname as user_name',
      'u.username as user_username',
      'b.fullname as userby_name',
      'b.username as userby_username',
    ]);
}

/** A page of top-ups, newest first: those a member paid or received, or (no member) every one. */
export async function listTopups(
  db: Db,
  memberId: string | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: TopupRow[]; total: number }> {
  let rows = topupRows(db);
  let count = db.selectFrom('topups as t').select((eb) => eb.fn.countAll<number>().as('total'));
  if (memberId) {
    rows = rows.where((eb) => eb.or([eb('t.user_id', '=', memberId), eb('t.userby_id', '=', memberId)]));
    count = count.where((eb) => eb.or([eb('t.user_id', '=', memberId), eb('t.userby_id', '=', memberId)]));
  }
  const [list, total] = await Promise.all([
    rows
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: list as TopupRow[], total: Number(total.total) };
}

/** A member by exact e-mail or username, in any case (the top-up form's look-up). */
export async function findMemberByEmailOrUsername(db: Db, key: string) {
  const lower = key.toLowerCase();
  return db
    .selectFrom('users')
    .select(['id', 'fullname', 'username'])
    .where('role', '=', 'user')
    .where((eb) => eb.or([eb('email', '=', lower), eb(sql<string>`lower(username)`, '=', lower)]))
    .executeTakeFirst();
}
