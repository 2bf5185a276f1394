import { formatCents } from '../../../shared/money.ts';
import {
  SALARY_MESSAGES as M,
  type SalaryDashboard,
  type SalaryPage,
  type SalaryPageQuery,
  type SalaryPayment,
  type SalaryRunRow,
  type SalaryTier,
  type SalaryTierInput,
  type SalaryTierStat,
  type SalaryTierUpdate,
  type SalaryTodayStats,
  type UserSalary,
} from '../../../shared/salary.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { SalaryRunTable, SalaryTierTable } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { type AuditedRows, auditedCreate, auditedDelete, auditedUpdate } from '../audit/audited.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  deleteTier,
  findTier,
  insertTier,
  lastRun,
  listTiers,
  memberTotalsPage,
  paidSince,
  paymentPage,
  tierHasPayments,
  tierPaymentTotals,
  totalsByMonth,
  updateTier,
} from './salary.repository.ts';
import { currentMonth, monthStart, qualifiers } from './salary-run.service.ts';

// Salary tiers (admin) and the spec's six reads (spec 7 "Salary"). Every read that names a member
// checks who asks first: a member reads their own history only (another's id is a 404), an admin
// reads everything; the admin lists are 403 to members.

function adminOnly(asker: SessionUser) {
  if (asker.user.role !== 'admin') throw forbidden();
}

const toTier = (row: SalaryTierTable): SalaryTier => ({
  id: row.id,
  name: row.name,
  min_business: formatCents(Number(row.min_business_cents)),
  min_active_directs: Number(row.min_active_directs),
  amount: formatCents(Number(row.amount_cents)),
  created_at: row.created_at,
});

/** Tiers as the audited admin changes handle them (one transaction with the audit entry each). */
const tierRows: AuditedRows<SalaryTierTable, SalaryTier> = {
  action: 'salary.tier',
  targetType: 'salary_tier',
  show: toTier,
  find: findTier,
  insert: insertTier,
  update: updateTier,
  remove: deleteTier,
  inUse: tierHasPayments,
  messages: {
    notFound: M.notFound,
    taken: M.nameTaken,
    inUse: M.hasPayments,
    nothingToChange: { field: 'name', message: M.nothingToChange },
  },
};

/** GET /salary/tiers: by business needed, lowest first (what a member reads as a ladder). */
export async function salaryTiers(db: Db) {
  const tiers = await listTiers(db);
  tiers.sort(
    (a, b) =>
      Number(a.min_business_cents) - Number(b.min_business_cents) ||
      Number(a.amount_cents) - Number(b.amount_cents),
  );
  return { tiers: tiers.map(toTier) };
}

export async function createSalaryTier(db: Db, admin: SessionUser, input: SalaryTierInput) {
  adminOnly(admin);
  const now = new Date().toISOString();
  const row: SalaryTierTable = {
    id: newId(),
    name: input.name,
    min_business_cents: input.min_business,
    min_active_directs: input.min_active_directs,
    amount_cents: input.amount,
    created_at: now,
    updated_at: now,
  };
  return { message: M.created, tier: await auditedCreate(db, admin, tierRows, row) };
}

export async function changeSalaryTier(db: Db, admin: SessionUser, id: string, input: SalaryTierUpdate) {
  adminOnly(admin);
  const tier = await auditedUpdate(db, admin, tierRows, id, {
    name: input.name,
    min_business_cents: input.min_business,
    min_active_directs: input.min_active_directs,
    amount_cents: input.amount,
  });
  return { message: M.updated, tier };
}

/** A tier nobody was paid at can go; one with payments stays, for their history (409). */
export async function removeSalaryTier(db: Db, admin: SessionUser, id: string) {
  adminOnly(admin);
  await auditedDelete(db, admin, tierRows, id);
  return { message: M.deleted };
}

// ---- reads ----

const paging = (query: SalaryPageQuery) => ({ offset: (query.page - 1) * query.limit, limit: query.limit });
const pageOf = <T>(data: T[], total: number, query: SalaryPageQuery): SalaryPage<T> => ({
  data,
  total,
  total_pages: Math.max(1, Math.ceil(total / query.limit)),
  current_page: query.page,
});

type PaymentRow = Awaited<ReturnType<typeof paymentPage>>['rows'][number];
const toPayment = (row: PaymentRow): SalaryPayment => ({
  id: row.id,
  month: row.month,
  user_id: row.user_id,
  username: row.username,
  fullname: row.fullname,
  tier_id: row.tier_id,
  tier_name: row.tier_name,
  amount: formatCents(Number(row.amount_cents)),
  new_business: formatCents(Number(row.new_business_cents)),
  active_directs: Number(row.active_directs),
  trigger: row.trigger,
  created_at: row.created_at,
});

