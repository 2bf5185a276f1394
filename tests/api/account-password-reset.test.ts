import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../../src/shared/account.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, registerMember, signedInAdminClient } from '../helpers/client.ts';
import { expireMailedCodes } from '../helpers/mailed-codes.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// POST /pass/forget and /pass/reset (issue 14 item 1), with the mails received by a real SMTP server.

const PUBLIC_URL = 'http://members.example.test:8443';
const LINK = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}/reset-password\\?token=(\\S+)`);
const NEW_PASSWORD = 'copper-lantern-river-58';

let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  // The loopback proxy hop is trusted, so a test can sign in from addresses of its own (X-Forwarded-For).
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '100',
    PUBLIC_URL,
    TRUST_PROXY: '127.0.0.1',
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const anon = () => new ApiClient(server.baseUrl);

/** Asks for a link for this address and returns the token from the mail's plain-text part. */
async function resetToken(email: string, after = smtp.mails.length): Promise<string> {
  const res = await anon().post('/pass/forget', { email });
  expect(res.status).toBe(200);
  const mail = await smtp.waitFor(email, (m) => smtp.mails.indexOf(m) >= after);
  const token = LINK.exec(mail.text)?.[1];
  if (!token) throw new Error(`no link in ${mail.text}`);
  return decodeURIComponent(token);
}

describe('POST /pass/forget', () => {
  it('answers a member’s address and an unknown address the same way, and mails only the member', async () => {
    const member = await registerMember(server.baseUrl);
    const unknown = `nobody-${Date.now()}@example.com`;
    const known = await anon().post('/pass/forget', { email: member.email.toUpperCase() });
    const other = await anon().post('/pass/forget', { email: unknown });
    expect(known.status).toBe(200);
    expect(other.status).toBe(200);
    expect(known.body).toEqual({ message: ACCOUNT.resetRequested });
    expect(other.body).toEqual(known.body);
    expect(known.text).not.toMatch(/not found/i);

    const mail = await smtp.waitFor(member.email);
    expect(mail.text).toMatch(LINK);
    expect(mail.text).toMatch(/15 minutes/);
    const admin = await signedInAdminClient(server.baseUrl);
    const outbox = await admin.get(`/admin/mail/outbox?to=${encodeURIComponent(unknown)}`);
    expect(outbox.body.mails).toEqual([]);
  });

  it('checks the address like sign-in does', async () => {
    const res = await anon().post('/pass/forget', { email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'email', message: AUTH.emailInvalid }]);
  });

  it('limits links per address, known or not, with 429 and Retry-After', async () => {
    const member = await registerMember(server.baseUrl);
    for (const email of [member.email, `ghost-${Date.now()}@example.com`]) {
      for (let i = 0; i < 3; i++) expect((await anon().post('/pass/forget', { email })).status).toBe(200);
      const res = await anon().post('/pass/forget', { email });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

describe('POST /pass/reset', () => {
  it('sets the new password once, ends every session, and refuses the link the second time', async () => {
    const member = await registerMember(server.baseUrl);
    const phone = new ApiClient(server.baseUrl);
    const laptop = new ApiClient(server.baseUrl);
    await phone.signIn(member);
    await laptop.signIn(member);
    const token = await resetToken(member.email);

    const res = await anon().post('/pass/reset', { token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password changed successfully' });
    expect((await phone.get('/auth/session')).status).toBe(401);
    expect((await laptop.get('/auth/session')).status).toBe(401);

    expect((await anon().post('/auth/signin', member)).status).toBe(401);
    expect((await anon().post('/auth/signin', { email: member.email, password: NEW_PASSWORD })).status).toBe(
      200,
    );

    const again = await anon().post('/pass/reset', { token, password: 'another-long-phrase-77' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: ACCOUNT.resetLinkUsed,
      errors: [{ field: 'token', message: ACCOUNT.resetLinkUsed }],
    });
    expect((await anon().post('/auth/signin', { email: member.email, password: NEW_PASSWORD })).status).toBe(
      200,
    );
  });

  it('lets the member sign in at once even after guesses from many addresses slowed the account down', async () => {
    const member = await registerMember(server.baseUrl);
    const from = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
    const wrong = { email: member.email, password: 'not-the-password-at-all' };
    let last = 0;
    for (let i = 1; i <= 11; i++) last = (await anon().post('/auth/signin', wrong, from(i))).status;
    expect(last).toBe(429);
    const slowed = await anon().post(
      '/auth/signin',
      { email: member.email, password: member.password },
      from(12),
    );
    expect(slowed.status).toBe(429);

    const token = await resetToken(member.email);
    expect((await anon().post('/pass/reset', { token, password: NEW_PASSWORD })).status).toBe(200);
    const after = await anon().post(
      '/auth/signin',
      { email: member.email, password: NEW_PASSWORD },
      from(13),
    );
    expect(after.status).toBe(200);
  });

  it('checks the new password by the registration rules and keeps the link for a better one', async () => {
    const member = await registerMember(server.baseUrl);
    const token = await resetToken(member.email);
    const short = await anon().post('/pass/reset', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([{ field: 'password', message: AUTH.passwordTooShort }]);
    const common = await anon().post('/pass/reset', { token, password: 'password1234' });
    expect(common.status).toBe(400);
    expect(common.body.errors).toEqual([{ field: 'password', message: AUTH.passwordCommon }]);
    expect((await anon().post('/pass/reset', { token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('refuses an unknown token, and an earlier link once a newer one was sent', async () => {
    const unknown = await anon().post('/pass/reset', { token: 'made-up-token', password: NEW_PASSWORD });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(ACCOUNT.resetLinkInvalid);

    const member = await registerMember(server.baseUrl);
    const first = await resetToken(member.email);
    const second = await resetToken(member.email);
    const old = await anon().post('/pass/reset', { token: first, password: NEW_PASSWORD });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe(ACCOUNT.resetLinkInvalid);
    expect((await anon().post('/pass/reset', { token: second, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('lets exactly one of two parallel resets with the same link through', async () => {
    const member = await registerMember(server.baseUrl);
    const token = await resetToken(member.email);
    const results = await Promise.all([
      anon().post('/pass/reset', { token, password: NEW_PASSWORD }),
      anon().post('/pass/reset', { token, password: 'second-racer-phrase-42' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe('an expired link', () => {
  it('is refused with a clear 400 and leaves the password alone', async () => {
    const local = await startSmtp();
    const short = await startServer({
      SMTP_URL: local.url,
      MAIL_POLL_MS: '100',
      PUBLIC_URL,
    });
    try {
      const member = await registerMember(short.baseUrl);
      await new ApiClient(short.baseUrl).post('/pass/forget', { email: member.email });
      const mail = await local.waitFor(member.email);
      const token = decodeURIComponent(LINK.exec(mail.text)?.[1] ?? '');
      await expireMailedCodes(short.db, member.email);
      const res = await new ApiClient(short.baseUrl).post('/pass/reset', { token, password: NEW_PASSWORD });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(ACCOUNT.resetLinkExpired);
      expect((await new ApiClient(short.baseUrl).post('/auth/signin', member)).status).toBe(200);
    } finally {
      await short.stop();
      await local.stop();
    }
  });
});
