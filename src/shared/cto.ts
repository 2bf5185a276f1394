import * as v from 'valibot';
import { exclusionSchema } from './rank-exclusions.ts';

// CTO (issue 17 item 4, RULES.md "Rewards, salary, CTO, leadership"): a share (default 1%) of a month's
// deposits, split equally among the members holding the top two ranks of the reward ladder, paid when
// an admin presses Pay, once a month.

export const CTO_SHARE_BP = 100;

export const CTO_MESSAGES = {
  paid: 'CTO paid',
  alreadyPaid: 'The CTO of this month has been paid already',
  nobody: 'Nobody holds one of the top two ranks: there is no one to pay',
  poolTooSmall: 'The pool is too small to give each member at least one cent',
  noRanks: 'Set up the reward ladder first: the CTO goes to the top two ranks',
  monthInvalid: 'Choose a month that has ended (YYYY-MM)',
  memberNotFound: 'No member with this id',
} as const;

export const ctoMonthSchema = v.pipe(
  v.string(CTO_MESSAGES.monthInvalid),
  v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, CTO_MESSAGES.monthInvalid),
);
export const ctoQuerySchema = v.object({ month: v.optional(ctoMonthSchema) });
export const ctoPaySchema = v.object({ month: v.optional(ctoMonthSchema) });

export const ctoPaymentSchema = v.object({
  month: v.string(),
  deposits: v.string(),
  share_percent: v.string(),
  pool: v.string(),
  members: v.number(),
  per_member: v.string(),
  paid_at: v.string(),
});
export type CtoPayment = v.InferOutput<typeof ctoPaymentSchema>;

export const ctoQualifierSchema = v.object({
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  rank: v.string(),
  team_business: v.string(),
  /** Excluded by an admin (PUT /cto/{id}): shown, but not counted in the split nor paid. */
  excluded: v.boolean(),
});

export const ctoPreviewSchema = v.object({
  month: v.string(),
  deposits: v.string(),
  share_percent: v.string(),
  pool: v.string(),
  per_member: v.string(),
  ranks: v.array(v.string()),
  qualifiers: v.array(ctoQualifierSchema),
  /** Every member excluded from the CTO, whether or not they hold a top rank this month. */
  excluded: v.array(exclusionSchema),
  payment: v.nullable(ctoPaymentSchema),
});
export type CtoPreview = v.InferOutput<typeof ctoPreviewSchema>;

export const ctoPayoutSchema = v.object({
  id: v.string(),
  month: v.string(),
  user_id: v.string(),
  username: v.string(),
  rank: v.string(),
  amount: v.string(),
  created_at: v.string(),
});
export type CtoPayout = v.InferOutput<typeof ctoPayoutSchema>;

/** The month before `now`'s (UTC), as YYYY-MM: the one an admin usually pays. */
export function previousMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

/** The first instant of the month after `month` (YYYY-MM), as an ISO string. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y ?? 0, m ?? 1, 1)).toISOString();
}