/** GET /salary/user-salaries (admin): one row per member paid, under ?month and ?search. */
export async function userSalaries(
  db: Db,
  admin: SessionUser,
  query: SalaryPageQuery,
): Promise<SalaryPage<UserSalary>> {
  adminOnly(admin);
  const { offset, limit } = paging(query);
  const { total, rows } = await memberTotalsPage(db, query, offset, limit);
  const data = rows.map((r) => ({
    user_id: r.user_id,
    username: r.username,
    fullname: r.fullname,
    months_paid: Number(r.months_paid),
    total: formatCents(Number(r.cents ?? 0)),
    last_month: String(r.last_month),
  }));
  return pageOf(data, total, query);
}

/** GET /salary/transactions (admin): every payment, newest month first. */
export async function salaryTransactions(
  db: Db,
  admin: SessionUser,
  query: SalaryPageQuery,
): Promise<SalaryPage<SalaryPayment>> {
  adminOnly(admin);
  const { offset, limit } = paging(query);
  const { total, rows } = await paymentPage(db, query, offset, limit);
  return pageOf(rows.map(toPayment), total, query);
}

/** GET /salary/user-history/{userId}: a member's own salaries (an admin: anyone's). */
export async function userSalaryHistory(
  db: Db,
  asker: SessionUser,
  userId: string,
  query: SalaryPageQuery,
): Promise<SalaryPage<SalaryPayment>> {
  if (asker.user.role !== 'admin' && asker.user.id !== userId) throw notFound(M.memberNotFound);
  if ((await findUserById(db, userId))?.role !== 'user') throw notFound(M.memberNotFound);
  const { offset, limit } = paging(query);
  const { total, rows } = await paymentPage(db, { userId, month: query.month }, offset, limit);
  return pageOf(rows.map(toPayment), total, query);
}

/** GET /salary/today-stats (admin): paid today, and who qualifies for the month under way so far. */
export async function salaryTodayStats(
  db: Db,
  admin: SessionUser,
  now = new Date(),
): Promise<SalaryTodayStats> {
  adminOnly(admin);
  const date = now.toISOString().slice(0, 10);
  const month = currentMonth(now);
  const [paid, tiers] = await Promise.all([paidSince(db, `${date}T00:00:00.000Z`), listTiers(db)]);
  const qualifying = await qualifiers(db, tiers, monthStart(month), now.toISOString());
  return {
    date,
    paid_today_count: paid.count,
    paid_today_total: formatCents(paid.cents),
    month,
    qualifying_members: qualifying.length,
    qualifying_total: formatCents(qualifying.reduce((sum, q) => sum + Number(q.tier.amount_cents), 0)),
  };
}

/** GET /salary/tier-stats (admin): each tier, with how many were paid at it and how much. */
export async function salaryTierStats(db: Db, admin: SessionUser): Promise<{ tiers: SalaryTierStat[] }> {
  adminOnly(admin);
  const [{ tiers }, totals] = await Promise.all([salaryTiers(db), tierPaymentTotals(db)]);
  return {
    tiers: tiers.map((tier) => {
      const paid = totals.find((t) => t.tier_id === tier.id);
      return {
        ...tier,
        members_paid: Number(paid?.n ?? 0),
        total_paid: formatCents(Number(paid?.cents ?? 0)),
      };
    }),
  };
}

const toRun = (row: SalaryRunTable): SalaryRunRow => ({
  month: row.month,
  status: row.status,
  trigger: row.trigger,
  started_at: row.started_at,
  finished_at: row.finished_at,
  members_paid: Number(row.members_paid),
  total: formatCents(Number(row.total_cents)),
});

/** GET /salary/admin-dashboard (admin): totals by month (the last 24), the last run, the next one. */
export async function salaryDashboard(
  db: Db,
  admin: SessionUser,
  nextRun: () => Date | null,
): Promise<SalaryDashboard> {
  adminOnly(admin);
  // Every month ever paid (a hundred years of them at most), newest first.
  const [all, last] = await Promise.all([totalsByMonth(db, 1200), lastRun(db)]);
  return {
    total_paid: formatCents(all.reduce((sum, m) => sum + Number(m.cents ?? 0), 0)),
    payments: all.reduce((sum, m) => sum + Number(m.n), 0),
    months: all.slice(0, 24).map((m) => ({
      month: m.month,
      members: Number(m.n),
      total: formatCents(Number(m.cents ?? 0)),
    })),
    last_run: last ? toRun(last) : null,
    next_run: nextRun()?.toISOString() ?? null,
  };
}
