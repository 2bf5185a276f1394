import * as v from 'valibot';
import { multiLineText } from './text.ts';

// The spec's DELETE /leadership/{id} and PUT /cto/{id} ("used as a delete"), RULES.md "Rewards, salary,
// CTO, leadership": the leadership list and the CTO's qualifiers are computed from the reward ladder and
// team business, and a paid CTO month is in the ledger, so nothing is deleted. Both calls are an admin's
// exclusion of a member, audited and undone by a restore.

export const EXCLUSION_REASON_MAX = 200;

export const EXCLUSION_MESSAGES = {
  leadershipRemoved: 'Removed from the leadership list',
  leadershipRestored: 'Back on the leadership list',
  ctoExcluded: 'Excluded from the CTO of every month not yet paid',
  ctoRestored: 'Back in the CTO of every month not yet paid',
  memberNotFound: 'No member with this id',
  reasonInvalid: `The reason is text of at most ${EXCLUSION_REASON_MAX} characters`,
} as const;

export const exclusionIdSchema = v.object({
  id: v.pipe(v.string(EXCLUSION_MESSAGES.memberNotFound), v.nonEmpty(EXCLUSION_MESSAGES.memberNotFound)),
});

/** PUT /cto/{id}'s optional body: why (kept in the exclusion and the audit log). */
export const exclusionBodySchema = v.object({
  reason: v.optional(
    v.pipe(
      v.string(EXCLUSION_MESSAGES.reasonInvalid),
      v.trim(),
      v.maxLength(EXCLUSION_REASON_MAX, EXCLUSION_MESSAGES.reasonInvalid),
      multiLineText(),
    ),
  ),
});

/** A member an admin took off the leadership list or out of the CTO. */
export const exclusionSchema = v.object({
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  reason: v.nullable(v.string()),
  created_at: v.string(),
});
export type Exclusion = v.InferOutput<typeof exclusionSchema>;
