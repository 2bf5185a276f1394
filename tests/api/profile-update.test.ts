import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../../src/shared/account.ts';
import { AUTH } from '../../src/shared/messages.ts';
import { ADDRESS_MESSAGES } from '../../src/shared/payout-address.ts';
import { PROFILE } from '../../src/shared/profile.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// GET and PUT /profile (issue 14 item 3): the member's own details with sponsor and payout addresses;
// name and phone change freely, an address only with the e-mailed code (purpose address); addresses
// are checked by their checksums, and the admin's edit form uses the same rule. A refusal changes
// nothing. RULES.md: a member-saved address is usable for withdrawals 24 hours later, an admin's at once.

const BEP20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BEP20_OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BEP20_BAD_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
const TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TRC20_BAD_CHECKSUM = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u';
const DAY_MS = 24 * 60 * 60_000;

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

async function addressCode(m: Member): Promise<string> {
  const after = smtp.mails.length;
  const res = await m.client.post('/otp/send', {
    userId: m.auth.id,
    email: m.member.email,
    purpose: 'address',
  });
  expect(res.status).toBe(200);
  const mail = await smtp.waitFor(m.member.email, (x) => smtp.mails.indexOf(x) >= after);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return code;
}

const profileOf = async (m: Member) => (await m.client.get('/profile')).body.profile;
const addressOf = async (m: Member, network: 'bep20' | 'trc20') =>
  (await profileOf(m)).addresses.find((a: { network: string }) => a.network === network);
const otpError = (message: string) => ({ message, errors: [{ field: 'otp', message }] });

describe('GET /profile', () => {
  it('shows the member’s own details, sponsor, referral code, join date and addresses', async () => {
    const sponsor = await signedInMember(server.baseUrl);
    const m = await signedInMember(server.baseUrl, { reffer_by: sponsor.auth.refferal_code });
    const res = await m.client.get('/profile');
    expect(res.status).toBe(200);
    expect(res.body.profile).toEqual({
      id: m.auth.id,
      fullname: m.member.fullname,
      username: m.member.username,
      email: m.member.email,
      phone: m.member.phone,
      refferal_code: m.auth.refferal_code,
      created_at: m.auth.created_at,
      verify_at: null,
      sponsor: { fullname: sponsor.member.fullname, username: sponsor.member.username },
      addresses: [
        { network: 'bep20', address: null, changed_at: null, changed_by: null, usable_from: null },
        { network: 'trc20', address: null, changed_at: null, changed_by: null, usable_from: null },
      ],
    });
    expect((await new ApiClient(server.baseUrl).get('/profile')).status).toBe(401);
    const admin = await signedInAdminClient(server.baseUrl);
    expect((await admin.get('/profile')).status).toBe(403);
  });
});

