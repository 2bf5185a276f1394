import * as v from 'valibot';
import { formatUsd } from './money.ts';
import { amountSchema } from './wallets.ts';

// Top-ups (RULES.md "Plans, top-ups and activation", API.md "Plans, top-ups and income"): a member
// pays a plan from their Active Wallet for themself or for another member; the amount becomes an
// investment, and the beneficiary's uplines earn activation income.

export const TOPUP_TYPES = ['topup', 'retopup', 'entry', 'code'] as const;
export type TopupType = (typeof TOPUP_TYPES)[number];
export const TOPUP_STATUSES = ['active', 'completed'] as const;

export const TOPUP_MESSAGES = {
  planRequired: 'Please select a plan',
  memberRequired: 'Choose the member to invest for',
  payerRequired: 'The paying member is required',
  created: 'Investment made',
  planNotFound: 'Plan not found',
  planInactive: 'This plan is not available',
  amountRange: (min: string, max: string) =>
    `Amount must be between ${formatUsd(min)} and ${formatUsd(max)} for this plan`,
  notYourAccount: 'You can only pay for an investment from your own account',
  payerBlocked: 'Your account is blocked, so it cannot pay for an investment',
  memberNotFound: 'Member not found',
  memberBlocked: 'This member is blocked and cannot receive an investment',
  noFirstTopup: 'Adding to your investments needs a first one: make your first investment first',
  notFound: 'No investments for this member',
  lookupRequired: 'Enter the e-mail or username of the member to invest for',
} as const;

const requiredId = (message: string) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(100, message));

/** POST /topup/add and /topup/addretopup: the signed-in member tops up themself. */
export const topupSelfSchema = v.object({
  plan_id: requiredId(TOPUP_MESSAGES.planRequired),
  amount: amountSchema,
});
export type TopupSelfInput = v.InferOutput<typeof topupSelfSchema>;

/** POST /topup/entry: member `id` topped up, paid by `userby_id`, who must be the signed-in member. */
export const topupEntrySchema = v.object({
  id: requiredId(TOPUP_MESSAGES.memberRequired),
  userby_id: requiredId(TOPUP_MESSAGES.payerRequired),
  plan_id: requiredId(TOPUP_MESSAGES.planRequired),
  amount: amountSchema,
});
export type TopupEntryInput = v.InferOutput<typeof topupEntrySchema>;

export const topupSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  userby_id: v.nullable(v.string()),
  plan_id: v.string(),
  amount: v.string(),
  roi_paid: v.string(),
  status: v.picklist(TOPUP_STATUSES),
  created_at: v.string(),
  type: v.picklist(TOPUP_TYPES),
  plan_name: v.string(),
  roi_percent: v.string(),
  duration_days: v.number(),
  user_name: v.string(),
  user_username: v.string(),
  userby_name: v.nullable(v.string()),
  userby_username: v.nullable(v.string()),
});
export type Topup = v.InferOutput<typeof topupSchema>;

export const topupResultSchema = v.object({ message: v.string(), topup: topupSchema });

const pageSchema = v.pipe(
  v.string(),
  v.toNumber(),
  v.integer('page must be a whole number'),
  v.minValue(1, 'page must be at least 1'),
);
const limitSchema = v.pipe(
  v.string(),
  v.toNumber(),
  v.integer('limit must be a whole number'),
  v.minValue(1, 'limit must be from 1 to 200'),
  v.maxValue(200, 'limit must be from 1 to 200'),
);

export const topupListQuerySchema = v.object({
  page: v.optional(pageSchema, '1'),
  limit: v.optional(limitSchema, '50'),
});
export type TopupListQuery = v.InferOutput<typeof topupListQuerySchema>;

export const topupListSchema = v.object({
  topups: v.array(topupSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
export const topupMemberParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });

/** GET /topup/member?q=: the member to top up, by exact e-mail or username (any case), confirmed by name. */
export const topupMemberQuerySchema = v.object({
  q: v.pipe(
    v.string(TOPUP_MESSAGES.lookupRequired),
    v.trim(),
    v.nonEmpty(TOPUP_MESSAGES.lookupRequired),
    v.maxLength(254, TOPUP_MESSAGES.memberNotFound),
  ),
});
export const topupMemberSchema = v.object({
  member: v.object({ id: v.string(), fullname: v.string(), username: v.string() }),
});

// Activation codes (spec 7 "Codes"; RULES.md): an admin creates a batch, each code worth one investment
// in a plan and amount paid by the platform; a member redeems a code once.

export const MAX_CODES_PER_BATCH = 100;

export const CODE_MESSAGES = {
  countInvalid: `Create from 1 to ${MAX_CODES_PER_BATCH} codes at a time`,
  codeRequired: 'Enter an activation code',
  created: 'Activation codes created',
  notFound: 'Invalid activation code',
  used: 'This activation code has already been used',
  redeemed: 'Activation code redeemed',
  codeNotFound: 'No activation code with this id',
  fundingInvalid: 'funding is promotional or paid',
} as const;

/**
 * Who paid a code's principal: `promotional` (the platform: the investment earns, but its principal is
 * never paid out in cash; the default, and what every code made before this choice is) or `paid` (the
 * member paid for the code outside the platform: the principal is withdrawable once matured).
 */
export const CODE_FUNDINGS = ['promotional', 'paid'] as const;
export type CodeFunding = (typeof CODE_FUNDINGS)[number];
export const CODE_FUNDING_LABELS: Record<CodeFunding, string> = {
  promotional: 'Promotional (principal not withdrawable)',
  paid: 'Paid (principal withdrawable)',
};

export const codeBatchSchema = v.object({
  plan_id: requiredId(TOPUP_MESSAGES.planRequired),
  funding: v.optional(v.picklist(CODE_FUNDINGS, CODE_MESSAGES.fundingInvalid), 'promotional'),
  amount: amountSchema,
  count: v.pipe(
    v.number(CODE_MESSAGES.countInvalid),
    v.integer(CODE_MESSAGES.countInvalid),
    v.minValue(1, CODE_MESSAGES.countInvalid),
    v.maxValue(MAX_CODES_PER_BATCH, CODE_MESSAGES.countInvalid),
  ),
});
export type CodeBatchInput = v.InferOutput<typeof codeBatchSchema>;

export const codeRedeemSchema = v.object({
  code: v.pipe(
    v.string(CODE_MESSAGES.codeRequired),
    v.trim(),
    v.nonEmpty(CODE_MESSAGES.codeRequired),
    v.maxLength(64, CODE_MESSAGES.notFound),
    v.toUpperCase(),
  ),
});

export const activationCodeSchema = v.object({
  id: v.string(),
  code: v.string(),
  batch_id: v.string(),
  plan_id: v.string(),
  plan_name: v.string(),
  amount: v.string(),
  funding: v.picklist(CODE_FUNDINGS),
  status: v.picklist(['unused', 'used']),
  created_at: v.string(),
  used_by: v.nullable(v.string()),
  used_by_name: v.nullable(v.string()),
  used_by_email: v.nullable(v.string()),
  used_at: v.nullable(v.string()),
  topup_id: v.nullable(v.string()),
});
export type ActivationCode = v.InferOutput<typeof activationCodeSchema>;

export const codeBatchResultSchema = v.object({ message: v.string(), codes: v.array(activationCodeSchema) });
export const codeListSchema = v.object({
  codes: v.array(activationCodeSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
