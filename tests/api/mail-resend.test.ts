import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MAIL_ATTEMPTS } from '../../src/server/modules/mail/mail.worker.ts';
import { MAIL_TEXT } from '../../src/shared/account.ts';
import { MAIL_ADMIN_TEXT, type OutboxMail } from '../../src/shared/mail.ts';
import { ApiClient, registerMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// Sending a failed mail again (POST /admin/mail/{id}/resend, docs/rules.md "Mail"): a mail the real SMTP
// server refused on every try is failed for good; an admin puts it back in the outbox and the relay,
// working again, receives it. Runs on SQLite and on PostgreSQL.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  // Fast retries: a refused mail fails for good within a second or so.
  server = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50', MAIL_RETRY_BASE_MS: '20' });
  admin = await signedInAdminClient(server.baseUrl);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function outbox(query: string): Promise<OutboxMail[]> {
  const res = await admin.get(`/admin/mail/outbox?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.mails;
}
const mailTo = async (email: string) => (await outbox(`to=${encodeURIComponent(email)}`))[0];

/** A reset-link mail to a new member that the relay refuses until it is failed for good. */
async function failedMail(): Promise<{ email: string; id: string }> {
  const { email } = await registerMember(server.baseUrl);
  smtp.refuse(Number.POSITIVE_INFINITY);
  try {
    expect((await new ApiClient(server.baseUrl).post('/pass/forget', { email })).status).toBe(200);
    await expect.poll(async () => (await mailTo(email))?.status, { timeout: 15_000 }).toBe('failed');
  } finally {
    smtp.refuse(0);
  }
  const mail = await mailTo(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  expect(mail.attempts).toBe(MAX_MAIL_ATTEMPTS);
  return { email, id: mail.id };
}

const resend = (client: ApiClient, id: string) => client.post(`/admin/mail/${encodeURIComponent(id)}/resend`);
const received = (email: string) => smtp.mails.filter((m) => m.to.includes(email));

describe('GET /admin/mail/outbox?status=', () => {
  it('lists only the mails of that status, and refuses an unknown status', async () => {
    const { email } = await failedMail();
    const sent = await registerMember(server.baseUrl);
    await new ApiClient(server.baseUrl).post('/pass/forget', { email: sent.email });
    await smtp.waitFor(sent.email);
    await expect.poll(async () => (await mailTo(sent.email))?.status).toBe('sent');

    const failed = await outbox('status=failed');
    expect(failed.map((m) => m.to)).toContain(email);
    expect(failed.every((m) => m.status === 'failed')).toBe(true);
    const delivered = await outbox('status=sent');
    expect(delivered.map((m) => m.to)).toContain(sent.email);
    expect(delivered.map((m) => m.to)).not.toContain(email);
    expect(delivered.every((m) => m.status === 'sent')).toBe(true);
    expect(await outbox(`status=failed&to=${encodeURIComponent(sent.email)}`)).toEqual([]);

    const bad = await admin.get('/admin/mail/outbox?status=bounced');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'status', message: 'status is pending, sent or failed' }]);
  });
});

describe('POST /admin/mail/{id}/resend', () => {
  it('puts a failed mail back in the outbox; the relay receives it and the resend is audited', async () => {
    const { email, id } = await failedMail();
    expect(received(email)).toHaveLength(0);

    const res = await resend(admin, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(MAIL_ADMIN_TEXT.resent);
    // Back to pending with its tries counted afresh; the last error stays until the next try.
    expect(res.body.mail).toMatchObject({ id, to: email, status: 'pending', attempts: 0, sent_at: null });
    expect(res.body.mail.last_error).toMatch(/451/);

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe(MAIL_TEXT.resetSubject);
    await expect.poll(async () => (await mailTo(email))?.status).toBe('sent');
    expect(await mailTo(email)).toMatchObject({ attempts: 1, last_error: null, sent_at: expect.any(String) });
    expect(received(email)).toHaveLength(1);
    expect((await outbox('status=failed')).map((m) => m.id)).not.toContain(id);

    const session = await admin.get('/auth/session');
    const audit = await admin.get(`/audit?admin=${session.body.admin.id}`);
    expect(audit.status, audit.text).toBe(200);
    const entry = audit.body.entries.find(
      (e: { action: string; target_id: string }) => e.action === 'mail.resend' && e.target_id === id,
    );
    expect(entry).toMatchObject({
      target_type: 'mail',
      admin: { id: session.body.admin.id },
      before: { status: 'failed', attempts: MAX_MAIL_ATTEMPTS },
      after: { status: 'pending', attempts: 0 },
    });
  });

  it('answers 409 for a mail that is not failed any more: resent a moment ago, or sent', async () => {
    const { email, id } = await failedMail();
    expect((await resend(admin, id)).status).toBe(200);
    const again = await resend(admin, id);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^Only a failed mail can be sent again/);
    await smtp.waitFor(email);
    await expect.poll(async () => (await mailTo(email))?.status).toBe('sent');
    const sent = await resend(admin, id);
    expect(sent.status).toBe(409);
    expect(sent.body.message).toBe(MAIL_ADMIN_TEXT.notFailed('sent'));
    expect(received(email)).toHaveLength(1);
  });

  it('resends once when two admins press at the same moment', async () => {
    const { email, id } = await failedMail();
    const other = await signedInAdminClient(server.baseUrl);
    const answers = await Promise.all([resend(admin, id), resend(other, id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await smtp.waitFor(email);
    await expect.poll(async () => (await mailTo(email))?.status).toBe('sent');
    expect(received(email)).toHaveLength(1);

    const session = await admin.get('/auth/session');
    const entries = [...(await admin.get(`/audit?admin=${session.body.admin.id}`)).body.entries].filter(
      (e: { action: string; target_id: string }) => e.action === 'mail.resend' && e.target_id === id,
    );
    expect(entries).toHaveLength(1);
  });

  it('is for admins only, with the CSRF header; a refused call leaves the mail failed', async () => {
    const { email, id } = await failedMail();
    const { client } = await signedInMember(server.baseUrl);
    const asMember = await resend(client, id);
    expect(asMember.status).toBe(403);
    expect(asMember.body.mail).toBeUndefined();
    expect((await resend(new ApiClient(server.baseUrl), id)).status).toBe(401);
    const noCsrf = await admin.request('POST', `/admin/mail/${id}/resend`, { csrf: false });
    expect(noCsrf.status).toBe(403);

    expect(await mailTo(email)).toMatchObject({ status: 'failed', attempts: MAX_MAIL_ATTEMPTS });
    expect(received(email)).toHaveLength(0);
  });

  it('answers 404 for an unknown mail and 400 for an id that cannot be one', async () => {
    const unknown = await resend(admin, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(MAIL_ADMIN_TEXT.notFound);
    const tooLong = await resend(admin, 'x'.repeat(65));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ field: 'id', message: MAIL_ADMIN_TEXT.idInvalid }]);
    const blank = await resend(admin, ' ');
    expect(blank.status).toBe(400);
  });
});
