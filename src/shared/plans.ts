import * as v from 'valibot';
import { formatCents, parseCents } from './money.ts';
import { oneLineText } from './text.ts';
import { amountSchema } from './wallets.ts';

// Plans, activation plans and the level percents (RULES.md "Plans, top-ups and activation", API.md
// "Plans, top-ups and income"). Amounts are integer cents inside; percents are basis points inside
// (1.00 % = 100) and decimal strings with 2 decimals on the API ("1.00").

export const PLAN_STATUSES = ['active', 'inactive'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
/** A plan with a minimum and maximum amount, or an activation plan: a fixed-price package. */
export const PLAN_KINDS = ['plan', 'activation'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

export const MAX_PLAN_DURATION_DAYS = 3650;
export const MAX_LEVELS = 20;
/** RULES.md defaults, level 1 first. */
export const DEFAULT_ACTIVATION_PERCENTS = ['5.00'];
export const DEFAULT_ROI_LEVEL_PERCENTS = ['10.00', '5.00', '3.00', '2.00', '1.00'];

export const PLAN_MESSAGES = {
  nameRequired: 'Plan name is required',
  nameMax: 'Plan name cannot exceed 100 characters',
  minAboveMax: 'Minimum amount cannot be above the maximum amount',
  roiRequired: 'Daily ROI % is required',
  roiInvalid: 'Daily ROI % must be above 0 and at most 100, with at most 2 decimals',
  durationInvalid: `Duration must be a whole number of days from 1 to ${MAX_PLAN_DURATION_DAYS}`,
  statusInvalid: 'Choose active or inactive',
  percentInvalid: 'Each percent must be from 0 to 100, with at most 2 decimals',
  percentsMax: `At most ${MAX_LEVELS} levels`,
  percentsTotal: 'The percents of all levels together cannot exceed 100',
  percentsRequired: 'Percents are required, level 1 first',
  created: 'Plan created',
  updated: 'Plan updated',
  deleted: 'Plan deleted',
  deactivated: 'This plan has investments, so it was made inactive instead of deleted',
  actCreated: 'Activation plan created',
  actUpdated: 'Activation plan updated',
  actDeleted: 'Activation plan deleted',
  actDeactivated: 'This activation plan has investments, so it was made inactive instead of deleted',
  notFound: 'Plan not found',
  actNotFound: 'Activation plan not found',
  activationLevelsSaved: 'Activation income levels saved',
  roiLevelsSaved: 'ROI level income percents saved',
  nothingToChange: 'Send at least one field to change',
} as const;

/** A percent in: a decimal string or number with at most 2 decimals; out: basis points (1.5 -> 150). */
const percentIn = (message: string, { allowZero }: { allowZero: boolean }) =>
  v.pipe(
    v.union([v.string(), v.number()], message),
    v.transform((input) => parseCents(input)),
    v.number(message),
    v.check((bp) => bp <= 10_000 && (allowZero || bp > 0), message),
  );

/** 150 -> "1.50". */
export const formatPercent = (basisPoints: number) => formatCents(basisPoints);

const nameSchema = v.pipe(
  v.string(PLAN_MESSAGES.nameRequired),
  v.trim(),
  v.nonEmpty(PLAN_MESSAGES.nameRequired),
  v.maxLength(100, PLAN_MESSAGES.nameMax),
  oneLineText(),
);
const roiSchema = percentIn(PLAN_MESSAGES.roiInvalid, { allowZero: false });
const durationSchema = v.pipe(
  v.union(
    [v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d+$/, PLAN_MESSAGES.durationInvalid))],
    PLAN_MESSAGES.durationInvalid,
  ),
  v.transform(Number),
  v.integer(PLAN_MESSAGES.durationInvalid),
  v.minValue(1, PLAN_MESSAGES.durationInvalid),
  v.maxValue(MAX_PLAN_DURATION_DAYS, PLAN_MESSAGES.durationInvalid),
);
const statusSchema = v.picklist(PLAN_STATUSES, PLAN_MESSAGES.statusInvalid);

