import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SalaryPaymentTable, SalaryRunTable, SalaryTierTable } from '../../db/schema.ts';

// The only SQL of salary.

/** A guard against a sponsor chain that loops, as in team.repository.ts. */
const MAX_LEVELS = 10_000;

// ---- tiers ----

/** Highest amount first: the first tier a member meets is the one they are paid. */
export const listTiers = (db: Db) =>
  db
    .selectFrom('salary_tiers')
    .selectAll()
    .orderBy('amount_cents', 'desc')
    .orderBy('min_business_cents', 'desc')
    .orderBy('name')
    .execute();

export const findTier = (db: Db, id: string) =>
  db.selectFrom('salary_tiers').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertTier(db: Db, row: SalaryTierTable): Promise<void> {
  await db.insertInto('salary_tiers').values(row).execute();
}

export async function updateTier(db: Db, id: string, change: Partial<SalaryTierTable>): Promise<void> {
  await db.updateTable('salary_tiers').set(change).where('id', '=', id).execute();
}

export async function deleteTier(db: Db, id: string): Promise<void> {
  await db.deleteFrom('salary_tiers').where('id', '=', id).execute();
}

export async function tierHasPayments(db: Db, tierId: string): Promise<boolean> {
  const row = await db
    .selectFrom('salary_payments')
    .select('id')
    .where('tier_id', '=', tierId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The month (YYYY-MM) the oldest tier was created in: the scheduler pays nothing before it. */
export async function firstTierMonth(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('salary_tiers')
    .select((eb) => eb.fn.min('created_at').as('first'))
    .executeTakeFirst();
  return row?.first ? String(row.first).slice(0, 7) : undefined;
}

// ---- who qualifies ----

export type Candidate = {
  id: string;
  username: string;
  business: number;
  directs: number;
};

/**
 * Every member whose downline (all levels, members only, as team.repository.ts counts team business)
 * invested in [fromIso, toIso), less the principal it asked to withdraw in it (pending or paid; the
 * same dollars withdrawn and invested again are no new business), with that new business (below its
 * minimum when the month took out more than it brought) and their active direct members: directs the
 * team shows as active who had an investment made before `toIso`. The walk goes up from each
 * investor, so it visits only the month's investors' upline. Blocked members are not candidates (no
 * salary, as for level income); their downline's business still counts for the members above them.
 * `unpaidIn` leaves out members already paid for that month.
 */
export async function candidates(
  db: Db,
  fromIso: string,
  toIso: string,
  minBusinessCents: number,
  unpaidIn?: string,
): Promise<Candidate[]> {
  const { rows } = await sql<{
    id: string;
    username: string;
    business: string | number;
    directs: string | number | null;
  }>`with recursive fresh as (
      select user_id, sum(cents) as cents from (
        select user_id, amount_cents as cents from topups
        where created_at >= ${fromIso} and created_at < ${toIso}
        union all
        select user_id, -amount_cents from withdrawals
        where kind = 'principal' and status in ('pending', 'approved')
          and created_at >= ${fromIso} and created_at < ${toIso}
      ) moves group by user_id
    ),
    up(id, cents, dist) as (
      select u.sponsor_id, f.cents, 1 from fresh f join users u on u.id = f.user_id
      where u.role = 'user' and u.sponsor_id is not null
      union all
      select s.sponsor_id, up.cents, up.dist + 1 from up join users s on s.id = up.id
      where s.role = 'user' and s.sponsor_id is not null and up.dist < ${MAX_LEVELS}
    ),
    business as (select id, sum(cents) as cents from up group by id),
    directs as (
      select d.sponsor_id as id, count(*) as n from users d
      where d.role = 'user' and d.is_active = 'active'
        and exists (select 1 from topups t where t.user_id = d.id and t.created_at < ${toIso})
      group by d.sponsor_id
    )
    select u.id, u.username, b.cents as business, d.n as directs
    from business b join users u on u.id = b.id left join directs d on d.id = b.id
    where u.role = 'user' and u.status = 'unblock' and b.cents >= ${minBusinessCents}
      ${unpaidIn === undefined ? sql`` : sql`and not exists (select 1 from salary_payments p where p.user_id = u.id and p.month = ${unpaidIn})`}
    order by u.id`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    business: Number(r.business),
    directs: Number(r.directs ?? 0),
  }));
}

// ---- payments ----

/** Read in the paying transaction: a member blocked after the qualifiers were listed is not paid. */
export async function isUnblocked(trx: Db, userId: string): Promise<boolean> {
  const row = await trx.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirst();
  return row?.status === 'unblock';
}

export async function insertPayment(trx: Db, row: SalaryPaymentTable): Promise<void> {
  await trx.insertInto('salary_payments').values(row).execute();
}

export async function monthTotals(db: Db, month: string) {
  const row = await db
    .selectFrom('salary_payments')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_cents').as('cents')])
    .where('month', '=', month)
    .executeTakeFirst();
  return { members: Number(row?.n ?? 0), cents: Number(row?.cents ?? 0) };
}

export async function paidSince(db: Db, fromIso: string) {
  const row = await db
    .selectFrom('salary_payments')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_cents').as('cents')])
    .where('created_at', '>=', fromIso)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), cents: Number(row?.cents ?? 0) };
}

