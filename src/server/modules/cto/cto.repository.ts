import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CtoPaymentTable, CtoPayoutTable } from '../../db/schema.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';

// The only SQL of the CTO.

/** Every member whose team business (all investments of the downline) is at least `minCents`. */
export async function membersWithBusiness(db: Db, minCents: number) {
  const { rows } = await sql<{ id: string; username: string; fullname: string; business: string | number }>`
    with recursive closure(anc, id) as (
      select id, id from users where role = 'user'
      union all
      select c.anc, u.id from users u join closure c on u.sponsor_id = c.id where u.role = 'user'
    ),
    invested as (select user_id, sum(amount_cents) as cents from topups group by user_id),
    business as (
      select c.anc as id, sum(i.cents) as business from closure c join invested i on i.user_id = c.id
      where c.anc <> c.id group by c.anc
    )
    select u.id, u.username, u.fullname, b.business from business b join users u on u.id = b.id
    where b.business >= ${minCents} order by b.business desc, u.username`.execute(db);
  return rows.map((r) => ({ ...r, business: Number(r.business) }));
}

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
