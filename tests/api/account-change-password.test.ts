import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, MAIL_TEXT } from '../../src/shared/account.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, newMember, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// POST /auth/change-password: a signed-in member changes their password. The current one is checked
// (a few tries a quarter hour), the new one follows the registration rules; every other session ends,
// this one stays, an unused reset link stops working, and a mail tells the member.

const PUBLIC_URL = 'http://members.example.test:8443';
const NEW_PASSWORD = 'saffron-kettle-meadow-47';

let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    PUBLIC_URL,
    TRUST_PROXY: '127.0.0.1',
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const anon = () => new ApiClient(server.baseUrl);
let addresses = 0;
/** Each member from an address of its own, so no test shares another's sign-in limits. */
const from = () => ({ 'X-Forwarded-For': `203.0.113.${++addresses}` });

describe('POST /auth/change-password', () => {
  it('changes the password, keeps this session, ends the others, and mails the member', async () => {
    const headers = from();
    const { member, client } = await signedInMember(server.baseUrl, {}, headers);
    const otherDevice = new ApiClient(server.baseUrl);
    await otherDevice.signIn(member, '/auth/signin', headers);
    expect((await otherDevice.get('/auth/session')).status).toBe(200);
    // A reset link asked for earlier.
    expect((await anon().post('/pass/forget', { email: member.email })).status).toBe(200);
    const resetMail = await smtp.waitFor(member.email, (m) => m.subject === MAIL_TEXT.resetSubject);
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(resetMail.text)?.[1] ?? '');

    const res = await client.post(
      '/auth/change-password',
      { current_password: member.password, password: NEW_PASSWORD },
      { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 7) Chrome/131.0 Mobile Safari/537.36' },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: ACCOUNT.passwordChanged });

    expect((await client.get('/auth/session')).status).toBe(200);
    expect((await otherDevice.get('/auth/session')).status).toBe(401);
    const old = await anon().post('/auth/signin', { email: member.email, password: member.password }, from());
    expect(old.status).toBe(401);
    const fresh = await anon().post('/auth/signin', { email: member.email, password: NEW_PASSWORD }, from());
    expect(fresh.status).toBe(200);
    const reset = await anon().post('/pass/reset', { token, password: 'another-brand-new-pass-12' });
    expect(reset.status).toBe(400);

    const mail = await smtp.waitFor(member.email, (m) => m.subject === MAIL_TEXT.changedSubject);
    expect(mail.text).toContain('Chrome on Android');
    expect(mail.text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(mail.text).toContain(`${PUBLIC_URL}/forgot-password`);
    expect(mail.text).not.toContain(NEW_PASSWORD);
  });

  it('refuses a wrong current password, and changes nothing', async () => {
    const headers = from();
    const { member, client } = await signedInMember(server.baseUrl, {}, headers);
    const otherDevice = new ApiClient(server.baseUrl);
    await otherDevice.signIn(member, '/auth/signin', headers);
    const res = await client.post('/auth/change-password', {
      current_password: `${member.password}x`,
      password: NEW_PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'current_password', message: ACCOUNT.currentPasswordWrong }]);
    expect((await otherDevice.get('/auth/session')).status).toBe(200);
    const signIn = await anon().post(
      '/auth/signin',
      { email: member.email, password: member.password },
      from(),
    );
    expect(signIn.status).toBe(200);
  });

  it('holds the new password to the registration rules, and refuses the same password', async () => {
    const { member, client } = await signedInMember(server.baseUrl, {}, from());
    const cases: [unknown, string, string][] = [
      [{ current_password: member.password, password: 'short' }, 'password', AUTH.passwordTooShort],
      [{ current_password: member.password, password: 'password123' }, 'password', AUTH.passwordCommon],
      [
        { current_password: member.password, password: member.password },
        'password',
        ACCOUNT.passwordUnchanged,
      ],
      [{ password: NEW_PASSWORD }, 'current_password', ACCOUNT.currentPasswordRequired],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.post('/auth/change-password', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toContainEqual({ field, message });
    }
    const signIn = await anon().post(
      '/auth/signin',
      { email: member.email, password: member.password },
      from(),
    );
    expect(signIn.status).toBe(200);
  });

  it('allows 5 tries a quarter hour, then answers 429 with Retry-After, even with the right password', async () => {
    const { member, client } = await signedInMember(server.baseUrl, {}, from());
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post('/auth/change-password', {
        current_password: `nope-${i}`,
        password: NEW_PASSWORD,
      });
      expect(wrong.status).toBe(400);
    }
    const res = await client.post('/auth/change-password', {
      current_password: member.password,
      password: NEW_PASSWORD,
    });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is for a signed-in member only, and needs the CSRF token', async () => {
    const body = { current_password: 'whatever-it-is-1', password: NEW_PASSWORD };
    expect((await anon().post('/auth/change-password', body)).status).toBe(401);
    const { member, client } = await signedInMember(server.baseUrl, newMember(), from());
    const noToken = await client.request('POST', '/auth/change-password', {
      body: { current_password: member.password, password: NEW_PASSWORD },
      csrf: false,
    });
    expect(noToken.status).toBe(403);
  });
});
