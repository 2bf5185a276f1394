import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../../src/shared/account.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { MAIL_TEXT_OTP, PROFILE } from '../../src/shared/profile.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { expireMailedCodes } from '../helpers/mailed-codes.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// POST /otp/send and /otp/verify (issue 14, API.md "Mail and one-time codes"): a 6-digit code mailed
// over SMTP for purpose address or withdrawal, only to the signed-in member, replaced by a newer one,
// valid 15 minutes (the default lifetime setting), at most 5 wrong tries, at most 5 sends an hour per member and 20 per client
// address; verify checks without using the code up, the guarded call (PUT /profile) uses it.
// Sends from this file's one address stay under 20: the per-address limit has a server of its own.

const BEP20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

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

type Member = Awaited<ReturnType<typeof signedInMember>>;

/** Asks for a code and reads it from the mail's plain-text part, as the member would. */
async function sendCode(smtpServer: TestSmtp, m: Member, purpose: 'address' | 'withdrawal' = 'address') {
  const after = smtpServer.mails.length;
  const res = await m.client.post('/otp/send', { userId: m.auth.id, email: m.member.email, purpose });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: ACCOUNT.codeSent });
  // The code's own mail: the member's other mails (the e-mail check sent on registering) may still be
  // on their way, and hold a 6-digit code too.
  const subject = purpose === 'address' ? MAIL_TEXT_OTP.addressSubject : MAIL_TEXT_OTP.withdrawalSubject;
  const mail = await smtpServer.waitFor(
    m.member.email,
    (x) => smtpServer.mails.indexOf(x) >= after && x.subject === subject,
  );
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return { code, mail };
}

const verify = (m: Member, otp: string, purpose = 'address') =>
  m.client.post('/otp/verify', { userId: m.auth.id, otp, purpose });
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const otpError = (message: string) => ({ message, errors: [{ field: 'otp', message }] });

describe('POST /otp/send and /otp/verify', () => {
  it('mails a 6-digit code for the purpose, and verify accepts it without using it up', async () => {
    const m = await signedInMember(server.baseUrl);
    const { code, mail } = await sendCode(smtp, m);
    expect(mail.subject).toBe(MAIL_TEXT_OTP.addressSubject);
    expect(mail.text).toContain(MAIL_TEXT_OTP.addressIntro);
    expect(mail.text).toContain('15 minutes');
    for (let i = 0; i < 2; i++) {
      const res = await verify(m, code);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: PROFILE.codeRight });
    }
    // Right codes do not use up the 5 tries: the guarded call still takes it.
    for (let i = 0; i < 5; i++) expect((await verify(m, code)).status).toBe(200);
    const saved = await m.client.put('/profile', { bep20: BEP20, otp: code });
    expect(saved.status).toBe(200);
  });

  it('refuses another member’s id or e-mail (403), bad input (400), the signed-out (401) and admins (403)', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const sent = smtp.mails.length;
    const asOther = await a.client.post('/otp/send', {
      userId: b.auth.id,
      email: a.member.email,
      purpose: 'address',
    });
    expect(asOther.status).toBe(403);
    expect(asOther.body).toEqual({ message: PROFILE.notYours });
    const otherMail = await a.client.post('/otp/send', {
      userId: a.auth.id,
      email: b.member.email,
      purpose: 'address',
    });
    expect(otherMail.status).toBe(403);
    const verifyOther = await a.client.post('/otp/verify', {
      userId: b.auth.id,
      otp: '123456',
      purpose: 'address',
    });
    expect(verifyOther.status).toBe(403);

    const purpose = await a.client.post('/otp/send', {
      userId: a.auth.id,
      email: a.member.email,
      purpose: 'login',
    });
    expect(purpose.status).toBe(400);
    expect(purpose.body.errors).toEqual([{ field: 'purpose', message: PROFILE.purposeInvalid }]);
    const format = await a.client.post('/otp/verify', { userId: a.auth.id, otp: '12ab', purpose: 'address' });
    expect(format.status).toBe(400);
    expect(format.body.errors).toEqual([{ field: 'otp', message: ACCOUNT.codeFormat }]);

    const anonymous = new ApiClient(server.baseUrl);
    const body = { userId: a.auth.id, email: a.member.email, purpose: 'address' };
    expect((await anonymous.post('/otp/send', body)).status).toBe(401);
    const admin = await signedInAdminClient(server.baseUrl);
    expect((await admin.post('/otp/send', body)).status).toBe(403);
    expect(smtp.mails.length).toBe(sent);
  });

  it('keeps purposes apart: an address code is no withdrawal code', async () => {
    const m = await signedInMember(server.baseUrl);
    const address = await sendCode(smtp, m, 'address');
    const none = await verify(m, address.code, 'withdrawal');
    expect(none.status).toBe(400);
    expect(none.body).toEqual(otpError(ACCOUNT.codeMissing));
    const withdrawal = await sendCode(smtp, m, 'withdrawal');
    expect(withdrawal.mail.subject).toBe(MAIL_TEXT_OTP.withdrawalSubject);
    expect((await verify(m, withdrawal.code, 'withdrawal')).status).toBe(200);
    // The withdrawal code did not replace the address code.
    expect((await verify(m, address.code, 'address')).status).toBe(200);
  });

  it('replaces the old code with a new one', async () => {
    const m = await signedInMember(server.baseUrl);
    const first = await sendCode(smtp, m);
    const second = await sendCode(smtp, m);
    // Two random 6-digit codes are equal once in a million runs.
    expect(second.code).not.toBe(first.code);
    const old = await verify(m, first.code);
    expect(old.status).toBe(400);
    expect(old.body).toEqual(otpError(ACCOUNT.codeWrong));
    expect((await verify(m, second.code)).status).toBe(200);
  });

  it('allows 5 wrong tries per code, counted atomically, then refuses even the right one', async () => {
    const m = await signedInMember(server.baseUrl);
    const { code } = await sendCode(smtp, m);
    const guesses = await Promise.all(Array.from({ length: 8 }, () => verify(m, otherThan(code))));
    expect(guesses.every((g) => g.status === 400)).toBe(true);
    expect(guesses.filter((g) => g.body.message === ACCOUNT.codeWrong)).toHaveLength(5);
    expect(guesses.filter((g) => g.body.message === ACCOUNT.codeTooManyTries)).toHaveLength(3);
    const right = await verify(m, code);
    expect(right.status).toBe(400);
    expect(right.body).toEqual(otpError(ACCOUNT.codeTooManyTries));
    const put = await m.client.put('/profile', { trc20: TRC20, otp: code });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe(ACCOUNT.codeTooManyTries);
    expect((await m.client.get('/profile')).body.profile.addresses[1].address).toBeNull();
  });

  it('says a used code is used', async () => {
    const m = await signedInMember(server.baseUrl);
    const { code } = await sendCode(smtp, m);
    expect((await m.client.put('/profile', { bep20: BEP20, otp: code })).status).toBe(200);
    const again = await verify(m, code);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(otpError(PROFILE.codeUsed));
    const reuse = await m.client.put('/profile', { trc20: TRC20, otp: code });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual(otpError(PROFILE.codeUsed));
  });

  it('asks for a code before checking one', async () => {
    const m = await signedInMember(server.baseUrl);
    const res = await verify(m, '123456');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(otpError(ACCOUNT.codeMissing));
  });

  it('sends at most 5 codes an hour per member, whatever the purpose (429 with Retry-After)', async () => {
    const m = await signedInMember(server.baseUrl);
    for (let i = 0; i < 3; i++) await sendCode(smtp, m, 'address');
    for (let i = 0; i < 2; i++) await sendCode(smtp, m, 'withdrawal');
    const sent = smtp.mails.length;
    const res = await m.client.post('/otp/send', {
      userId: m.auth.id,
      email: m.member.email,
      purpose: 'address',
    });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const admin = await signedInAdminClient(server.baseUrl);
    const outbox = await admin.get(`/admin/mail/outbox?to=${encodeURIComponent(m.member.email)}`);
    expect(outbox.body.mails).toHaveLength(5);
    expect(smtp.mails.length).toBe(sent);
  });
});

