import * as v from 'valibot';
import { type PagedList, pagedList, pageQuery } from './paging.ts';
import { oneLineText } from './text.ts';
import { amountSchema } from './wallets.ts';

// Salary (issue 17 item 3, RULES.md "Rewards, salary, CTO, leadership", docs/rules.md "Salary"): monthly
// tiers, each a name, the new team business a member's downline must bring in a calendar month (UTC),
// the active direct members they must have, and an amount. On the 1st a member is paid the single
// highest tier they qualified for in the month before, once, into Income Working.

export const SALARY_MESSAGES = {
  /** Spec 8: the screens' fallbacks when the server gave no message. */
  fetchUserSalariesFailed: 'Failed to fetch user salaries',
  fetchTransactionsFailed: 'Failed to fetch salary transactions',
  fetchTodayStatsFailed: "Failed to fetch today's stats",
  fetchUserHistoryFailed: 'Failed to fetch user salary history',
  fetchTierStatsFailed: 'Failed to fetch salary tier stats',
  fetchDashboardFailed: 'Failed to fetch admin dashboard',
  created: 'Salary tier created',
  updated: 'Salary tier updated',
  deleted: 'Salary tier deleted',
  runDone: 'Salary run finished',
  nameRequired: 'Tier name is required (at most 60 characters)',
  nameTaken: 'A salary tier with this name exists already',
  directsInvalid: 'Active direct members must be a whole number from 0 to 100000',
  notFound: 'No salary tier with this id',
  memberNotFound: 'No member with this id',
  hasPayments: 'Salaries have been paid at this tier: it stays for their history',
  nothingToChange: 'Send at least one field to change',
  monthInvalid: 'Choose a month that has ended (YYYY-MM)',
  pageInvalid: 'page must be a whole number from 1',
  limitInvalid: 'limit must be a whole number from 1 to 100',
  searchInvalid: 'search must be at most 100 characters',
} as const;
const M = SALARY_MESSAGES;

const name = v.pipe(
  v.string(M.nameRequired),
  v.trim(),
  v.minLength(1, M.nameRequired),
  v.maxLength(60, M.nameRequired),
  oneLineText(),
);
const directs = v.pipe(
  v.number(M.directsInvalid),
  v.integer(M.directsInvalid),
  v.minValue(0, M.directsInvalid),
  v.maxValue(100_000, M.directsInvalid),
);

/** POST /salary/tiers (admin). Money in as decimal strings or numbers, kept as cents. */
export const salaryTierSchema = v.object({
  name,
  min_business: amountSchema,
  min_active_directs: directs,
  amount: amountSchema,
});
export type SalaryTierInput = v.InferOutput<typeof salaryTierSchema>;

/** PUT /salary/tiers/{id} (admin): any of the fields. */
export const salaryTierUpdateSchema = v.object({
  name: v.optional(name),
  min_business: v.optional(amountSchema),
  min_active_directs: v.optional(directs),
  amount: v.optional(amountSchema),
});
export type SalaryTierUpdate = v.InferOutput<typeof salaryTierUpdateSchema>;

export const salaryTierOutSchema = v.object({
  id: v.string(),
  name: v.string(),
  min_business: v.string(),
  min_active_directs: v.number(),
  amount: v.string(),
  created_at: v.string(),
});
export type SalaryTier = v.InferOutput<typeof salaryTierOutSchema>;

export const salaryMonthSchema = v.pipe(
  v.string(M.monthInvalid),
  v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, M.monthInvalid),
);

/** POST /salary/run (admin): pays an ended month by hand (default last month); a repeat pays nothing more. */
export const salaryRunSchema = v.object({ month: v.optional(salaryMonthSchema) });

/** The paged salary lists: ?page&limit, and for the admin lists ?month&search. */
export const salaryPageQuerySchema = v.object({
  ...pageQuery(M, '10'),
  month: v.optional(salaryMonthSchema),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, M.searchInvalid))),
});
export type SalaryPageQuery = v.InferOutput<typeof salaryPageQuerySchema>;

/** Spec 5 "Salary lists": every paged salary answer. */
export const salaryPageOf = pagedList;
export type SalaryPage<T> = PagedList<T>;

/** One salary payment (a member, a month, the tier paid). */
export const salaryPaymentSchema = v.object({
  id: v.string(),
  month: v.string(),
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  tier_id: v.string(),
  tier_name: v.string(),
  amount: v.string(),
  new_business: v.string(),
  active_directs: v.number(),
  trigger: v.string(),
  created_at: v.string(),
});
export type SalaryPayment = v.InferOutput<typeof salaryPaymentSchema>;

/** GET /salary/user-salaries: one row per member who has been paid (in the month, when one is asked). */
export const userSalarySchema = v.object({
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  months_paid: v.number(),
  total: v.string(),
  last_month: v.string(),
});
export type UserSalary = v.InferOutput<typeof userSalarySchema>;

export const salaryTodayStatsSchema = v.object({
  date: v.string(),
  paid_today_count: v.number(),
  paid_today_total: v.string(),
  /** The month under way, and who qualifies for it so far (nothing is paid before it ends). */
  month: v.string(),
  qualifying_members: v.number(),
  qualifying_total: v.string(),
});
export type SalaryTodayStats = v.InferOutput<typeof salaryTodayStatsSchema>;

export const salaryTierStatSchema = v.object({
  ...salaryTierOutSchema.entries,
  members_paid: v.number(),
  total_paid: v.string(),
});
export type SalaryTierStat = v.InferOutput<typeof salaryTierStatSchema>;

export const salaryRunRowSchema = v.object({
  month: v.string(),
  status: v.string(),
  trigger: v.string(),
  started_at: v.string(),
  finished_at: v.nullable(v.string()),
  members_paid: v.number(),
  total: v.string(),
});
export type SalaryRunRow = v.InferOutput<typeof salaryRunRowSchema>;

export const salaryDashboardSchema = v.object({
  total_paid: v.string(),
  payments: v.number(),
  months: v.array(v.object({ month: v.string(), members: v.number(), total: v.string() })),
  last_run: v.nullable(salaryRunRowSchema),
  /** When the scheduler next pays (the 1st, UTC), or null when this server's schedule is off. */
  next_run: v.nullable(v.string()),
});
export type SalaryDashboard = v.InferOutput<typeof salaryDashboardSchema>;

export const salaryRunResultSchema = v.object({
  message: v.string(),
  run: v.object({ month: v.string(), members_paid: v.number(), total: v.string() }),
});

/** The month before `now`'s (UTC), as YYYY-MM. */
export function monthBefore(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** `month` (YYYY-MM) moved by `count` months. */
export function addMonths(month: string, count: number): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1 + count, 1)).toISOString().slice(0, 7);
}
