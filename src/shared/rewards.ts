import * as v from 'valibot';
import { oneLineText } from './text.ts';
import { amountSchema } from './wallets.ts';

// Rewards (issue 17 item 2, RULES.md "Rewards, salary, CTO, leadership", API.md "Team and rewards"): a
// ladder of ranks, each reached when the member's team business (every investment of their downline)
// is at least its business needed; each reached reward is claimed once, into Income Working.

export const REWARD_MESSAGES = {
  /** Spec 8, spelling corrected as RULES.md "Messages" says. */
  claimed: 'Reward claimed successfully!',
  created: 'Reward plan created',
  updated: 'Reward plan updated',
  deleted: 'Reward plan deleted',
  rankRequired: 'Rank name is required (at most 60 characters)',
  rankTaken: 'A reward plan with this rank name exists already',
  notFound: 'No reward plan with this id',
  memberNotFound: 'No member with this id',
  alreadyClaimed: 'This reward has been claimed already',
  notReached: 'Your team business has not reached this reward yet',
  hasClaims: 'Members have claimed this reward: it stays in the ladder for their history',
  nothingToChange: 'Send at least one field to change',
  /** Spec 8, spelling corrected as RULES.md "Messages" says. */
  carriedForward: 'Carry forward successful',
  carryNothingReached: 'No reward reached yet: there is no business beyond a reward to carry forward',
  carryTopReached: 'Every reward of the ladder is reached: there is no next reward to carry business into',
  /** Reward reminders (docs/rules.md "Reward reminders"). */
  userIdRequired: 'user_id is required',
  userIdsInvalid: 'user_ids must be a list of at most 1000 member ids',
  userIdsUnknown: 'user_ids holds an id that is not a member',
  reminderTitle: 'Reward ready to claim',
  reminder: (ranks: readonly string[]) =>
    `You have reached ${ranks.join(', ')}: claim your reward on the Rewards screen`,
  remindersSent: (n: number) => `Reward reminders sent to ${n} members`,
  readyToClaim: (n: number) => `You have ${n} reward${n === 1 ? '' : 's'} ready to claim`,
  /** Spec 8 "Rewards": the client's words when the server gives none. */
  initializeFailed: 'Error initializing rewards',
  fetchError: 'Error fetching rewards',
  fetchFailed: 'Failed to fetch rewards',
  createFailed: 'Failed to create reward',
  updateFailed: 'Failed to update reward',
  deleteFailed: 'Failed to delete reward',
} as const;

/** The path a reward reminder opens. */
export const REWARDS_LINK = '/user/rewards';

const rank = v.pipe(
  v.string(REWARD_MESSAGES.rankRequired),
  v.trim(),
  v.minLength(1, REWARD_MESSAGES.rankRequired),
  v.maxLength(60, REWARD_MESSAGES.rankRequired),
  oneLineText(),
);

/** POST /rewards (admin). */
export const rewardPlanSchema = v.object({ rank, business_needed: amountSchema, amount: amountSchema });
export type RewardPlanInput = v.InferOutput<typeof rewardPlanSchema>;
/** PUT /rewards/{id} (admin): any of the fields. */
export const rewardPlanUpdateSchema = v.object({
  rank: v.optional(rank),
  business_needed: v.optional(amountSchema),
  amount: v.optional(amountSchema),
});
export type RewardPlanUpdate = v.InferOutput<typeof rewardPlanUpdateSchema>;
/** The `{id}` of the rewards routes' paths (a member's id, or a reward plan's). */
export const rewardIdParamsSchema = v.object({
  id: v.pipe(v.string(), v.trim(), v.nonEmpty(REWARD_MESSAGES.notFound)),
});

/** POST /rewards/user/claim/{id}. */
export const rewardClaimSchema = v.object({
  reward_id: v.pipe(v.string(REWARD_MESSAGES.notFound), v.trim(), v.nonEmpty(REWARD_MESSAGES.notFound)),
});

export const rewardSchema = v.object({
  id: v.string(),
  rank: v.string(),
  business_needed: v.string(),
  amount: v.string(),
  created_at: v.string(),
});
export type Reward = v.InferOutput<typeof rewardSchema>;

/** A rung of the ladder as one member stands on it. */
export const memberRewardSchema = v.object({
  ...rewardSchema.entries,
  reached: v.boolean(),
  claimed: v.boolean(),
  claimed_at: v.nullable(v.string()),
});
export type MemberReward = v.InferOutput<typeof memberRewardSchema>;

/**
 * Carry-forward (RULES.md): the team business beyond the last reward reached, counted toward the next
 * one. The ladder is cumulative, so this carry is always applied; it is null before the first reward
 * is reached and once the last one is.
 */
export const carryForwardSchema = v.object({
  from_rank: v.string(),
  to_rank: v.string(),
  amount: v.string(),
});
export type CarryForward = v.InferOutput<typeof carryForwardSchema>;

export const memberRewardsSchema = v.object({
  team_business: v.string(),
  rewards: v.array(memberRewardSchema),
  /** The next reward not reached yet, and how much business it still needs. */
  next: v.nullable(v.object({ id: v.string(), rank: v.string(), business_left: v.string() })),
  carried_forward: v.nullable(carryForwardSchema),
});
export type MemberRewards = v.InferOutput<typeof memberRewardsSchema>;

export const rewardClaimRowSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  reward_id: v.string(),
  rank: v.string(),
  amount: v.string(),
  team_business: v.string(),
  created_at: v.string(),
});
export type RewardClaimRow = v.InferOutput<typeof rewardClaimRowSchema>;

// ---- Reward reminders (docs/rules.md "Reward reminders") ----

const memberId = v.pipe(
  v.string(REWARD_MESSAGES.userIdRequired),
  v.trim(),
  v.nonEmpty(REWARD_MESSAGES.userIdRequired),
);

/** POST /rewards/initialize. */
export const rewardInitializeSchema = v.object({ user_id: memberId });

/** POST /users/send/reward: everyone with a reward to claim, or only these members. */
export const rewardReminderSchema = v.object({
  user_ids: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(REWARD_MESSAGES.userIdsInvalid),
          v.trim(),
          v.nonEmpty(REWARD_MESSAGES.userIdsInvalid),
        ),
        REWARD_MESSAGES.userIdsInvalid,
      ),
      v.maxLength(1000, REWARD_MESSAGES.userIdsInvalid),
    ),
  ),
});
export type RewardReminderInput = v.InferOutput<typeof rewardReminderSchema>;
export const rewardReminderResultSchema = v.object({ message: v.string(), sent: v.number() });

/** GET /users/get/defaulterreward/{id}: the rewards a member reached and has not claimed. */
export const unclaimedRewardsSchema = v.object({
  rewards: v.array(
    v.object({ id: v.string(), rank: v.string(), amount: v.string(), business_needed: v.string() }),
  ),
  count: v.number(),
});
export type UnclaimedRewards = v.InferOutput<typeof unclaimedRewardsSchema>;

/** GET /users/rewards (admin): each member who reached at least one reward. */
export const memberRewardRowSchema = v.object({
  id: v.string(),
  username: v.string(),
  fullname: v.string(),
  team_business: v.string(),
  reached: v.number(),
  claimed: v.number(),
  unclaimed: v.number(),
  /** The ranks reached and not claimed yet, lowest first. */
  unclaimed_ranks: v.array(v.string()),
});
export type MemberRewardRow = v.InferOutput<typeof memberRewardRowSchema>;
export const memberRewardRowsSchema = v.object({ members: v.array(memberRewardRowSchema) });