describe('PUT /profile', () => {
  it('changes full name and phone without a code, and answers the new auth', async () => {
    const m = await signedInMember(server.baseUrl);
    const res = await m.client.put('/profile', { fullname: '  Ada Lovelace ', phone: '+44 (20) 7946-0958' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(PROFILE.updated);
    expect(res.body.auth).toMatchObject({ id: m.auth.id, fullname: 'Ada Lovelace', phone: '+442079460958' });
    expect(res.body.auth.balance).toEqual({ business: '0.00', working: '0.00' });
    expect((await m.client.get('/auth/session')).body.auth.fullname).toBe('Ada Lovelace');
  });

  it('refuses a bad name or phone on its field and changes nothing', async () => {
    const m = await signedInMember(server.baseUrl);
    const res = await m.client.put('/profile', { fullname: '  ', phone: '12' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'fullname', message: AUTH.fullnameRequired },
      { field: 'phone', message: AUTH.phoneInvalid },
    ]);
    const unknown = await m.client.put('/profile', { email: 'other@example.com' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toContainEqual({ field: 'email', message: PROFILE.unknownField });
    const empty = await m.client.put('/profile', {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(PROFILE.nothingToChange);
    const profile = await profileOf(m);
    expect(profile).toMatchObject({
      fullname: m.member.fullname,
      phone: m.member.phone,
      email: m.member.email,
    });
  });

  it('changes an address only with the right code, which then is used up', async () => {
    const m = await signedInMember(server.baseUrl);
    const none = await m.client.put('/profile', { bep20: BEP20, fullname: 'New Name' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual(otpError(PROFILE.codeNeeded));
    const code = await addressCode(m);
    const wrong = await m.client.put('/profile', {
      bep20: BEP20,
      fullname: 'New Name',
      otp: String((Number(code) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(otpError(ACCOUNT.codeWrong));
    expect(await profileOf(m)).toMatchObject({ fullname: m.member.fullname });
    expect((await addressOf(m, 'bep20')).address).toBeNull();

    const before = Date.now();
    const saved = await m.client.put('/profile', { bep20: ` ${BEP20} `, fullname: 'New Name', otp: code });
    expect(saved.status).toBe(200);
    expect(saved.body.auth).toMatchObject({ bep20: BEP20, fullname: 'New Name' });
    const bep20 = await addressOf(m, 'bep20');
    expect(bep20).toMatchObject({ address: BEP20, changed_by: 'member' });
    expect(Date.parse(bep20.changed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(bep20.usable_from) - Date.parse(bep20.changed_at)).toBe(DAY_MS);

    const reused = await m.client.put('/profile', { trc20: TRC20, otp: code });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual(otpError(PROFILE.codeUsed));
    expect((await addressOf(m, 'trc20')).address).toBeNull();

    // The same address again is no change: no code needed, and the 24 hours do not start again.
    const same = await m.client.put('/profile', { bep20: BEP20, phone: '+15550100999' });
    expect(same.status).toBe(200);
    expect((await addressOf(m, 'bep20')).changed_at).toBe(bep20.changed_at);
  });

  it('needs the code to remove an address too', async () => {
    const m = await signedInMember(server.baseUrl);
    await m.client.put('/profile', { trc20: TRC20, otp: await addressCode(m) });
    const without = await m.client.put('/profile', { trc20: '' });
    expect(without.status).toBe(400);
    expect(without.body).toEqual(otpError(PROFILE.codeNeeded));
    expect((await addressOf(m, 'trc20')).address).toBe(TRC20);
    const cleared = await m.client.put('/profile', { trc20: '', otp: await addressCode(m) });
    expect(cleared.status).toBe(200);
    expect(cleared.body.auth.trc20).toBeNull();
    expect((await addressOf(m, 'trc20')).address).toBeNull();
  });

  it('names the field of a malformed or mistyped address, before any code is tried', async () => {
    const m = await signedInMember(server.baseUrl);
    const code = await addressCode(m);
    const cases = [
      [{ bep20: BEP20_BAD_CHECKSUM }, 'bep20', ADDRESS_MESSAGES.bep20Checksum],
      [{ bep20: '0x1234' }, 'bep20', ADDRESS_MESSAGES.bep20Invalid],
      [{ trc20: TRC20_BAD_CHECKSUM }, 'trc20', ADDRESS_MESSAGES.trc20Checksum],
      [{ trc20: 'T0a2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }, 'trc20', ADDRESS_MESSAGES.trc20Invalid],
      // Base58 of the right length, but not a Tron address (version byte).
      [{ trc20: 'T111111111111111111111111111111111' }, 'trc20', ADDRESS_MESSAGES.trc20Invalid],
    ] as const;
    for (const [body, field, message] of cases) {
      const res = await m.client.put('/profile', { ...body, otp: code });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual([{ field, message }]);
    }
    // All-small and all-capital BEP20 addresses carry no checksum and are accepted; the code still works.
    const lower = await m.client.put('/profile', { bep20: BEP20.toLowerCase(), otp: code });
    expect(lower.status).toBe(200);
    expect((await addressOf(m, 'bep20')).address).toBe(BEP20.toLowerCase());
  });

  it('lets exactly one of two saves racing with one code through', async () => {
    const m = await signedInMember(server.baseUrl);
    const code = await addressCode(m);
    const [a, b] = await Promise.all([
      m.client.put('/profile', { bep20: BEP20, otp: code }),
      m.client.put('/profile', { bep20: BEP20_OTHER, otp: code }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const loser = a.status === 400 ? a : b;
    expect(loser.body).toEqual(otpError(PROFILE.codeUsed));
    const winner = a.status === 200 ? BEP20 : BEP20_OTHER;
    expect((await addressOf(m, 'bep20')).address).toBe(winner);
  });

  it('never reads or changes another member: identity comes from the session', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const aCode = await addressCode(a);
    const stolen = await b.client.put('/profile', { bep20: BEP20, otp: aCode });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual(otpError(ACCOUNT.codeMissing));
    expect((await b.client.get('/profile')).body.profile.id).toBe(b.auth.id);
    expect((await b.client.get(`/users/${a.auth.id}`)).status).toBe(404);
    // A's code is untouched by B's attempt.
    expect((await a.client.put('/profile', { bep20: BEP20, otp: aCode })).status).toBe(200);
    expect((await addressOf(b, 'bep20')).address).toBeNull();
    expect((await new ApiClient(server.baseUrl).put('/profile', { fullname: 'X' })).status).toBe(401);
  });
});

describe('an admin setting a payout address', () => {
  it('uses the same checks, and the address is usable at once', async () => {
    const m = await signedInMember(server.baseUrl);
    const admin = await signedInAdminClient(server.baseUrl);
    const bad = await admin.put(`/users/${m.auth.id}`, {
      bep20: BEP20_BAD_CHECKSUM,
      trc20: TRC20_BAD_CHECKSUM,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'bep20', message: ADDRESS_MESSAGES.bep20Checksum },
      { field: 'trc20', message: ADDRESS_MESSAGES.trc20Checksum },
    ]);
    expect((await addressOf(m, 'bep20')).address).toBeNull();

    const ok = await admin.put(`/users/${m.auth.id}`, { bep20: BEP20 });
    expect(ok.status).toBe(200);
    const bep20 = await addressOf(m, 'bep20');
    expect(bep20).toMatchObject({ address: BEP20, changed_by: 'admin' });
    expect(bep20.usable_from).toBe(bep20.changed_at);
  });
});
