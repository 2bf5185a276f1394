import * as v from 'valibot';

// The audit log (RULES.md "Accounts"): every admin change to a member, money or settings, with who,
// what, before, after and when. Written by the services that make the change; read by admins here.

export const AUDIT_PAGE_SIZE = 25;

export const AUDIT_MESSAGES = {
  pageInvalid: 'page must be a whole number of 1 or more',
  filterTooLong: 'A filter has at most 254 characters',
  empty: 'No audit entries match this filter.',
} as const;

/** What each action is called on the screen; an action not listed shows as it is stored. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'user.update': 'Member edited',
  'user.delete': 'Member deleted',
  'user.deactivate': 'Member deactivated instead of deleted',
  'user.sessions_end': 'Sessions ended',
  'wallet.credit': 'Wallet credited',
  'wallet.debit': 'Wallet debited',
  'transfer.approve': 'Transfer approved',
  'transfer.reject': 'Transfer rejected',
  'payment.manual_credit': 'Payment credited by hand',
};
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
