import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { teamTotalsOnErase } from '../team/team-totals.repository.ts';

// The SQL of the admin's member screens (issue 8): the list and its export, the edit, the detail's
// reads, the history that decides between erasing and deactivating, and the erase itself.

export type MemberFilterInput = {
  search?: string | undefined;
  status?: UserTable['status'] | undefined;
  is_active?: UserTable['is_active'] | undefined;
  invested?: 'any' | 'never' | 'yes' | undefined;
};

/**
 * "Invested" for every admin screen: the member (the `users` row of the query) has at least one top-up
 * of their own. The one definition behind GET /users/non/users and the members list's Invested filter.
 */
const hasInvested = sql<SqlBool>`exists (select 1 from topups where topups.user_id = users.id)`;

/** `%` and `_` in what an admin types are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Members only (admins are not members), narrowed by the list's filter; one fragment for the page, the count and the export. */
function memberWhere(filter: MemberFilterInput) {
  const parts = [sql`users.role = 'user'`];
  if (filter.status) parts.push(sql`users.status = ${filter.status}`);
  if (filter.is_active) parts.push(sql`users.is_active = ${filter.is_active}`);
  if (filter.invested === 'never') parts.push(sql`not ${hasInvested}`);
  if (filter.invested === 'yes') parts.push(hasInvested);
  const search = filter.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    const phoneDigits = search.replace(/[\s().-]/g, '');
    parts.push(sql`(lower(users.fullname) like ${pattern} escape '\\'
      or lower(users.username) like ${pattern} escape '\\'
      or users.email like ${pattern} escape '\\'
      or users.phone like ${likePattern(phoneDigits || search)} escape '\\')`);
  }
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

const SORT_EXPRESSIONS = {
  created_at: sql`users.created_at`,
  fullname: sql`lower(users.fullname)`,
  username: sql`lower(users.username)`,
  email: sql`users.email`,
  business: sql`coalesce(b.balance_cents - b.held_cents, 0)`,
  working: sql`coalesce(w.balance_cents - w.held_cents, 0)`,
} as const;

export type MemberRow = UserTable & { business_available: number; working_available: number };

/** A page of members with their available wallet balances (posted minus held), in the chosen order. */
export async function listMembers(
  db: Db,
  filter: MemberFilterInput & { sort: keyof typeof SORT_EXPRESSIONS; order: 'asc' | 'desc' },
  page: { offset: number; limit: number },
): Promise<MemberRow[]> {
  const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await db
    .selectFrom('users')
    .leftJoin('ledger_accounts as b', (join) =>
      join.onRef('b.user_id', '=', 'users.id').on('b.code', '=', 'business'),
    )
    .leftJoin('ledger_accounts as w', (join) =>
      join.onRef('w.user_id', '=', 'users.id').on('w.code', '=', 'working'),
    )
    .selectAll('users')
    .select([
      sql<number>`coalesce(b.balance_cents - b.held_cents, 0)`.as('business_available'),
      sql<number>`coalesce(w.balance_cents - w.held_cents, 0)`.as('working_available'),
    ])
    .where(memberWhere(filter))
    .orderBy(sql`${SORT_EXPRESSIONS[filter.sort]} ${direction}`)
    .orderBy('users.id', filter.order)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({
    ...row,
    business_available: Number(row.business_available),
    working_available: Number(row.working_available),
  }));
}

export async function countMatchingMembers(db: Db, filter: MemberFilterInput): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where(memberWhere(filter))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export type EditableColumns = Partial<
  Pick<
    UserTable,
    | 'username'
    | 'email'
    | 'status'
    | 'is_active'
    | 'roi_status'
    | 'level_status'
    | 'address'
    | 'business_cents'
    | 'business_balance_cents'
    | 'fullname'
    | 'phone'
    | 'bep20'
    | 'trc20'
  >
>;

