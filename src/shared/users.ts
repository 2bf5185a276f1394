import * as v from 'valibot';

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
