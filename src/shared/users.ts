import * as v from 'valibot';
import { ACTIVE_FLAGS, INVESTED_FILTERS, MEMBER_SORTS, SORT_ORDERS, USER_STATUSES } from './enums.ts';
import { walletBalanceSchema } from './wallets.ts';

export { ACTIVE_FLAGS, INVESTED_FILTERS, MEMBER_SORTS, SORT_ORDERS, USER_STATUSES };

// The User entity of spec section 3 as the API shows it: every field but the password.
// Money-like fields (business, business_balance) are decimal strings, as every amount the API returns.

export const USER_ROLES = ['user', 'admin'] as const;
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
  /** Ours, not the spec's: the pair the member trades themselves (shared/trade.ts), null until chosen. */
  self_trade_pair: nullableString,
  self_trade_updated_at: nullableString,
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

// ---- Admin: members list, member detail and edit, deleting, sessions (issue 8) ----

/** Spec 9: the user list is paged by page number; the page size is ours. */
export const MEMBER_PAGE_SIZE = 20;
/** The CSV export holds at most this many rows; a larger membership is exported a filter at a time. */
export const MEMBER_EXPORT_MAX_ROWS = 50_000;
export type MemberSort = (typeof MEMBER_SORTS)[number];

export const MEMBER_ADMIN_MESSAGES = {
  unknownField: 'This field cannot be changed here',
  passwordLocked: 'Passwords are never set by an admin',
  addressTooLong: 'Address cannot exceed 500 characters',
  businessInvalid: 'business must be an amount of 0 or more with at most 2 decimals',
  businessBalanceInvalid: 'business_balance must be an amount of 0 or more with at most 2 decimals',
  bep20Invalid: 'A BEP20 address is 0x followed by 40 hexadecimal characters',
  trc20Invalid: 'A TRC20 address is T followed by 33 base58 characters',
  statusInvalid: 'Status is unblock or block',
  isActiveInvalid: 'is_active is active or inactive',
  roiStatusInvalid: 'roi_status is open or close',
  levelStatusInvalid: 'level_status is open or close',
  pageInvalid: 'page must be a whole number of 1 or more',
  limitInvalid: 'limit must be a whole number from 1 to 100',
  searchTooLong: 'Search for at most 100 characters',
  sortInvalid: 'Sort by created_at, fullname, username, email, business or working',
  orderInvalid: 'Order is asc or desc',
  investedInvalid: 'invested is any, never or yes',
  erased: 'User deleted successfully',
  deactivated:
    'The member has money or history, so the account was blocked and deactivated instead of deleted',
  sessionsEnded: 'All sessions of this member have ended',
} as const;

/**
 * An admin's balance adjustment, asked and answered in words (issue 22, item 13). Amounts come in
 * already formatted ("$500.00"); `wallet` is the wallet's label ("Active Wallet").
 */
export const ADJUSTMENT_TEXT = {
  confirmTitle: 'Confirm the adjustment',
  confirmButton: 'Confirm adjustment',
  question: (direction: 'credit' | 'debit', amount: string, name: string, wallet: string) =>
    direction === 'credit'
      ? `Credit ${amount} to ${name}'s ${wallet}?`
      : `Debit ${amount} from ${name}'s ${wallet}?`,
  balanceNow: (wallet: string, amount: string) => `${wallet} now holds ${amount}.`,
  balanceAfter: (amount: string) => `After this adjustment: ${amount}.`,
  tooLarge: (wallet: string, amount: string) =>
    `${wallet} holds only ${amount}: a debit beyond it will be refused.`,
  balanceUnknown: 'The current balance could not be read; the server checks it before any money moves.',
  newBalance: (name: string, wallet: string, amount: string) => `${name}'s ${wallet} now holds ${amount}.`,
} as const;

const pageQuery = v.optional(
  v.pipe(
    v.string(MEMBER_ADMIN_MESSAGES.pageInvalid),
    v.regex(/^\d{1,6}$/, MEMBER_ADMIN_MESSAGES.pageInvalid),
    v.transform(Number),
    v.minValue(1, MEMBER_ADMIN_MESSAGES.pageInvalid),
  ),
  '1',
);

/** The filter of the members list and of its CSV export (everything but the page). */
export const memberFilterSchema = v.object({
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, MEMBER_ADMIN_MESSAGES.searchTooLong))),
  status: v.optional(v.picklist(USER_STATUSES, MEMBER_ADMIN_MESSAGES.statusInvalid)),
  is_active: v.optional(v.picklist(ACTIVE_FLAGS, MEMBER_ADMIN_MESSAGES.isActiveInvalid)),
  /** never: no top-up at all (the members of GET /users/non/users); yes: at least one. */
  invested: v.optional(v.picklist(INVESTED_FILTERS, MEMBER_ADMIN_MESSAGES.investedInvalid), 'any'),
  sort: v.optional(v.picklist(MEMBER_SORTS, MEMBER_ADMIN_MESSAGES.sortInvalid), 'created_at'),
  order: v.optional(v.picklist(SORT_ORDERS, MEMBER_ADMIN_MESSAGES.orderInvalid), 'desc'),
});
export type MemberFilter = v.InferOutput<typeof memberFilterSchema>;

