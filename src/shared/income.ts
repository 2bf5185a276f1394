import * as v from 'valibot';
import { isCalendarDate } from './dates.ts';
import { pageQuery, wholeNumberQuery } from './paging.ts';

// The daily income run (RULES.md "Daily income", API.md "Plans, top-ups and income"): each UTC date
// is paid once (ROI to each investment's owner, level income up the sponsor line), by the scheduler
// at 00:05 UTC or by an admin.

export const INCOME_MESSAGES = {
  /** Spec 8 "Mining reward success message", spelling corrected as RULES.md "Messages" says. */
  runDone: 'Mining reward successful!',
  /** Spec 8: the client's fallback when the server gives no message. */
  runFailed: 'Failed to update ROI income',
  dateInvalid: 'Enter the date as YYYY-MM-DD',
  dateFuture: 'The date cannot be in the future',
  runBusy: 'This date is being paid right now; try again in a minute',
  alreadyPaid: 'This date was already paid: nothing more was paid',
} as const;

/**
 * A run's status as shown. `open`: completed before its date ended, so it paid what was active then;
 * the date is final only after a later run (the scheduler's, after midnight UTC) pays the rest.
 */
export const RUN_STATUSES = ['running', 'open', 'completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_TRIGGERS = ['schedule', 'admin'] as const;

/** POST /income/run: `date` defaults to yesterday (UTC). */
export const incomeRunSchema = v.object({
  date: v.optional(
    v.pipe(
      v.string(INCOME_MESSAGES.dateInvalid),
      v.trim(),
      v.check(isCalendarDate, INCOME_MESSAGES.dateInvalid),
    ),
  ),
});
export type IncomeRunInput = v.InferOutput<typeof incomeRunSchema>;

/** What one call paid (a date already paid answers zeros). */
export const incomeRunResultSchema = v.object({
  message: v.string(),
  run: v.object({
    date: v.string(),
    investments_paid: v.number(),
    roi_total: v.string(),
    level_total: v.string(),
  }),
});
export type IncomeRunResult = v.InferOutput<typeof incomeRunResultSchema>;

// ---- reading the income back (issue 15 items 3 and 4) ----

/** The kinds of income a member earns, as their ledger transfers name them. */
export const INCOME_KINDS = ['roi', 'activation_income', 'level_income'] as const;
export type IncomeKind = (typeof INCOME_KINDS)[number];

/**
 * Who or what started a run: the 00:05 scheduler, an admin, or the scheduler catching up a date that
 * was not yesterday when it first claimed it (a missed day, or a failed run retried later).
 */
export const RUN_TRIGGER_LABELS: Record<string, string> = {
  schedule: 'Scheduler',
  admin: 'Admin',
  catch_up: 'Catch-up',
};

export const INCOME_READ_MESSAGES = {
  pageInvalid: 'page must be a whole number of 1 or more',
  limitInvalid: 'limit must be a whole number from 1 to 100',
  monthsInvalid: 'months must be a whole number from 1 to 36',
} as const;

/** GET /income/runs: newest date first, a page at a time. */
export const incomeRunListQuerySchema = v.object({
  ...pageQuery(INCOME_READ_MESSAGES, '20'),
});
export type IncomeRunListQuery = v.InferOutput<typeof incomeRunListQuerySchema>;

export const incomeRunRowSchema = v.object({
  date: v.string(),
  status: v.picklist(RUN_STATUSES),
  /** `schedule`, `admin` or `catch_up` (see RUN_TRIGGER_LABELS). */
  trigger: v.string(),
  started_by: v.nullable(v.object({ id: v.string(), username: v.string() })),
  started_at: v.string(),
  finished_at: v.nullable(v.string()),
  attempts: v.number(),
  investments_paid: v.number(),
  roi_total: v.string(),
  level_total: v.string(),
  level_payments: v.number(),
  duration_ms: v.number(),
  error: v.nullable(v.string()),
});
export type IncomeRunRow = v.InferOutput<typeof incomeRunRowSchema>;

export const incomeRunListSchema = v.object({
  runs: v.array(incomeRunRowSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
export type IncomeRunList = v.InferOutput<typeof incomeRunListSchema>;

/** Income paid by kind, and deposits received, as money strings. */
const incomeFiguresSchema = v.object({
  roi: v.string(),
  activation: v.string(),
  level: v.string(),
  income_total: v.string(),
  deposits: v.string(),
});

/** GET /income/overview: how many months (newest first, this month included) to list. */
export const incomeOverviewQuerySchema = v.object({
  months: v.optional(wholeNumberQuery(INCOME_READ_MESSAGES.monthsInvalid, 1, 36), '12'),
});

export const incomeOverviewSchema = v.object({
  totals: v.object({
    ...incomeFiguresSchema.entries,
    /** Deposits received minus income paid: negative when the platform owes more than came in. */
    net: v.string(),
  }),
  /** One row per UTC month ('YYYY-MM'), newest first, every month of the window (zeros included). */
  months: v.array(v.object({ month: v.string(), ...incomeFiguresSchema.entries })),
});
export type IncomeOverview = v.InferOutput<typeof incomeOverviewSchema>;

const incomeByKindSchema = v.object({
  roi: v.string(),
  activation: v.string(),
  level: v.string(),
  total: v.string(),
});
export type IncomeByKind = v.InferOutput<typeof incomeByKindSchema>;

export const memberInvestmentSchema = v.object({
  id: v.string(),
  plan_name: v.string(),
  amount: v.string(),
  roi_percent: v.string(),
  duration_days: v.number(),
  roi_paid: v.string(),
  days_paid: v.number(),
  days_left: v.number(),
  /** The most ROI the investment can earn: its amount x the income cap in force when it was bought. */
  cap: v.string(),
  /** That cap as a percent of the amount ("200.00"). */
  cap_percent: v.string(),
  /** roi_paid as a percent of the cap, rounded down to 2 decimals ("12.50"). */
  cap_reached_percent: v.string(),
  status: v.picklist(['active', 'completed']),
  created_at: v.string(),
  roi_end_date: v.string(),
});
export type MemberInvestment = v.InferOutput<typeof memberInvestmentSchema>;

/** GET /income/summary: the signed-in member's own income, by the UTC date it reached Income Working. */
export const incomeSummarySchema = v.object({
  today: incomeByKindSchema,
  month: incomeByKindSchema,
  all_time: incomeByKindSchema,
  /** The last 30 UTC days, oldest first, today last, every day present (zeros included). */
  days: v.array(v.object({ date: v.string(), ...incomeByKindSchema.entries })),
  investments: v.array(memberInvestmentSchema),
});
export type IncomeSummary = v.InferOutput<typeof incomeSummarySchema>;
