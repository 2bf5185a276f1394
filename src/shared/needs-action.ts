import * as v from 'valibot';

// The admin dashboard's "Needs action" (issue 19, docs/rules.md "Admin dashboard"): how many items of
// each kind wait for an admin, counted in the database, with the oldest one's time and, for money,
// the total held or waiting. GET /admin/needs-action (admin).

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** When the oldest waiting item was made (ISO 8601 UTC), null when nothing waits. */
const oldestAt = v.nullable(v.string());
/** Money waiting, a decimal string with 2 decimals ("0.00" when nothing waits). */
const amount = v.string();

const waitingMoney = v.object({ count, oldest_at: oldestAt, amount });
const waiting = v.object({ count, oldest_at: oldestAt });

export const needsActionSchema = v.object({
  /** Income and compound withdrawal requests pending a decision (/admin/withdrawals). */
  withdrawals: waitingMoney,
  /** ROI and principal withdrawal requests pending a decision (/admin/roi-request). */
  roi_withdrawals: waitingMoney,
  /** Manual deposits pending review (/admin/deposits, manual). */
  manual_deposits: waitingMoney,
  /** On-chain deposits awaiting an admin; `amount` sums those whose amount the chain showed. */
  web3_deposits: waitingMoney,
  /** Member transfers at or above the review threshold, held until an admin decides. */
  transfers_on_hold: waitingMoney,
  /** Tickets nobody on staff has answered yet, or that a member reopened. */
  tickets_open: waiting,
  /** Tickets support has answered but not resolved. */
  tickets_in_progress: waiting,
  /** Mails the worker gave up on after every retry. */
  mails_failed: waiting,
  /** Mails still pending after at least one refused attempt (retrying). */
  mails_retrying: waiting,
  /** Daily income runs that failed or whose server died mid-run; `oldest_date` is the earliest date. */
  income_runs: v.object({ count, oldest_date: v.nullable(v.string()) }),
  /** Monthly salary runs that failed or whose server died mid-run; `oldest_month` is the earliest month. */
  salary_runs: v.object({ count, oldest_month: v.nullable(v.string()) }),
  /** When these counts were read (ISO 8601 UTC). */
  as_of: v.string(),
});
export type NeedsAction = v.InferOutput<typeof needsActionSchema>;
export type NeedsActionKey = Exclude<keyof NeedsAction, 'as_of'>;

/** How often the open dashboard asks again (nothing about these items is pushed on the live channel). */
export const NEEDS_ACTION_REFRESH_MS = 30_000;