/** GET /users/list?page=: the spec's paged list, searchable, filterable and sortable. */
export const userListQuerySchema = v.object({ ...memberFilterSchema.entries, page: pageQuery });
export type UserListQuery = v.InferOutput<typeof userListQuerySchema>;

export const memberWithBalanceSchema = v.object({
  ...publicUserSchema.entries,
  balance: walletBalanceSchema,
});
export type MemberWithBalance = v.InferOutput<typeof memberWithBalanceSchema>;

export const userListSchema = v.object({
  allusers: v.array(memberWithBalanceSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
  total_pages: v.number(),
});
export type UserList = v.InferOutput<typeof userListSchema>;

/** GET /users/non/users (admin): members who never invested (no top-up at all), newest first; its screen is the list's invested=never. */
export const nonUsersQuerySchema = v.object({
  page: pageQuery,
  limit: v.optional(
    v.pipe(
      v.string(MEMBER_ADMIN_MESSAGES.limitInvalid),
      v.regex(/^\d{1,3}$/, MEMBER_ADMIN_MESSAGES.limitInvalid),
      v.transform(Number),
      v.minValue(1, MEMBER_ADMIN_MESSAGES.limitInvalid),
      v.maxValue(100, MEMBER_ADMIN_MESSAGES.limitInvalid),
    ),
    String(MEMBER_PAGE_SIZE),
  ),
});
export type NonUsersQuery = v.InferOutput<typeof nonUsersQuerySchema>;
export const nonUserSchema = v.object({
  id: v.string(),
  username: v.string(),
  fullname: v.string(),
  email: v.string(),
  joined: v.string(),
});
export type NonUser = v.InferOutput<typeof nonUserSchema>;
export const nonUserListSchema = v.object({
  allnonusers: v.array(nonUserSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
  total_pages: v.number(),
});
export type NonUserList = v.InferOutput<typeof nonUserListSchema>;

/** The columns of the CSV export, in order. Money as the API writes it ("1250.00"). */
export const MEMBER_CSV_COLUMNS = [
  'id',
  'fullname',
  'username',
  'email',
  'phone',
  'status',
  'is_active',
  'roi_status',
  'level_status',
  'business_wallet',
  'working_wallet',
  'refferal_code',
  'reffer_by',
  'created_at',
  'last_login',
] as const;

/** The fields of the admin's edit form (PUT /users/{id}, src/shared/member-edit.ts). */
export const EDITABLE_FIELDS = [
  'username',
  'email',
  'status',
  'is_active',
  'roi_status',
  'level_status',
  'address',
  'business',
  'business_balance',
  'fullname',
  'phone',
  'bep20',
  'trc20',
] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export const memberSessionInfoSchema = v.object({
  created_at: v.string(),
  expires_at: v.string(),
  ip: v.nullable(v.string()),
  /** "Chrome on Android": the user agent as a person reads it. */
  device: v.string(),
  user_agent: v.nullable(v.string()),
});
export type MemberSessionInfo = v.InferOutput<typeof memberSessionInfoSchema>;

/** A ledger transfer seen from one member's side. */
export const memberLedgerEntrySchema = v.object({
  id: v.string(),
  kind: v.string(),
  phase: v.picklist(['single', 'pending', 'post', 'void']),
  amount: v.string(),
  direction: v.picklist(['in', 'out', 'own']),
  from_account: v.string(),
  to_account: v.string(),
  description: v.nullable(v.string()),
  created_at: v.string(),
});
export type MemberLedgerEntry = v.InferOutput<typeof memberLedgerEntrySchema>;

export const MEMBER_RECENT_TRANSFERS = 20;

const personSchema = v.object({
  id: v.string(),
  fullname: v.string(),
  username: v.string(),
  email: v.string(),
});

/** GET /users/{id}/detail (admin): what support staff need about one member on one screen. */
export const memberDetailSchema = v.object({
  singleuser: memberWithBalanceSchema,
  sponsor: v.nullable(personSchema),
  direct_team: v.number(),
  transfers: v.array(memberLedgerEntrySchema),
  sessions: v.array(memberSessionInfoSchema),
});
export type MemberDetail = v.InferOutput<typeof memberDetailSchema>;

/** What DELETE /users/{id} will do, asked before the admin confirms. */
export const deletionPreviewSchema = v.object({
  outcome: v.picklist(['erase', 'deactivate']),
  reasons: v.array(v.string()),
});
export type DeletionPreview = v.InferOutput<typeof deletionPreviewSchema>;

export const deletionResultSchema = v.object({
  message: v.string(),
  outcome: v.picklist(['erased', 'deactivated']),
});

export const sessionsEndedSchema = v.object({ message: v.string(), ended: v.number() });
