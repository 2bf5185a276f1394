import { MAIL_ADMIN_TEXT, type MailResendResult, type OutboxMail } from '../../../shared/mail.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { MailOutboxTable } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { readRules } from '../settings/settings.service.ts';
import { findMail, insertMail, requeueFailedMail } from './mail.repository.ts';
import { nudgeMail } from './mail.worker.ts';

// Mail is written to the outbox with the same database handle (usually a transaction) as what caused
// it, so a mail exists exactly when its cause committed. The worker (mail.worker.ts) sends it.

/** A mail's paragraphs; `link`, when one of them, is made a link in the HTML part. */
export type NewMail = { to: string; subject: string; paragraphs: string[]; link?: string };

/**
 * Queues the mail with the site's signature: the site name and, when set, the support address (both
 * settings, read with the caller's handle), under the same paragraphs in the text and HTML parts.
 */
export async function enqueueMail(db: Db, mail: NewMail, now = new Date()): Promise<void> {
  const { siteName, supportEmail } = await readRules(db);
  const paragraphs = [
    ...mail.paragraphs,
    `— ${siteName}${supportEmail ? `. Questions? Write to ${supportEmail}.` : ''}`,
  ];
  await insertMail(db, {
    id: newId(),
    to_address: mail.to.toLowerCase(),
    subject: mail.subject,
    text_body: paragraphs.join('\n\n'),
    html_body: simpleHtml(paragraphs, mail.link),
    status: 'pending',
    attempts: 0,
    next_attempt_at: now.toISOString(),
    last_error: null,
    created_at: now.toISOString(),
    sent_at: null,
  });
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A simple HTML part: the same paragraphs as the text part, with one link made a link. */
function simpleHtml(paragraphs: string[], link?: string): string {
  const body = paragraphs
    .map((p) => {
      const escaped = escapeHtml(p);
      return link && p === link ? `<p><a href="${escapeHtml(link)}">${escaped}</a></p>` : `<p>${escaped}</p>`;
    })
    .join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${body}</body></html>`;
}

export const toOutboxMail = (row: MailOutboxTable): OutboxMail => ({
  id: row.id,
  to: row.to_address,
  subject: row.subject,
  status: row.status,
  attempts: row.attempts,
  last_error: row.last_error,
  created_at: row.created_at,
  sent_at: row.sent_at,
});

/**
 * An admin sends a failed mail again (docs/rules.md "Mail"): back to pending, due now, tries counted
 * afresh, audited in the same transaction. The guarded update decides: a mail not failed (never
 * failed, or already resent by another admin a moment ago) is a 409 and nothing changes.
 */
export async function resendMail(db: Db, admin: SessionUser, id: string): Promise<MailResendResult> {
  const mail = await db.transaction().execute(async (trx) => {
    const before = await findMail(trx, id);
    if (!before) throw notFound(MAIL_ADMIN_TEXT.notFound);
    const now = new Date().toISOString();
    if (!(await requeueFailedMail(trx, id, now))) {
      const current = (await findMail(trx, id)) ?? before;
      throw conflict(MAIL_ADMIN_TEXT.notFailed(current.status));
    }
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'mail.resend',
      targetType: 'mail',
      targetId: id,
      before: { status: before.status, attempts: before.attempts },
      after: { status: 'pending', attempts: 0 },
    });
    return { ...before, status: 'pending' as const, attempts: 0, next_attempt_at: now };
  });
  // After the commit, so the worker finds the mail due.
  nudgeMail(db);
  return { message: MAIL_ADMIN_TEXT.resent, mail: toOutboxMail(mail) };
}
