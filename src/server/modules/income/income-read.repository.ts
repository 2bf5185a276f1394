import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { IncomeRunTable } from '../../db/schema.ts';
import { MOVED_PHASES, paidToMember } from '../wallets/ledger.repository.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';

// The read side of the daily income (issue 15 items 3 and 4): the runs as recorded, and the income
// and deposits as the ledger has them. Nothing here writes. Figures come from ledger_transfers (the
// books), never from counters kept beside them, so these screens and the reconciliation agree.

export type RunRow = IncomeRunTable & { started_by_username: string | null };

export async function listRuns(
  db: Db,
  page: { offset: number; limit: number },
): Promise<{ rows: RunRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('income_runs as r')
      .leftJoin('users as u', 'u.id', 'r.started_by')
      .selectAll('r')
      .select('u.username as started_by_username')
      .orderBy('r.run_date', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('income_runs')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as RunRow[], total: Number(count.total) };
}

export type KindSum = { kind: string; cents: number };
export type PeriodKindSum = KindSum & { period: string };

/**
 * Income paid out of the platform's income account, by kind, in all and per UTC month from
 * `sinceMonth` ('YYYY-MM'). A transfer back into the account (none today) would count against its kind.
 */
export async function platformIncomeSums(db: Db, sinceMonth: string) {
  const signed = sql<number>`sum(case when debit_account_id = ${PLATFORM.income} then amount_cents else -amount_cents end)`;
  const base = () =>
    db
      .selectFrom('ledger_transfers')
      .where('phase', 'in', MOVED_PHASES)
      .where((eb) =>
        eb.or([eb('debit_account_id', '=', PLATFORM.income), eb('credit_account_id', '=', PLATFORM.income)]),
      );
  const [all, monthly] = await Promise.all([
    base()
      .select(['kind', signed.as('cents')])
      .groupBy('kind')
      .execute(),
    base()
      .select([sql<string>`substr(created_at, 1, 7)`.as('period'), 'kind', signed.as('cents')])
      .where('created_at', '>=', `${sinceMonth}-01`)
      .groupBy([sql`substr(created_at, 1, 7)`, 'kind'])
      .execute(),
  ]);
  return { all: all.map(toKindSum), monthly: monthly.map(toPeriodSum) };
}

/** Deposits received: money that entered members' wallets through the platform's deposits account. */
export async function depositSums(db: Db, sinceMonth: string) {
  const signed = sql<number>`sum(case when debit_account_id = ${PLATFORM.deposits} then amount_cents else -amount_cents end)`;
  const base = () =>
    db
      .selectFrom('ledger_transfers')
      .where('phase', 'in', MOVED_PHASES)
      .where((eb) =>
        eb.or([
          eb('debit_account_id', '=', PLATFORM.deposits),
          eb('credit_account_id', '=', PLATFORM.deposits),
        ]),
      );
  const [all, monthly] = await Promise.all([
    base().select(signed.as('cents')).executeTakeFirst(),
    base()
      .select([sql<string>`substr(created_at, 1, 7)`.as('period'), signed.as('cents')])
      .where('created_at', '>=', `${sinceMonth}-01`)
      .groupBy(sql`substr(created_at, 1, 7)`)
      .execute(),
  ]);
  return {
    allCents: Number(all?.cents ?? 0),
    monthly: monthly.map((row) => ({ period: row.period, cents: Number(row.cents ?? 0) })),
  };
}

/**
 * A member's income (ROI, activation and level income) as it reached their Income Working wallet, by
 * kind: in all, since `monthStart`, and per UTC day since `firstDay` (all 'YYYY-MM-DD').
 */
export async function memberIncomeSums(
  db: Db,
  memberId: string,
  kinds: readonly string[],
  since: { monthStart: string; firstDay: string },
) {
  const base = () => paidToMember(db, PLATFORM.income, memberId).where('kind', 'in', kinds);
  const total = sql<number>`sum(amount_cents)`;
  const [all, month, daily] = await Promise.all([
    base()
      .select(['kind', total.as('cents')])
      .groupBy('kind')
      .execute(),
    base()
      .select(['kind', total.as('cents')])
      .where('created_at', '>=', since.monthStart)
      .groupBy('kind')
      .execute(),
    base()
      .select([sql<string>`substr(created_at, 1, 10)`.as('period'), 'kind', total.as('cents')])
      .where('created_at', '>=', since.firstDay)
      .groupBy([sql`substr(created_at, 1, 10)`, 'kind'])
      .execute(),
  ]);
  return { all: all.map(toKindSum), month: month.map(toKindSum), daily: daily.map(toPeriodSum) };
}

/** A member's own investments, newest first, with their plan's name. */
export async function memberInvestments(db: Db, memberId: string) {
  return db
    .selectFrom('topups as t')
    .innerJoin('plans as p', 'p.id', 't.plan_id')
    .select([
      't.id',
      'p.name as plan_name',
      't.amount_cents',
      't.roi_bp',
      't.duration_days',
      't.roi_paid_cents',
      't.roi_days_paid',
      't.roi_cap_cents',
      't.status',
      't.created_at',
      't.roi_end_date',
    ])
    .where('t.user_id', '=', memberId)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
}

const toKindSum = (row: { kind: string; cents: number | string | null }): KindSum => ({
  kind: row.kind,
  cents: Number(row.cents ?? 0),
});
const toPeriodSum = (row: {
  period: string;
  kind: string;
  cents: number | string | null;
}): PeriodKindSum => ({
  period: row.period,
  ...toKindSum(row),
});
