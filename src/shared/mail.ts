import * as v from 'valibot';
import { MAIL_STATUSES } from './mail-statuses.ts';

// The mail outbox as admins see it (issue 14, /admin/mail): its list, filter and resend call. Apart
// from the account schemas, which members' screens load: none of this is a member's.

/**
 * A mail as support sees it: to whom, what about, and whether it went out. Never its text: reset links
 * and codes are secrets of the member's, and support reading them could take over the account.
 */
export const outboxMailSchema = v.object({
  id: v.string(),
  to: v.string(),
  subject: v.string(),
  status: v.picklist(MAIL_STATUSES),
  attempts: v.number(),
  last_error: v.nullable(v.string()),
  created_at: v.string(),
  sent_at: v.nullable(v.string()),
});
export type OutboxMail = v.InferOutput<typeof outboxMailSchema>;
export const outboxListSchema = v.object({ mails: v.array(outboxMailSchema) });

export const MAIL_STATUS_LABELS: Record<(typeof MAIL_STATUSES)[number], string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
};

export const outboxQuerySchema = v.object({
  to: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254))),
  status: v.optional(v.picklist(MAIL_STATUSES, 'status is pending, sent or failed')),
});
export type OutboxQuery = v.InferOutput<typeof outboxQuerySchema>;

// Resending a failed mail (POST /admin/mail/{id}/resend, docs/rules.md "Mail"): an admin puts it back
// in the outbox once the cause (a full mailbox, a relay down for hours) is fixed.
export const MAIL_ADMIN_TEXT = {
  idInvalid: 'The mail id is not valid.',
  notFound: 'No such mail.',
  resent: 'The mail is back in the outbox and will be sent now.',
  notFailed: (status: string) =>
    `Only a failed mail can be sent again; this one is ${status === 'sent' ? 'already sent' : 'still waiting to be sent'}.`,
} as const;

/** A mail's id in the address: the outbox's ids are UUIDs, but older rows may differ, so any short text. */
export const mailIdParamsSchema = v.object({
  id: v.pipe(
    v.string(MAIL_ADMIN_TEXT.idInvalid),
    v.trim(),
    v.nonEmpty(MAIL_ADMIN_TEXT.idInvalid),
    v.maxLength(64, MAIL_ADMIN_TEXT.idInvalid),
  ),
});
export const mailResendResultSchema = v.object({ message: v.string(), mail: outboxMailSchema });
export type MailResendResult = v.InferOutput<typeof mailResendResultSchema>;
