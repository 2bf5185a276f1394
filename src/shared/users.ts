import * as v from 'valibot';
import { walletBalanceSchema } from './wallets.ts';

// The User entity of spec section 3 as the API shows it: every field but the password.
// Money-like fields (business, business_balance) are decimal strings, as every amount the API returns.

export const USER_ROLES = ['user', 'admin'] as const;
export const USER_STATUSES = ['unblock', 'block'] as const;
export const ACTIVE_FLAGS = ['active', 'inactive'] as const;
export const OPEN_CLOSE = ['open', 'close'] as const;

const nullableString = v.nullable(v.string());

export const publicUserSchema = v.object({
  id: v.string(),
  username: v.string(),
  email: v.string(),
  role: v.picklist(USER_ROLES),
  status: v.picklist(USER_STATUSES),
  is_active: v.picklist(ACTIVE_FLAGS),
  roi_status: v.picklist(OPEN_CLOSE),
  level_status: v.picklist(OPEN_CLOSE),
  address: nullableString,
  business: v.string(),
  business_balance: v.string(),
  fullname: v.string(),
  phone: v.string(),
  reffer_by: nullableString,
  refferal_code: v.string(),
  last_login: nullableString,
  created_at: v.string(),
  verify_at: nullableString,
  updated_at: v.string(),
  activation_date: nullableString,
  paid_member: v.boolean(),
  level_month: v.number(),
  roi_day: v.number(),
  total_team: v.number(),
  bep20: nullableString,
  trc20: nullableString,
});
export type PublicUser = v.InferOutput<typeof publicUserSchema>;

export const memberCountsSchema = v.object({
  total: v.number(),
  active: v.number(),
  inactive: v.number(),
  blocked: v.number(),
  joinedToday: v.number(),
});
export type MemberCounts = v.InferOutput<typeof memberCountsSchema>;

/** The link a member shares; the registration page reads `ref` from it. */
export function referralLink(origin: string, code: string): string {
  return `${origin}/registration?ref=${encodeURIComponent(code)}`;
}

/** GET /users/{id}: a member with their balances (API.md "Accounts"); an admin record has none. */
export const singleUserSchema = v.object({
  singleuser: v.object({ ...publicUserSchema.entries, balance: v.optional(walletBalanceSchema) }),
});
export const userIdParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });

export const USER_MESSAGES = {
  roleLocked: 'The role cannot be changed',
  updated: 'User updated successfully',
  nothingToChange: 'Send at least one field to change',
  noMember: 'No member with this id',
} as const;

/**
 * PUT /users/{id} (admin): the account flags of spec 3. The role is shown but never changes (spec 6);
 * sending it is a 400. updated_at is accepted as the spec's client sends it, and set by the server.
 */
export const userUpdateSchema = v.pipe(
  v.object({
    status: v.optional(v.picklist(USER_STATUSES, 'Status is unblock or block')),
    is_active: v.optional(v.picklist(ACTIVE_FLAGS, 'is_active is active or inactive')),
    roi_status: v.optional(v.picklist(OPEN_CLOSE, 'roi_status is open or close')),
    level_status: v.optional(v.picklist(OPEN_CLOSE, 'level_status is open or close')),
    role: v.optional(v.never(USER_MESSAGES.roleLocked)),
    updated_at: v.optional(v.string()),
  }),
  v.check(
    (input) => ['status', 'is_active', 'roi_status', 'level_status'].some((k) => k in input),
    USER_MESSAGES.nothingToChange,
  ),
);
export type UserUpdate = v.InferOutput<typeof userUpdateSchema>;