/** POST /plans/add: a plan bought for any amount from its minimum to its maximum. */
export const planInputSchema = v.pipe(
  v.object({
    name: nameSchema,
    min_amount: amountSchema,
    max_amount: amountSchema,
    roi_percent: roiSchema,
    duration_days: durationSchema,
    status: v.optional(statusSchema, 'active'),
  }),
  v.forward(
    v.check((input) => input.min_amount <= input.max_amount, PLAN_MESSAGES.minAboveMax),
    ['max_amount'],
  ),
);
export type PlanInput = v.InferOutput<typeof planInputSchema>;

/** PUT /plans/{id}: any of the fields; the minimum-maximum check runs on the merged plan. */
export const planUpdateSchema = v.object({
  name: v.optional(nameSchema),
  min_amount: v.optional(amountSchema),
  max_amount: v.optional(amountSchema),
  roi_percent: v.optional(roiSchema),
  duration_days: v.optional(durationSchema),
  status: v.optional(statusSchema),
});
export type PlanUpdate = v.InferOutput<typeof planUpdateSchema>;

/** POST /actplan/add: a fixed-price package (its price is both its minimum and its maximum). */
export const actPlanInputSchema = v.object({
  name: nameSchema,
  amount: amountSchema,
  roi_percent: roiSchema,
  duration_days: durationSchema,
  status: v.optional(statusSchema, 'active'),
});
export type ActPlanInput = v.InferOutput<typeof actPlanInputSchema>;

export const actPlanUpdateSchema = v.object({
  name: v.optional(nameSchema),
  amount: v.optional(amountSchema),
  roi_percent: v.optional(roiSchema),
  duration_days: v.optional(durationSchema),
  status: v.optional(statusSchema),
});
export type ActPlanUpdate = v.InferOutput<typeof actPlanUpdateSchema>;

export const planIdParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });

export const planSchema = v.object({
  id: v.string(),
  kind: v.picklist(PLAN_KINDS),
  name: v.string(),
  min_amount: v.string(),
  max_amount: v.string(),
  roi_percent: v.string(),
  duration_days: v.number(),
  status: v.picklist(PLAN_STATUSES),
  created_at: v.string(),
  updated_at: v.string(),
});
export type Plan = v.InferOutput<typeof planSchema>;

export const planResultSchema = v.object({ message: v.string(), plan: planSchema });
export const planDeleteResultSchema = v.object({ message: v.string(), plan: v.optional(planSchema) });
export const planListSchema = v.object({ plans: v.array(planSchema) });
export const actPlanListSchema = v.object({ actplans: v.array(planSchema) });

/** POST /plans/addactivelevel and /plans/addinvestlevel: the whole list, level 1 first. */
export const levelPercentsInputSchema = v.object({
  percents: v.pipe(
    v.array(percentIn(PLAN_MESSAGES.percentInvalid, { allowZero: true }), PLAN_MESSAGES.percentsRequired),
    v.maxLength(MAX_LEVELS, PLAN_MESSAGES.percentsMax),
    v.check((list) => list.reduce((sum, bp) => sum + bp, 0) <= 10_000, PLAN_MESSAGES.percentsTotal),
  ),
});
export type LevelPercentsInput = v.InferOutput<typeof levelPercentsInputSchema>;

export const levelPercentsResultSchema = v.object({ message: v.string(), percents: v.array(v.string()) });
export const levelSettingsSchema = v.object({
  active_levels: v.array(v.string()),
  invest_levels: v.array(v.string()),
});
export type LevelSettings = v.InferOutput<typeof levelSettingsSchema>;

/** A share of an amount in cents at a percent in basis points, rounded down to the cent (RULES.md). */
export function shareOf(amountCents: number, basisPoints: number): number {
  return Number((BigInt(amountCents) * BigInt(basisPoints)) / 10_000n);
}
