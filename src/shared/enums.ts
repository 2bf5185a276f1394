import * as v from 'valibot';

// The short lists and limits that the screens' addresses validate (a route's validateSearch, which the
// router keeps in the app's entry while it splits the screen off). They live here, apart from the
// schemas and texts of their modules (which re-export them), so that the first download of every
// phone carries these few lines and not whole modules (tests/e2e/member-budget.spec.ts).

// payments
export const PAYMENT_STATUSES = [
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const;

// deposits
export const DEPOSIT_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
/** On-chain deposits (issue 18); here so a route's filter needs no more than this list. */
export const WEB3_DEPOSIT_STATUSES = [
  'pending',
  'confirming',
  'credited',
  'rejected',
  'awaiting_admin',
] as const;

// tickets
/** RULES.md: the ticket statuses. */
export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export const TICKET_SEARCH_MAX = 100;

// transactions
export const TRANSACTION_TYPES = [
  'roi',
  'level_income',
  'activation_income',
  'topup',
  'transfer',
  'deposit',
  'withdrawal',
  'withdrawal_fee',
  'reward',
  'salary',
  'cto',
  'adjustment',
] as const;
/** As transfers: pending waits for an admin, failed was rejected (the money went back). */
export const TRANSACTION_STATUSES = ['completed', 'pending', 'failed'] as const;
/** The member lists' address filters (docs/app.md); a bad value is dropped, so a shared link still opens. */
export const transactionSearchSchema = v.object({
  status: v.fallback(v.optional(v.picklist(TRANSACTION_STATUSES)), undefined),
  source: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
  search: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
  page: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined),
});
/** The admin's /admin/topup tabs: top-ups, every transaction, transfers waiting for review. */
export const ADMIN_TRANSACTION_TABS = ['topups', 'all', 'review'] as const;

// transfers
export const DASHBOARD_TABS = ['overview', 'sent', 'received', 'transfer'] as const;
export const HISTORY_TABS = ['overview', 'outgoing', 'incoming', 'all'] as const;

// users
export const USER_STATUSES = ['unblock', 'block'] as const;
export const ACTIVE_FLAGS = ['active', 'inactive'] as const;
export const MEMBER_SORTS = ['created_at', 'fullname', 'username', 'email', 'business', 'working'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
/** The members list's "Invested" filter: any member, those without a single top-up, those with one. */
export const INVESTED_FILTERS = ['any', 'never', 'yes'] as const;
/** The member page's records (/admin/check/profile/{id}?tab=): what support looks up about one member. */
export const MEMBER_RECORD_TABS = ['investments', 'withdrawals', 'deposits', 'team', 'tickets'] as const;
