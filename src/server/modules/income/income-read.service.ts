import { addDays, dateOf } from '../../../shared/dates.ts';
import {
  INCOME_KINDS,
  type IncomeByKind,
  type IncomeOverview,
  type IncomeRunList,
  type IncomeRunListQuery,
  type IncomeRunRow,
  type IncomeSummary,
  type MemberInvestment,
} from '../../../shared/income.ts';
import { formatCents } from '../../../shared/money.ts';
import { formatPercent } from '../../../shared/plans.ts';
import type { Db } from '../../db/database.ts';
import { forbidden } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  depositSums,
  type KindSum,
  listRuns,
  memberIncomeSums,
  memberInvestments,
  platformIncomeSums,
  type RunRow,
} from './income-read.repository.ts';

// What the admin's and the member's income screens show (issue 15 items 3 and 4). Money leaves here
// as decimal strings (RULES.md "Money"); every sum is integer cents until then.

const CHART_DAYS = 30;

function requireAdmin(asker: SessionUser): void {
  if (asker.user.role !== 'admin') throw forbidden();
}

/**
 * A run the scheduler first claimed for a date other than the day before (a day no server was up for,
 * or a failed run it retried later) is shown as a catch-up: the row keeps only "schedule".
 */
export function runTrigger(row: Pick<RunRow, 'trigger' | 'run_date' | 'started_at'>): string {
  if (row.trigger !== 'schedule') return row.trigger;
  return row.run_date < addDays(dateOf(row.started_at), -1) ? 'catch_up' : 'schedule';
}

function toRunRow(row: RunRow): IncomeRunRow {
  return {
    date: row.run_date,
    // A completed run that started before its date ended is not final: the date stays open.
    status: row.status === 'completed' && !Number(row.final) ? 'open' : row.status,
    trigger: runTrigger(row),
    started_by:
      row.started_by && row.started_by_username
        ? { id: row.started_by, username: row.started_by_username }
        : null,
    started_at: row.started_at,
    finished_at: row.finished_at,
    attempts: Number(row.attempts),
    investments_paid: Number(row.investments_paid),
    roi_total: formatCents(Number(row.roi_total_cents)),
    level_total: formatCents(Number(row.level_total_cents)),
    level_payments: Number(row.level_payments),
    duration_ms: Number(row.duration_ms),
    error: row.error,
  };
}

/** GET /income/runs (admin): each date's run, newest date first. */
export async function incomeRuns(
  db: Db,
  asker: SessionUser,
  query: IncomeRunListQuery,
): Promise<IncomeRunList> {
  requireAdmin(asker);
  const { rows, total } = await listRuns(db, { offset: (query.page - 1) * query.limit, limit: query.limit });
  return { runs: rows.map(toRunRow), total, page: query.page, limit: query.limit };
}

type KindCents = { roi: number; activation: number; level: number };

function byKind(sums: KindSum[]): KindCents {
  const cents: KindCents = { roi: 0, activation: 0, level: 0 };
  for (const { kind, cents: amount } of sums) {
    if (kind === 'roi') cents.roi += amount;
    else if (kind === 'activation_income') cents.activation += amount;
    else if (kind === 'level_income') cents.level += amount;
  }
  return cents;
}

const totalOf = (cents: KindCents) => cents.roi + cents.activation + cents.level;

function kindFigures(cents: KindCents): IncomeByKind {
  return {
    roi: formatCents(cents.roi),
    activation: formatCents(cents.activation),
    level: formatCents(cents.level),
    total: formatCents(totalOf(cents)),
  };
}

/** 'YYYY-MM' of `month` moved by `by` months. */
function shiftMonth(month: string, by: number): string {
  const [year = 0, m = 1] = month.split('-').map(Number);
  const index = year * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** GET /income/overview (admin): income paid by kind against deposits received, in all and per month. */
export async function incomeOverview(
  db: Db,
  asker: SessionUser,
  query: { months: number },
  now = new Date(),
): Promise<IncomeOverview> {
  requireAdmin(asker);
  const thisMonth = dateOf(now.toISOString()).slice(0, 7);
  const firstMonth = shiftMonth(thisMonth, -(query.months - 1));
  const [income, deposits] = await Promise.all([
    platformIncomeSums(db, firstMonth),
    depositSums(db, firstMonth),
  ]);
  const figures = (cents: KindCents, depositCents: number) => ({
    roi: formatCents(cents.roi),
    activation: formatCents(cents.activation),
    level: formatCents(cents.level),
    income_total: formatCents(totalOf(cents)),
    deposits: formatCents(depositCents),
  });
  const allIncome = byKind(income.all);
  const months = Array.from({ length: query.months }, (_, i) => shiftMonth(thisMonth, -i)).map((month) => ({
    month,
    ...figures(
      byKind(income.monthly.filter((row) => row.period === month)),
      deposits.monthly.find((row) => row.period === month)?.cents ?? 0,
    ),
  }));
  return {
    totals: {
      ...figures(allIncome, deposits.allCents),
      net: formatCents(deposits.allCents - totalOf(allIncome)),
    },
    months,
  };
}

function toInvestment(row: Awaited<ReturnType<typeof memberInvestments>>[number]): MemberInvestment {
  const amountCents = Number(row.amount_cents);
  const paidCents = Number(row.roi_paid_cents);
  const capCents = Number(row.roi_cap_cents);
  const daysPaid = Number(row.roi_days_paid);
  const durationDays = Number(row.duration_days);
  return {
    id: row.id,
    plan_name: row.plan_name,
    amount: formatCents(amountCents),
    roi_percent: formatPercent(Number(row.roi_bp)),
    duration_days: durationDays,
    roi_paid: formatCents(paidCents),
    days_paid: daysPaid,
    // A completed investment (its days or its cap reached) earns no more days.
    days_left: row.status === 'completed' ? 0 : Math.max(0, durationDays - daysPaid),
    cap: formatCents(capCents),
    cap_percent: formatPercent(amountCents > 0 ? Math.floor((capCents * 10_000) / amountCents) : 0),
    // Basis points of the cap, rounded down, shown as a percent with 2 decimals.
    cap_reached_percent: formatPercent(
      capCents > 0 ? Math.min(10_000, Math.floor((paidCents * 10_000) / capCents)) : 10_000,
    ),
    status: row.status,
    created_at: row.created_at,
    roi_end_date: row.roi_end_date,
  };
}

/**
 * GET /income/summary: the signed-in member's own income by kind (today, this month, in all, by the
 * UTC date it reached Income Working), the last 30 days, and each of their investments.
 */
export async function incomeSummary(db: Db, asker: SessionUser, now = new Date()): Promise<IncomeSummary> {
  if (asker.user.role !== 'user') throw forbidden();
  const memberId = asker.user.id;
  const today = dateOf(now.toISOString());
  const firstDay = addDays(today, -(CHART_DAYS - 1));
  const [sums, investments] = await Promise.all([
    memberIncomeSums(db, memberId, INCOME_KINDS, { monthStart: `${today.slice(0, 7)}-01`, firstDay }),
    memberInvestments(db, memberId),
  ]);
  const days = Array.from({ length: CHART_DAYS }, (_, i) => addDays(firstDay, i)).map((date) => ({
    date,
    ...kindFigures(byKind(sums.daily.filter((row) => row.period === date))),
  }));
  return {
    today: kindFigures(byKind(sums.daily.filter((row) => row.period === today))),
    month: kindFigures(byKind(sums.month)),
    all_time: kindFigures(byKind(sums.all)),
    days,
    investments: investments.map(toInvestment),
  };
}
