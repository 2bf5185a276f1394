import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { LedgerAccountTable, LedgerTransferTable } from '../../db/schema.ts';

// The only SQL of the ledger. Every balance change is one guarded UPDATE: the check and the write are
// one statement under the row's lock, so concurrent requests cannot both spend the same cents.
// The statements every transfer runs are written as sql templates rather than with the query builder:
// building and compiling a query costs about 25 µs, a template about 3 µs, and a transfer runs several
// (npm run bench). The SQL is the same on SQLite and PostgreSQL.

export async function insertAccountIfMissing(trx: Db, account: LedgerAccountTable): Promise<void> {
  await trx
    .insertInto('ledger_accounts')
    .values(account)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function findAccounts(trx: Db, ids: string[]): Promise<LedgerAccountTable[]> {
  if (ids.length === 0) return [];
  return trx.selectFrom('ledger_accounts').selectAll().where('id', 'in', ids).execute();
}

/** Takes money out when the available balance covers it; false when it does not. */
export async function debitIfAvailable(trx: Db, id: string, amountCents: number): Promise<boolean> {
  const result = await sql`update ledger_accounts set balance_cents = balance_cents - ${amountCents}
    where id = ${id} and (allow_negative = 1 or balance_cents - held_cents >= ${amountCents})`.execute(trx);
  return Number(result.numAffectedRows) === 1;
}

export async function credit(trx: Db, id: string, amountCents: number): Promise<void> {
  const result =
    await sql`update ledger_accounts set balance_cents = balance_cents + ${amountCents} where id = ${id}`.execute(
      trx,
    );
  // A credit to no account would let the debit stand alone: fail the whole transaction instead.
  if (Number(result.numAffectedRows) !== 1) throw new Error(`ledger account ${id} does not exist`);
}

/** Holds money (it leaves the available balance) when the available balance covers it. */
export async function holdIfAvailable(trx: Db, id: string, amountCents: number): Promise<boolean> {
  const result = await trx
    .updateTable('ledger_accounts')
    .set({ held_cents: sql`held_cents + ${amountCents}` })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('allow_negative', '=', 1), eb(sql`balance_cents - held_cents`, '>=', amountCents)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a hold: released back (void) or spent (post, which also lowers the balance). */
export async function settleHold(trx: Db, id: string, amountCents: number, spent: boolean): Promise<void> {
  await trx
    .updateTable('ledger_accounts')
    .set({
      held_cents: sql`held_cents - ${amountCents}`,
      ...(spent ? { balance_cents: sql`balance_cents - ${amountCents}` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function insertTransfer(trx: Db, t: LedgerTransferTable): Promise<void> {
  await sql`insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase,
    pending_id, kind, reference, description, created_by, created_at)
    values (${t.id}, ${t.debit_account_id}, ${t.credit_account_id}, ${t.amount_cents}, ${t.phase},
    ${t.pending_id}, ${t.kind}, ${t.reference}, ${t.description}, ${t.created_by}, ${t.created_at})`.execute(
    trx,
  );
}

export async function findTransfer(trx: Db, id: string): Promise<LedgerTransferTable | undefined> {
  return trx.selectFrom('ledger_transfers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findSettlement(trx: Db, pendingId: string): Promise<LedgerTransferTable | undefined> {
  return trx
    .selectFrom('ledger_transfers')
    .selectAll()
    .where('pending_id', '=', pendingId)
    .executeTakeFirst();
}

/** Every account with its owner's e-mail, for reconciliation. */
export async function allAccounts(db: Db) {
  return db
    .selectFrom('ledger_accounts')
    .leftJoin('users', 'users.id', 'ledger_accounts.user_id')
    .select([
      'ledger_accounts.id',
      'ledger_accounts.code',
      sql<string>`cast(ledger_accounts.balance_cents as text)`.as('balance_cents'),
      sql<string>`cast(ledger_accounts.held_cents as text)`.as('held_cents'),
      'users.email',
    ])
    .execute();
}

/**
 * A total of entries as decimal text: an account's turnover can pass 2^53 cents, past which a
 * JavaScript number (what both drivers give for a sum) is no longer exact.
 */
const exactSum = sql<string>`cast(sum(amount_cents) as text)`.as('total');

/** Sums of the entries per account and phase, from which balances are recomputed. */
export async function entrySums(db: Db) {
  const [credits, debits] = await Promise.all([
    db
      .selectFrom('ledger_transfers')
      .select(['credit_account_id as account_id', 'phase', exactSum])
      .groupBy(['credit_account_id', 'phase'])
      .execute(),
    db
      .selectFrom('ledger_transfers')
      .select(['debit_account_id as account_id', 'phase', exactSum])
      .groupBy(['debit_account_id', 'phase'])
      .execute(),
  ]);
  return { credits, debits };
}

export async function balancesOf(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents', 'held_cents'])
    .where('id', 'in', ids)
    .execute();
}

/** Transfers that moved money: a hold's pending and void rows move none. */
export const MOVED_PHASES = ['single', 'post'] as const;

/**
 * The one definition of a member's money in from a platform account: every transfer that moved money
 * out of `sourceAccountId` (platform:income for income, platform:deposits for deposits) into either of
 * the member's wallets, whatever its kind. Screens that count a member's income or deposits start here.
 */
export const paidToMember = (db: Db, sourceAccountId: string, memberId: string) =>
  db
    .selectFrom('ledger_transfers')
    .where('debit_account_id', '=', sourceAccountId)
    .where('credit_account_id', 'in', [`${memberId}:business`, `${memberId}:working`])
    .where('phase', 'in', MOVED_PHASES);

/**
 * The same definition for every member at once (the admin's reports): every transfer that moved money
 * out of `sourceAccountId` into a member's account (never one platform account to another).
 */
export const paidToMembers = (db: Db, sourceAccountId: string) =>
  db
    .selectFrom('ledger_transfers')
    .where('debit_account_id', '=', sourceAccountId)
    .where('credit_account_id', 'not like', 'platform:%')
    .where('phase', 'in', MOVED_PHASES);

/**
 * Whether money ever reached the member's Active Wallet from outside their own accounts (a deposit, a
 * transfer from another member, a credit by staff). Moving income from their own Income Working wallet
 * is not money added, and a held transfer is not money until it is posted.
 */
export async function hasMoneyAdded(db: Db, memberId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_transfers')
    .select('id')
    .where('credit_account_id', '=', `${memberId}:business`)
    .where('debit_account_id', 'not in', (eb) =>
      eb.selectFrom('ledger_accounts').select('id').where('user_id', '=', memberId),
    )
    .where('phase', 'in', MOVED_PHASES)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
