import * as v from 'valibot';

// The audit log (RULES.md "Accounts"): every admin change to a member, money or settings, with who,
// what, before, after and when. Written by the services that make the change; read by admins here.

export const AUDIT_PAGE_SIZE = 25;

export const AUDIT_MESSAGES = {
  pageInvalid: 'page must be a whole number of 1 or more',
  filterTooLong: 'A filter has at most 254 characters',
  empty: 'No audit entries match this filter.',
} as const;

/** What each action is called on the screen when its before and after say nothing more precise. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'user.update': 'Edited member',
  'user.delete': 'Erased member',
  'user.deactivate': 'Blocked and deactivated member instead of deleting',
  'user.sessions_end': 'Ended member’s sessions',
  'user.self_trade': 'Set member’s trading pair',
  'wallet.credit': 'Credited wallet',
  'wallet.debit': 'Debited wallet',
  'transfer.approve': 'Approved transfer',
  'transfer.reject': 'Rejected transfer',
  'payment.manual_credit': 'Credited payment by hand',
  'notification.create': 'Sent notification',
  'notification.delete': 'Deleted notification',
  'notification.banner': 'Uploaded banner',
  'ticket.status': 'Changed ticket status',
  'settings.update': 'Changed settings',
  'plan.create': 'Created plan',
  'plan.update': 'Edited plan',
  'plan.deactivate': 'Deactivated plan (it has investments)',
  'plan.delete': 'Deleted plan',
  'actplan.create': 'Created activation plan',
  'actplan.update': 'Edited activation plan',
  'actplan.deactivate': 'Deactivated activation plan (it has investments)',
  'actplan.delete': 'Deleted activation plan',
  'levels.activation': 'Set activation income levels',
  'levels.roi': 'Set ROI level income levels',
  'codes.create': 'Created activation codes',
  'mail.resend': 'Sent a failed mail again',
};

/** The stored field names as people say them; a field not listed shows as its name in words. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  fullname: 'Full name',
  username: 'Username',
  email: 'E-mail',
  phone: 'Phone',
  status: 'Status',
  is_active: 'Active flag',
  roi_status: 'ROI status',
  level_status: 'Level status',
  address: 'Address',
  business: 'Business',
  business_balance: 'Business balance',
  bep20: 'BEP20 address',
  trc20: 'TRC20 address',
  self_trade_pair: 'Trading pair',
  sessions_ended: 'Sessions ended',
  credited: 'Credited',
  actually_paid: 'Actually paid',
  payment: 'Payment',
  wallet: 'Wallet',
  admin_two_factor_required: 'Two-factor sign-in required for admins',
  name: 'Name',
  min_amount: 'Minimum amount',
  max_amount: 'Maximum amount',
  roi_percent: 'Daily ROI %',
  duration_days: 'Duration (days)',
  plan_id: 'Plan',
  count: 'Codes',
  percents: 'Percents by level (level 1 first)',
  attempts: 'Tries',
};

/** In money entries `business` and `working` are the member's two wallets (spec 3 labels). */
const WALLET_FIELD_LABELS: Record<string, string> = { business: 'Active Wallet', working: 'Income Working' };

const VALUE_LABELS: Record<string, Record<string, string>> = {
  status: { block: 'Blocked', unblock: 'Unblocked' },
  is_active: { active: 'Active', inactive: 'Inactive' },
  roi_status: { open: 'Open', close: 'Closed' },
  level_status: { open: 'Open', close: 'Closed' },
  wallet: WALLET_FIELD_LABELS,
};

/** Fields whose values are amounts (decimal strings): the screen shows them as money. */
const MONEY_FIELDS = new Set([
  'business',
  'business_balance',
  'working',
  'credited',
  'actually_paid',
  'amount',
  'min_amount',
  'max_amount',
]);