export async function updateUserColumns(
  db: Db,
  id: string,
  changes: EditableColumns & { updated_at: string },
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Whether a username belongs to someone other than this user, whatever its case. */
export async function isUsernameTakenByOther(db: Db, username: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('id', '<>', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countDirectTeam(db: Db, sponsorId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('sponsor_id', '=', sponsorId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** A member's unexpired sessions, newest first: when, until when, from where. Never the token or its hash. */
export async function liveSessionsOf(db: Db, userId: string, nowIso: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'expires_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .orderBy('created_at', 'desc')
    .execute();
}

/** The newest ledger transfers touching any of a member's accounts. */
export async function recentLedgerRowsOf(db: Db, userId: string, limit: number) {
  const accounts = db.selectFrom('ledger_accounts').select('id').where('user_id', '=', userId);
  return db
    .selectFrom('ledger_transfers')
    .selectAll()
    .where((eb) => eb.or([eb('debit_account_id', 'in', accounts), eb('credit_account_id', 'in', accounts)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Ledger accounts with their owners' names, to label both sides of a transfer. */
export async function accountsWithOwners(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('ledger_accounts')
    .leftJoin('users', 'users.id', 'ledger_accounts.user_id')
    .select([
      'ledger_accounts.id',
      'ledger_accounts.code',
      'ledger_accounts.user_id',
      'users.fullname',
      'users.email',
    ])
    .where('ledger_accounts.id', 'in', ids)
    .execute();
}

/** Everything that makes a member's account history: money held, ledger rows, payments, members they sponsor. */
export async function historyOf(db: Db, userId: string) {
  const accounts = db.selectFrom('ledger_accounts').select('id').where('user_id', '=', userId);
  const [balances, ledger, payments, referrals] = await Promise.all([
    db
      .selectFrom('ledger_accounts')
      .select(['code', 'balance_cents', 'held_cents'])
      .where('user_id', '=', userId)
      .execute(),
    db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where((eb) => eb.or([eb('debit_account_id', 'in', accounts), eb('credit_account_id', 'in', accounts)]))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('crypto_payments')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    countDirectTeam(db, userId),
  ]);
  return {
    balances: balances.map((b) => ({
      code: b.code,
      balanceCents: Number(b.balance_cents),
      heldCents: Number(b.held_cents),
    })),
    ledgerRows: Number(ledger.total),
    payments: Number(payments.total),
    referrals,
  };
}

/**
 * Erases a member who has no history: their sessions, idempotency records, empty wallets and the
 * account itself. A row elsewhere that still names them (a foreign key) makes this throw, and the
 * caller's transaction rolls it all back.
 */
export async function eraseMember(trx: Db, userId: string): Promise<void> {
  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('idempotency_keys').where('owner_id', '=', userId).execute();
  await trx.deleteFrom('transfer_daily_totals').where('user_id', '=', userId).execute();
  await trx
    .deleteFrom('ledger_accounts')
    .where('user_id', '=', userId)
    .where('balance_cents', '=', 0)
    .where('held_cents', '=', 0)
    .execute();
  await teamTotalsOnErase(trx, userId);
  await trx.deleteFrom('users').where('id', '=', userId).where('role', '=', 'user').execute();
}

/** A user by id, e-mail or username (any case): the audit log's member filter. */
export async function findUserByAnyKey(db: Db, key: string): Promise<UserTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('id', '=', key),
        eb('email', '=', key.toLowerCase()),
        eb(sql<string>`lower(username)`, '=', key.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
}

export async function listAdmins(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'fullname', 'email'])
    .where('role', '=', 'admin')
    .orderBy('fullname')
    .orderBy('id')
    .execute();
}

/** Members (role 'user') without a single top-up: they never invested. */
function neverInvested(db: Db) {
  return db.selectFrom('users').where('users.role', '=', 'user').where(sql<SqlBool>`not ${hasInvested}`);
}

/** A page of the members who never invested, newest first. */
export const listNeverInvested = (db: Db, page: { offset: number; limit: number }) =>
  neverInvested(db)
    .select(['users.id', 'users.username', 'users.fullname', 'users.email', 'users.created_at'])
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export async function countNeverInvested(db: Db): Promise<number> {
  const row = await neverInvested(db)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