type PaymentFilter = { month?: string | undefined; search?: string | undefined; userId?: string };

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filtered(db: Db, filter: PaymentFilter) {
  let query = db.selectFrom('salary_payments as p').innerJoin('users as u', 'u.id', 'p.user_id');
  if (filter.month) query = query.where('p.month', '=', filter.month);
  if (filter.userId) query = query.where('p.user_id', '=', filter.userId);
  if (filter.search) {
    const pattern = likePattern(filter.search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(u.username)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.fullname)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(p.tier_name)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

/** Payments newest month first, one page. */
export async function paymentPage(db: Db, filter: PaymentFilter, offset: number, limit: number) {
  const [count, rows] = await Promise.all([
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    filtered(db, filter)
      .selectAll('p')
      .select(['u.username', 'u.fullname'])
      .orderBy('p.month', 'desc')
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id')
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return { total: Number(count?.n ?? 0), rows };
}

/** One row per member paid (under the filter): months paid, total, last month. */
export async function memberTotalsPage(db: Db, filter: PaymentFilter, offset: number, limit: number) {
  const [count, rows] = await Promise.all([
    filtered(db, filter).select(sql<number>`count(distinct p.user_id)`.as('n')).executeTakeFirst(),
    filtered(db, filter)
      .select((eb) => [
        'p.user_id',
        'u.username',
        'u.fullname',
        eb.fn.countAll<number>().as('months_paid'),
        eb.fn.sum<number>('p.amount_cents').as('cents'),
        eb.fn.max('p.month').as('last_month'),
      ])
      .groupBy(['p.user_id', 'u.username', 'u.fullname'])
      .orderBy('last_month', 'desc')
      .orderBy('u.username')
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return { total: Number(count?.n ?? 0), rows };
}

export const tierPaymentTotals = (db: Db) =>
  db
    .selectFrom('salary_payments')
    .select((eb) => [
      'tier_id',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('amount_cents').as('cents'),
    ])
    .groupBy('tier_id')
    .execute();

export const totalsByMonth = (db: Db, limit: number) =>
  db
    .selectFrom('salary_payments')
    .select((eb) => [
      'month',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('amount_cents').as('cents'),
    ])
    .groupBy('month')
    .orderBy('month', 'desc')
    .limit(limit)
    .execute();

// ---- runs ----

export type RunClaim = 'claimed' | 'completed' | 'busy';

/**
 * Takes a month for a run: a new month, a failed run, one whose lease ran out (its server died), or
 * any month at all when `force` (an admin's run: it pays only what is unpaid, so it may overlap).
 */
export async function claimRun(
  db: Db,
  input: {
    month: string;
    trigger: SalaryRunTable['trigger'];
    startedBy: string | null;
    leaseMs: number;
    force: boolean;
  },
): Promise<RunClaim> {
  const nowMs = Date.now();
  const inserted = await db
    .insertInto('salary_runs')
    .values({
      month: input.month,
      status: 'running',
      trigger: input.trigger,
      started_by: input.startedBy,
      started_at: new Date(nowMs).toISOString(),
      finished_at: null,
      lease_until_ms: nowMs + input.leaseMs,
      attempts: 1,
      members_paid: 0,
      total_cents: 0,
      error: null,
    })
    .onConflict((oc) => oc.column('month').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'claimed';
  let update = db
    .updateTable('salary_runs')
    .set({
      status: 'running',
      trigger: input.trigger,
      started_by: input.startedBy,
      started_at: new Date(nowMs).toISOString(),
      finished_at: null,
      lease_until_ms: nowMs + input.leaseMs,
      attempts: sql`attempts + 1`,
      error: null,
    })
    .where('month', '=', input.month);
  if (!input.force)
    update = update
      .where('status', '<>', 'completed')
      .where((eb) => eb.or([eb('status', '=', 'failed'), eb('lease_until_ms', '<', nowMs)]));
  const taken = await update.executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return 'claimed';
  const row = await findRun(db, input.month);
  return row?.status === 'completed' ? 'completed' : 'busy';
}

export const findRun = (db: Db, month: string) =>
  db.selectFrom('salary_runs').selectAll().where('month', '=', month).executeTakeFirst();

export async function renewLease(trx: Db, month: string, leaseMs: number): Promise<void> {
  await trx
    .updateTable('salary_runs')
    .set({ lease_until_ms: Date.now() + leaseMs })
    .where('month', '=', month)
    .where('status', '=', 'running')
    .execute();
}

export async function finishRun(
  db: Db,
  month: string,
  outcome: { status: 'completed' | 'failed'; error: string | null },
): Promise<void> {
  const totals = await monthTotals(db, month);
  await db
    .updateTable('salary_runs')
    .set({
      status: outcome.status,
      error: outcome.error,
      finished_at: new Date().toISOString(),
      members_paid: totals.members,
      total_cents: totals.cents,
    })
    .where('month', '=', month)
    .execute();
}

/** The months from `from` on with a run: completed ones, and others whose lease has not run out. */
export async function settledOrBusyMonths(db: Db, from: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('salary_runs')
    .select(['month', 'status', 'lease_until_ms'])
    .where('month', '>=', from)
    .execute();
  const nowMs = Date.now();
  return new Set(
    rows
      .filter(
        (r) => r.status === 'completed' || (r.status === 'running' && Number(r.lease_until_ms) >= nowMs),
      )
      .map((r) => r.month),
  );
}

export const lastRun = (db: Db) =>
  db.selectFrom('salary_runs').selectAll().orderBy('started_at', 'desc').limit(1).executeTakeFirst();
