import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimMail, dueMails } from '../../src/server/modules/mail/mail.repository.ts';
import { MAX_MAIL_ATTEMPTS } from '../../src/server/modules/mail/mail.worker.ts';
import { ACCOUNT, MAIL_TEXT } from '../../src/shared/account.ts';
import { ApiClient, registerMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// The outbox: mails go out over a real SMTP connection, are retried with backoff while the relay
// refuses them, are marked failed after MAX_MAIL_ATTEMPTS refusals (admins see them), and without
// SMTP_URL are logged and marked sent.

const FROM = 'Member Platform <no-reply@members.example.test>';
let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: FROM,
    MAIL_POLL_MS: '100',
    MAIL_RETRY_BASE_MS: '40',
    PUBLIC_URL: 'http://members.example.test:8443',
  });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const outboxFor = async (to: string) => {
  const res = await admin.get(`/admin/mail/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return res.body.mails as { status: string; attempts: number; last_error: string | null }[];
};

describe('mail outbox', () => {
  it('sends a mail over SMTP from MAIL_FROM with a plain-text and an HTML part', async () => {
    const member = await registerMember(server.baseUrl);
    const res = await new ApiClient(server.baseUrl).post('/pass/forget', { email: member.email });
    expect(res.body).toEqual({ message: ACCOUNT.resetRequested });
    const mail = await smtp.waitFor(member.email);
    expect(mail.from).toBe('"Member Platform" <no-reply@members.example.test>');
    expect(mail.subject).toBe(MAIL_TEXT.resetSubject);
    expect(mail.text).toMatch(/http:\/\/members\.example\.test:8443\/reset-password\?token=\S+/);
    expect(mail.html).toMatch(/<a href="http:\/\/members\.example\.test:8443\/reset-password\?token=/);
    await expect.poll(async () => (await outboxFor(member.email))[0]?.status).toBe('sent');
  });

  it('retries while the relay refuses, then delivers the mail once', async () => {
    const member = await registerMember(server.baseUrl);
    const before = smtp.refused();
    smtp.refuse(2);
    await new ApiClient(server.baseUrl).post('/pass/forget', { email: member.email });
    await smtp.waitFor(member.email);
    expect(smtp.refused() - before).toBe(2);
    await expect
      .poll(async () => (await outboxFor(member.email))[0])
      .toMatchObject({ status: 'sent', attempts: 3 });
    expect(smtp.mails.filter((m) => m.to.includes(member.email))).toHaveLength(1);
  });

  it(`marks a mail failed after ${MAX_MAIL_ATTEMPTS} refusals and lists it for admins only`, async () => {
    const member = await registerMember(server.baseUrl);
    smtp.refuse(Number.POSITIVE_INFINITY);
    try {
      await new ApiClient(server.baseUrl).post('/pass/forget', { email: member.email });
      await expect
        .poll(async () => (await outboxFor(member.email))[0]?.status, { timeout: 10_000 })
        .toBe('failed');
    } finally {
      smtp.refuse(0);
    }
    const [mail] = await outboxFor(member.email);
    expect(mail?.attempts).toBe(MAX_MAIL_ATTEMPTS);
    expect(mail?.last_error).toMatch(/451/);
    const failed = await admin.get('/admin/mail/failed');
    expect(failed.status).toBe(200);
    expect(failed.body.mails.map((m: { to: string }) => m.to)).toContain(member.email);
    expect(smtp.mails.some((m) => m.to.includes(member.email))).toBe(false);

    const { client } = await signedInMember(server.baseUrl);
    expect((await client.get('/admin/mail/failed')).status).toBe(403);
    expect((await client.get('/admin/mail/outbox')).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).get('/admin/mail/failed')).status).toBe(401);
  });

  it('lets only one of two workers claim a due mail', async () => {
    // Two server instances read the same due row; the guarded update lets exactly one take it.
    const member = await registerMember(server.baseUrl);
    const at = new Date().toISOString();
    await server.db
      .insertInto('mail_outbox')
      .values({
        id: `claim-${Date.now()}`,
        to_address: member.email,
        subject: 'claim test',
        text_body: 'x',
        html_body: '<p>x</p>',
        status: 'pending',
        attempts: 0,
        // In the future, so this process's worker leaves it alone while the two claims race.
        next_attempt_at: '2999-01-01T00:00:00.000Z',
        last_error: null,
        created_at: at,
        sent_at: null,
      })
      .execute();
    const [row] = await dueMails(server.db, '2999-01-01T00:00:00.000Z', 1000).then((rows) =>
      rows.filter((r) => r.subject === 'claim test'),
    );
    if (!row) throw new Error('row not found');
    const lease = '2999-01-01T00:02:00.000Z';
    const results = await Promise.all([claimMail(server.db, row, lease), claimMail(server.db, row, lease)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

describe('without SMTP_URL', () => {
  it('logs the mail and marks it sent, so the product works without a mail server', async () => {
    const plain = await startServer({ PUBLIC_URL: 'http://members.example.test:8443', MAIL_POLL_MS: '100' });
    try {
      const member = await registerMember(plain.baseUrl);
      const res = await new ApiClient(plain.baseUrl).post('/pass/forget', { email: member.email });
      expect(res.status).toBe(200);
      const padmin = await signedInAdminClient(plain.baseUrl);
      await expect
        .poll(async () => (await padmin.get(`/admin/mail/outbox?to=${member.email}`)).body.mails[0]?.status)
        .toBe('sent');
    } finally {
      await plain.stop();
    }
  });
});
