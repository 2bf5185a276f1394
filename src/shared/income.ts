import * as v from 'valibot';
import { isCalendarDate } from './dates.ts';

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

export const RUN_STATUSES = ['running', 'completed', 'failed'] as const;
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