export type AuditChange = {
  field: string;
  label: string;
  /** undefined: the field was set by this action, with nothing before it. */
  before: unknown;
  after: unknown;
  money: boolean;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const words = (field: string) => {
  const text = field.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const isWalletAction = (action: string) => action.startsWith('wallet.') || action.startsWith('payment.');

export function auditFieldLabel(action: string, field: string): string {
  return (
    (isWalletAction(action) ? WALLET_FIELD_LABELS[field] : undefined) ??
    AUDIT_FIELD_LABELS[field] ??
    words(field)
  );
}

/** A stored value as a person reads it (money is left to the screen, which formats amounts). */
export function auditValueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return VALUE_LABELS[field]?.[value] ?? value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
  return JSON.stringify(value);
}

/**
 * Only what the action changed: the fields whose before and after differ. When there was nothing
 * before (a creation, sessions ended) every field set is listed; when nothing is left after (an erase),
 * none is: the whole record stays behind the details toggle.
 */
export function auditChanges(entry: Pick<AuditEntry, 'action' | 'before' | 'after'>): AuditChange[] {
  const { action, before, after } = entry;
  if (!isRecord(after)) return [];
  const old = isRecord(before) ? before : {};
  return Object.keys({ ...old, ...after })
    .filter((field) => field in after && !same(old[field], after[field]))
    .map((field) => ({
      field,
      label: auditFieldLabel(action, field),
      before: old[field],
      after: after[field],
      money: MONEY_FIELDS.has(field),
    }));
}

/** What happened, in words: "Blocked member", "Credited Active Wallet". */
export function auditSummary(entry: Pick<AuditEntry, 'action' | 'before' | 'after'>): string {
  const changes = auditChanges(entry);
  const changed = (field: string) => changes.find((c) => c.field === field);
  if (entry.action === 'user.update') {
    const status = changed('status');
    if (status) return status.after === 'block' ? 'Blocked member' : 'Unblocked member';
    const active = changed('is_active');
    if (active) return active.after === 'active' ? 'Activated member' : 'Made member inactive';
  }
  if (entry.action === 'wallet.credit' || entry.action === 'wallet.debit') {
    const wallet = changes.find((c) => c.field in WALLET_FIELD_LABELS);
    const verb = entry.action === 'wallet.credit' ? 'Credited' : 'Debited';
    if (wallet) return `${verb} ${WALLET_FIELD_LABELS[wallet.field]}`;
  }
  return auditActionLabel(entry.action);
}

export const auditActionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;

const filterText = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(254, AUDIT_MESSAGES.filterTooLong),
    v.transform((s) => (s === '' ? undefined : s)),
  ),
);

/** GET /audit: newest first, a page at a time. `member`: a member's id, e-mail or username; `admin`: an admin's id. */
export const auditQuerySchema = v.object({
  member: filterText,
  admin: filterText,
  page: v.optional(
    v.pipe(
      v.string(AUDIT_MESSAGES.pageInvalid),
      v.regex(/^\d{1,6}$/, AUDIT_MESSAGES.pageInvalid),
      v.transform(Number),
      v.minValue(1, AUDIT_MESSAGES.pageInvalid),
    ),
    '1',
  ),
});
export type AuditQuery = v.InferOutput<typeof auditQuerySchema>;

const personSchema = v.object({ id: v.string(), fullname: v.string(), email: v.string() });

export const auditEntrySchema = v.object({
  id: v.string(),
  created_at: v.string(),
  action: v.string(),
  admin: personSchema,
  target_type: v.string(),
  target_id: v.string(),
  /** The member the change was about, when it was about one (for an erased member, as they were). */
  member: v.nullable(v.object({ ...personSchema.entries, erased: v.boolean() })),
  before: v.unknown(),
  after: v.unknown(),
  reason: v.nullable(v.string()),
});
export type AuditEntry = v.InferOutput<typeof auditEntrySchema>;

export const auditListSchema = v.object({
  entries: v.array(auditEntrySchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
  total_pages: v.number(),
  /** Every admin account, for the filter. */
  admins: v.array(personSchema),
});
export type AuditList = v.InferOutput<typeof auditListSchema>;
