import { randomUUID } from 'node:crypto';
import type { OutboxMail } from '../../../shared/account.ts';
import type { Db } from '../../db/database.ts';
import type { MailOutboxTable } from '../../db/schema.ts';
import { insertMail } from './mail.repository.ts';

// Mail is written to the outbox with the same database handle (usually a transaction) as what caused
// it, so a mail exists exactly when its cause committed. The worker (mail.worker.ts) sends it.

export type NewMail = { to: string; subject: string; text: string; html: string };

export async function enqueueMail(db: Db, mail: NewMail, now = new Date()): Promise<void> {
  await insertMail(db, {
    id: randomUUID(),
    to_address: mail.to.toLowerCase(),
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
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
export function simpleHtml(paragraphs: string[], link?: string): string {
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