describe('an expired code', () => {
  it('is refused with a clear 400 by verify and by the guarded call', async () => {
    const short = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
    try {
      const m = await signedInMember(short.baseUrl);
      const { code } = await sendCode(smtp, m);
      await expireMailedCodes(short.db, m.member.email);
      const res = await verify(m, code);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(otpError(ACCOUNT.codeExpired));
      const put = await m.client.put('/profile', { bep20: BEP20, otp: code });
      expect(put.status).toBe(400);
      expect(put.body).toEqual(otpError(ACCOUNT.codeExpired));
    } finally {
      await short.stop();
    }
  });
});

describe('the per-address send limit', () => {
  it('sends at most 20 code mails an hour from one client address, whichever members ask, for any purpose', async () => {
    // Behind one trusted proxy, X-Forwarded-For names the client; no mails need reading here.
    const proxied = await startServer({ TRUST_PROXY: '1' });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const ask = (m: Member, ip: string) =>
        m.client.post(
          '/otp/send',
          { userId: m.auth.id, email: m.member.email, purpose: 'address' },
          from(ip),
        );
      for (let i = 0; i < 4; i++) {
        const m = await signedInMember(proxied.baseUrl);
        for (let j = 0; j < 5; j++) expect((await ask(m, '203.0.113.7')).status).toBe(200);
      }
      const fifth = await signedInMember(proxied.baseUrl);
      const res = await ask(fifth, '203.0.113.7');
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // The same member from another address is not held back by the first address's sends.
      expect((await ask(fifth, '198.51.100.9')).status).toBe(200);
      // E-mail verification codes share the address's budget: a sixth member there is held back too.
      const verifying = await fifth.client.post('/auth/email-verification', undefined, from('203.0.113.7'));
      expect(verifying.status).toBe(429);
      expect(Number(verifying.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(
        (await fifth.client.post('/auth/email-verification', undefined, from('198.51.100.10'))).status,
      ).toBe(200);
    } finally {
      await proxied.stop();
    }
  });
});
