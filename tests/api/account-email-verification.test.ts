import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../../src/shared/account.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { expireMailedCodes } from '../helpers/mailed-codes.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// POST /auth/email-verification and /auth/verify-user (issue 14 item 2): a 6-digit code by e-mail,
// at most 5 tries, a new code replacing the old, at most 5 sends an hour, verify_at set on success.

let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Sends a code to the signed-in member and reads it from the mail's plain-text part. */
async function sendCode(client: ApiClient, email: string): Promise<string> {
  const after = smtp.mails.length;
  const res = await client.post('/auth/email-verification');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: ACCOUNT.codeSent });
  const mail = await smtp.waitFor(email, (m) => smtp.mails.indexOf(m) >= after);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return code;
}

const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('e-mail verification', () => {
  it('verifies the address with the mailed code and shows verify_at', async () => {
    const { client, member, auth } = await signedInMember(server.baseUrl);
    expect(auth.verify_at).toBeNull();
    const code = await sendCode(client, member.email);
    const res = await client.post('/auth/verify-user', { otp: code });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: ACCOUNT.emailVerified });
    const session = await client.get('/auth/session');
    expect(Date.parse(session.body.auth.verify_at)).toBeGreaterThan(0);

    const again = await client.post('/auth/verify-user', { otp: code });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(ACCOUNT.alreadyVerified);
    expect((await client.post('/auth/email-verification')).status).toBe(422);
  });

  it('says a wrong code is wrong, and refuses even the right one after 5 wrong tries', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    const code = await sendCode(client, member.email);
    const format = await client.post('/auth/verify-user', { otp: '12ab' });
    expect(format.status).toBe(400);
    expect(format.body.errors).toEqual([{ field: 'otp', message: ACCOUNT.codeFormat }]);
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post('/auth/verify-user', { otp: otherThan(code) });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({
        message: ACCOUNT.codeWrong,
        errors: [{ field: 'otp', message: ACCOUNT.codeWrong }],
      });
    }
    const right = await client.post('/auth/verify-user', { otp: code });
    expect(right.status).toBe(400);
    expect(right.body.message).toBe(ACCOUNT.codeTooManyTries);
    expect((await client.get('/auth/session')).body.auth.verify_at).toBeNull();

    // A new code starts again with 5 tries.
    const fresh = await sendCode(client, member.email);
    expect((await client.post('/auth/verify-user', { otp: fresh })).status).toBe(200);
  });

  it('counts parallel guesses against the same 5 tries', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    const code = await sendCode(client, member.email);
    const guesses = await Promise.all(
      Array.from({ length: 12 }, () => client.post('/auth/verify-user', { otp: otherThan(code) })),
    );
    expect(guesses.filter((g) => g.body.message === ACCOUNT.codeWrong)).toHaveLength(5);
    expect(guesses.filter((g) => g.body.message === ACCOUNT.codeTooManyTries)).toHaveLength(7);
  });

  it('replaces the old code with a new one, and limits sends to 5 an hour (429 with Retry-After)', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    const first = await sendCode(client, member.email);
    const second = await sendCode(client, member.email);
    // Two random 6-digit codes are equal once in a million runs.
    expect(second).not.toBe(first);
    const old = await client.post('/auth/verify-user', { otp: first });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe(ACCOUNT.codeWrong);
    for (let i = 0; i < 3; i++) expect((await client.post('/auth/email-verification')).status).toBe(200);
    const res = await client.post('/auth/email-verification');
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const admin = await signedInAdminClient(server.baseUrl);
    const outbox = await admin.get(`/admin/mail/outbox?to=${encodeURIComponent(member.email)}`);
    expect(outbox.body.mails).toHaveLength(5);
  });

  it('asks for a code before checking one, and is for members only', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const none = await client.post('/auth/verify-user', { otp: '123456' });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(ACCOUNT.codeMissing);
    expect((await new ApiClient(server.baseUrl).post('/auth/email-verification')).status).toBe(401);
    const admin = await signedInAdminClient(server.baseUrl);
    expect((await admin.post('/auth/email-verification')).status).toBe(403);
  });
});

describe('an expired code', () => {
  it('is refused with a clear 400', async () => {
    const short = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
    try {
      const { client, member } = await signedInMember(short.baseUrl);
      const after = smtp.mails.length;
      expect((await client.post('/auth/email-verification')).status).toBe(200);
      const mail = await smtp.waitFor(member.email, (m) => smtp.mails.indexOf(m) >= after);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
      await expireMailedCodes(short.db, member.email);
      const res = await client.post('/auth/verify-user', { otp: code });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(ACCOUNT.codeExpired);
    } finally {
      await short.stop();
    }
  });
});
