import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CtoPaymentTable, CtoPayoutTable } from '../../db/schema.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';

// The only SQL of the CTO.

/** What the platform's deposits account credited to members in [from, to). */
export async function depositsBetween(db: Db, fromIso: string, toIso: string): Promise<number> {
  const { rows } = await sql<{ cents: string | number | null }>`
    select sum(amount_cents) as cents from ledger_transfers
    where debit_account_id = ${PLATFORM.deposits} and phase in ('single', 'post')
      and created_at >= ${fromIso} and created_at < ${toIso}`.execute(db);
  return Number(rows[0]?.cents ?? 0);
}

export const findCtoPayment = (db: Db, month: string) =>
  db.selectFrom('cto_payments').selectAll().where('month', '=', month).executeTakeFirst();

export async function insertCtoPayment(trx: Db, row: CtoPaymentTable): Promise<void> {
  await trx.insertInto('cto_payments').values(row).execute();
}

export async function insertCtoPayout(trx: Db, row: CtoPayoutTable): Promise<void> {
  await trx.insertInto('cto_payouts').values(row).execute();
}

export const listCtoPayments = (db: Db) =>
  db.selectFrom('cto_payments').selectAll().orderBy('month', 'desc').execute();

export const ctoPayouts = (db: Db, filter: { month?: string; userId?: string }) => {
  let query = db
    .selectFrom('cto_payouts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select('u.username');
  if (filter.month) query = query.where('p.month', '=', filter.month);
  if (filter.userId) query = query.where('p.user_id', '=', filter.userId);
  return query.orderBy('p.month', 'desc').orderBy('u.username').execute();
};
