import { randomUUID } from 'node:crypto';
import type { OutboxMail } from '../../../shared/account.ts';
import type { Db } from '../../db/database.ts';
import type { MailOutboxTable } from '../../db/schema.ts';
import { readRules } from '../settings/settings.service.ts';
import { insertMail } from './mail.repository.ts';

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
    id: randomUUID(),
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
