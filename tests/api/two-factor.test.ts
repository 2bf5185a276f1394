import { createDecipheriv, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/server/modules/users/admins.service.ts';
import { AUTH } from '../../src/shared/messages.ts';
import { DEFAULT_SETTINGS, SETTINGS_MESSAGES } from '../../src/shared/settings.ts';
import { TWO_FACTOR } from '../../src/shared/two-factor.ts';
import { ApiClient, registerMember, signedInMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { adminTwoFactorAsDefault, adminTwoFactorOffForTests } from '../helpers/test-settings.ts';

// Two-factor sign-in (issue 14 item 4): set-up with a confirmed code, sign-in by password then
// POST /auth/otp-code, each code once, one step of clock either way, ten single-use recovery codes,
// turning off with a code, the sign-in challenge's limits, secrets sealed at rest, and the admin
// setting that requires it for admins. Codes are computed here with otpauth from the set-up's secret.

const PERIOD_MS = 30_000;
const TOTP_KEY = randomBytes(32);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TOTP_ENCRYPTION_KEY: TOTP_KEY.toString('base64') });
});
afterAll(async () => {
  await server?.stop();
});

const stepNow = () => Math.floor(Date.now() / PERIOD_MS);
const codeAt = (secret: string, step: number) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: step * PERIOD_MS,
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An authenticator as a person uses it: the code of the current step, or, when that step's code was
 * already used, the next step's (which the server's window accepts), waiting for the clock when even
 * that is used.
 */
class Authenticator {
  constructor(
    readonly secret: string,
    public lastStep: number,
  ) {}
  async next(): Promise<string> {
    const step = Math.max(stepNow(), this.lastStep + 1);
    while (step > stepNow() + 1) await sleep(250);
    this.lastStep = step;
    return codeAt(this.secret, step);
  }
}

/** Waits, if needed, until at least `ms` of the current step remain: steps computed now hold that long. */
async function awayFromStepEnd(ms: number) {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < ms) await sleep(left + 50);
}

/** Sets two-factor sign-in up for the signed-in client; answers the secret and the recovery codes. */
async function enrol(client: ApiClient) {
  const setup = await client.post('/two-factor/setup');
  expect(setup.status).toBe(200);
  const secret: string = setup.body.secret;
  const step = stepNow();
  const confirm = await client.post('/two-factor/confirm', { code: codeAt(secret, step) });
  expect(confirm.status).toBe(200);
  return { secret, app: new Authenticator(secret, step), codes: confirm.body.recovery_codes as string[] };
}

async function memberWithTwoFactor() {
  const signedIn = await signedInMember(server.baseUrl);
  return { ...signedIn, ...(await enrol(signedIn.client)) };
}

/** Password step on a fresh client: answers the client holding the challenge cookie. */
async function passwordStep(credentials: { email: string; password: string }, path = '/auth/signin') {
  const client = new ApiClient(server.baseUrl);
  const res = await client.post(path, credentials);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ otp_required: true });
  expect(client.sid).toBeUndefined();
  return client;
}

describe('setting two-factor sign-in up', () => {
  it('gives a secret and its otpauth URI, turns on only with a right code, and answers ten recovery codes once', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    expect((await client.get('/two-factor')).body).toEqual({
      enabled: false,
      required: false,
      recovery_codes_left: 0,
    });
    const none = await client.post('/two-factor/confirm', { code: '123456' });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(TWO_FACTOR.noSetup);

    const setup = await client.post('/two-factor/setup');
    expect(setup.status).toBe(200);
    const secret: string = setup.body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.body.otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Member Platform');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(uri.searchParams.get('algorithm')).toBe('SHA1');
    expect(decodeURIComponent(uri.pathname)).toContain(member.email);

    const format = await client.post('/two-factor/confirm', { code: '12ab' });
    expect(format.status).toBe(400);
    expect(format.body.errors).toEqual([{ field: 'code', message: TWO_FACTOR.totpFormat }]);
    const right = codeAt(secret, stepNow());
    const wrong = await client.post('/two-factor/confirm', {
      code: right === '000000' ? '000001' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: TWO_FACTOR.codeWrong,
      errors: [{ field: 'code', message: TWO_FACTOR.codeWrong }],
    });
    expect((await client.get('/two-factor')).body.enabled).toBe(false);

    const confirm = await client.post('/two-factor/confirm', { code: codeAt(secret, stepNow()) });
    expect(confirm.status).toBe(200);
    expect(confirm.body.message).toBe(TWO_FACTOR.turnedOn);
    const codes: string[] = confirm.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await client.get('/two-factor')).body).toEqual({
      enabled: true,
      required: false,
      recovery_codes_left: 10,
    });

    // Shown once: no call answers them again, and a second set-up is refused while it is on.
    const again = await client.post('/two-factor/setup');
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(TWO_FACTOR.alreadyOn);
    expect(again.text).not.toContain(codes[0]);
    expect((await client.post('/two-factor/confirm', { code: codeAt(secret, stepNow()) })).status).toBe(422);
  });

  it('is for the signed-in person only', async () => {
    const anonymous = new ApiClient(server.baseUrl);
    for (const path of ['/two-factor/setup', '/two-factor/confirm', '/two-factor/disable'])
      expect((await anonymous.post(path, { code: '123456' })).status).toBe(401);
    expect((await anonymous.get('/two-factor')).status).toBe(401);
  });

  it('keeps the secret sealed with AES-256-GCM under the configured key, never in clear text', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const { secret, codes } = await enrol(client);
    const row = await server.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', auth.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secret);
    expect(stored.toLowerCase()).not.toContain(secret.toLowerCase());
    // Opened here with node:crypto and the key from TOTP_ENCRYPTION_KEY: it is the secret.
    const [, iv = '', tag = '', body = ''] = String(row.secret_enc).split('.');
    const decipher = createDecipheriv('aes-256-gcm', TOTP_KEY, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(auth.id));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const opened = Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString();
    expect(opened).toBe(secret);
    const hashes = await server.db
      .selectFrom('two_factor_recovery_codes')
      .selectAll()
      .where('user_id', '=', auth.id)
      .execute();
    expect(hashes).toHaveLength(10);
    const storedCodes = JSON.stringify(hashes);
    for (const code of codes) {
      expect(storedCodes).not.toContain(code);
      expect(storedCodes).not.toContain(code.replace('-', ''));
    }
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('asks for the code after the password and answers like /auth/signin once it is right', async () => {
    const { member, app } = await memberWithTwoFactor();
    const client = await passwordStep(member);
    expect((await client.get('/auth/session')).status).toBe(401);

    const wrong = await client.post('/auth/otp-code', { code: '12345' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'code', message: TWO_FACTOR.codeFormat }]);
    const res = await client.post('/auth/otp-code', { code: await app.next() });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['auth', 'expireAt']);
    expect(res.body.auth.email).toBe(member.email);
    expect(client.sid).toBeDefined();
    const session = await client.get('/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.auth.id).toBe(res.body.auth.id);

    // The challenge made its session and is gone.
    const after = await client.post('/auth/otp-code', { code: '123456' });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe(TWO_FACTOR.challengeMissing);
  });

  it('keeps the exact sign-in answer for members without it, and a wrong password stays a 401', async () => {
    const member = await registerMember(server.baseUrl);
    const client = new ApiClient(server.baseUrl);
    const res = await client.post('/auth/signin', member);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['auth', 'expireAt']);
    const { member: withTwoFactor } = await memberWithTwoFactor();
    const bad = await new ApiClient(server.baseUrl).post('/auth/signin', {
      ...withTwoFactor,
      password: 'not-the-password-1',
    });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe(AUTH.invalidCredentials);
  });

  it('accepts a code once, even when it is sent twice at the same time', async () => {
    const { member, app } = await memberWithTwoFactor();
    const code = await app.next();
    const first = await passwordStep(member);
    expect((await first.post('/auth/otp-code', { code })).status).toBe(200);
    const replay = await passwordStep(member);
    const refused = await replay.post('/auth/otp-code', { code });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(TWO_FACTOR.codeWrong);

    // A code nobody used yet, sent by two sign-ins at once (each with its own challenge).
    const other = await memberWithTwoFactor();
    const [a, b] = await Promise.all([passwordStep(other.member), passwordStep(other.member)]);
    const parallel = await other.app.next();
    const answers = await Promise.all([
      a.post('/auth/otp-code', { code: parallel }),
      b.post('/auth/otp-code', { code: parallel }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('accepts one step of clock either way and no more', { timeout: 60_000 }, async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    const setup = await client.post('/two-factor/setup');
    const secret: string = setup.body.secret;
    await awayFromStepEnd(20_000);
    const s = stepNow();
    // One step behind (a slow phone) turns it on.
    expect((await client.post('/two-factor/confirm', { code: codeAt(secret, s - 1) })).status).toBe(200);
    const challenge = await passwordStep(member);
    for (const step of [s - 2, s + 2]) {
      const res = await challenge.post('/auth/otp-code', { code: codeAt(secret, step) });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(TWO_FACTOR.codeWrong);
    }
    // One step ahead (a fast phone) signs in.
    expect((await challenge.post('/auth/otp-code', { code: codeAt(secret, s + 1) })).status).toBe(200);
  });

  it('signs in with each recovery code once, typed in any case and with or without the dash', async () => {
    const { member, codes, client } = await memberWithTwoFactor();
    const [first = '', second = ''] = codes;
    expect((await (await passwordStep(member)).post('/auth/otp-code', { code: first })).status).toBe(200);
    const reuse = await (await passwordStep(member)).post('/auth/otp-code', { code: first });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe(TWO_FACTOR.codeWrong);
    const typed = second.replace('-', '').toUpperCase();
    expect((await (await passwordStep(member)).post('/auth/otp-code', { code: typed })).status).toBe(200);
    expect((await client.get('/two-factor')).body.recovery_codes_left).toBe(8);
    // Another member's code is no use here.
    const other = await memberWithTwoFactor();
    const foreign = await (await passwordStep(member)).post('/auth/otp-code', { code: other.codes[0] });
    expect(foreign.status).toBe(400);
  });

  it('ends the challenge after 5 wrong codes: even the right one then needs a new sign-in', async () => {
    const { member, app } = await memberWithTwoFactor();
    const client = await passwordStep(member);
    const right = await app.next();
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) {
      const res = await client.post('/auth/otp-code', { code: wrong });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(TWO_FACTOR.codeWrong);
    }
    const fifth = await client.post('/auth/otp-code', { code: wrong });
    expect(fifth.status).toBe(401);
    expect(fifth.body.message).toBe(TWO_FACTOR.challengeTooManyTries);
    const late = await client.post('/auth/otp-code', { code: right });
    expect(late.status).toBe(401);
    expect(late.body.message).toBe(TWO_FACTOR.challengeMissing);
    expect(client.sid).toBeUndefined();
    // A new sign-in starts a new challenge, and the unused code still works.
    expect((await (await passwordStep(member)).post('/auth/otp-code', { code: right })).status).toBe(200);
  });

  it('counts parallel guesses against the same 5 tries', async () => {
    const { member } = await memberWithTwoFactor();
    const client = await passwordStep(member);
    const guesses = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        client.post('/auth/otp-code', { code: `bbbbb-bbbb${'b234567ac'[i]}` }),
      ),
    );
    expect(guesses.filter((g) => g.status === 400)).toHaveLength(4);
    expect(
      guesses.filter((g) => g.body.message === TWO_FACTOR.challengeTooManyTries).length,
    ).toBeGreaterThanOrEqual(1);
    expect(guesses.every((g) => g.status === 400 || g.status === 401)).toBe(true);
  });

  it('refuses an expired challenge and a call without one', async () => {
    const { member, auth, app } = await memberWithTwoFactor();
    const client = await passwordStep(member);
    await server.db
      .updateTable('two_factor_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', auth.id)
      .execute();
    const code = await app.next();
    const expired = await client.post('/auth/otp-code', { code });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe(TWO_FACTOR.challengeMissing);
    const none = await new ApiClient(server.baseUrl).post('/auth/otp-code', { code });
    expect(none.status).toBe(401);
    expect(none.body.message).toBe(TWO_FACTOR.challengeMissing);
  });
});

describe('turning two-factor sign-in off', () => {
  it('needs a current code or a recovery code, then sign-in asks for the password only', async () => {
    const { client, member, app, codes } = await memberWithTwoFactor();
    const missing = await client.post('/two-factor/disable', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'code', message: TWO_FACTOR.codeRequired }]);
    const wrong = await client.post('/two-factor/disable', { code: 'aaaaa-aaaaa' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(TWO_FACTOR.codeWrong);
    expect((await client.get('/two-factor')).body.enabled).toBe(true);

    const off = await client.post('/two-factor/disable', { code: await app.next() });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ message: TWO_FACTOR.turnedOff });
    expect((await client.get('/two-factor')).body).toEqual({
      enabled: false,
      required: false,
      recovery_codes_left: 0,
    });
    const plain = await new ApiClient(server.baseUrl).post('/auth/signin', member);
    expect(Object.keys(plain.body).sort()).toEqual(['auth', 'expireAt']);
    const again = await client.post('/two-factor/disable', { code: codes[0] });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(TWO_FACTOR.notOn);

    // On again, and off with a recovery code.
    const second = await enrol(client);
    expect((await client.post('/two-factor/disable', { code: second.codes[3] })).status).toBe(200);
  });
});

describe('the admin setting "require two-factor sign-in for admins"', () => {
  it('checks names and values, needs the admin’s own two-factor sign-in, and then holds back admins without it', async () => {
    const second = { email: `second-${Date.now()}@example.com`, password: 'Second-Admin-Pass-2026' };
    await createAdmin(server.db, { ...second, username: `adm_${Date.now().toString(36)}` });
    const admin = new ApiClient(server.baseUrl);
    await admin.signIn(second, '/auth/adminsignin');
    expect((await admin.get('/settings')).body.settings).toMatchObject({ admin_two_factor_required: false });

    for (const body of [
      { nonsense: true },
      { admin_two_factor_required: 'yes' },
      {},
      { admin_two_factor_required: true, other: 1 },
    ]) {
      const res = await admin.put('/settings', body);
      expect(res.status).toBe(400);
    }
    const unknown = await admin.put('/settings', { nonsense: true });
    expect(unknown.body.errors).toEqual([{ field: 'nonsense', message: SETTINGS_MESSAGES.unknownName }]);
    expect((await admin.put('/settings', { admin_two_factor_required: 'yes' })).body.message).toBe(
      SETTINGS_MESSAGES.booleanValue,
    );
    const without = await admin.put('/settings', { admin_two_factor_required: true });
    expect(without.status).toBe(422);
    expect(without.body.message).toBe(TWO_FACTOR.settingNeedsOwn);
    expect((await admin.get('/settings')).body.settings.admin_two_factor_required).toBe(false);

    const { client: memberClient } = await signedInMember(server.baseUrl);
    expect((await memberClient.get('/settings')).status).toBe(403);
    expect((await memberClient.put('/settings', { admin_two_factor_required: false })).status).toBe(403);

    const own = await enrol(admin);
    const on = await admin.put('/settings', { admin_two_factor_required: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({
      message: SETTINGS_MESSAGES.saved,
      settings: expect.objectContaining({ admin_two_factor_required: true }),
    });
    const audit = await admin.get('/audit');
    const entry = audit.body.entries.find((e: { action: string }) => e.action === 'settings.update');
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).toContain('admin_two_factor_required');
    // Turning one's own off while it is required would leave no way back in: refused.
    const offOwn = await admin.post('/two-factor/disable', { code: await own.app.next() });
    expect(offOwn.status).toBe(422);
    expect(offOwn.body.message).toBe(TWO_FACTOR.adminCannotTurnOff);

    // The root admin has none: signs in with the password, but may only set it up.
    const root = new ApiClient(server.baseUrl);
    const signIn = await root.post('/auth/adminsignin', ADMIN);
    expect(Object.keys(signIn.body).sort()).toEqual(['admin', 'expireAt']);
    expect((await root.get('/auth/session')).status).toBe(200);
    expect((await root.get('/two-factor')).body).toEqual({
      enabled: false,
      required: true,
      recovery_codes_left: 0,
    });
    for (const [method, path, body] of [
      ['GET', '/audit', undefined],
      ['GET', '/users', undefined],
      ['GET', '/settings', undefined],
      ['PUT', '/settings', { admin_two_factor_required: false }],
      ['PUT', '/settings', { nonsense: 1 }],
    ] as const) {
      const res = await root.request(method, path, { body });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(TWO_FACTOR.requiredForAdmins);
    }
    const rootTwoFactor = await enrol(root);
    expect((await root.get('/audit')).status).toBe(200);

    // Admin sign-in now asks for the code too, and answers like /auth/adminsignin.
    const challenge = await passwordStep(ADMIN, '/auth/adminsignin');
    const res = await challenge.post('/auth/otp-code', { code: await rootTwoFactor.app.next() });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['admin', 'expireAt']);
    expect((await challenge.get('/settings')).status).toBe(200);

    // Back as found: the setting off (audited), then both admins' two-factor sign-in off.
    expect((await admin.put('/settings', { admin_two_factor_required: false })).status).toBe(200);
    expect((await root.post('/two-factor/disable', { code: rootTwoFactor.codes[0] })).status).toBe(200);
    expect((await admin.post('/two-factor/disable', { code: own.codes[0] })).status).toBe(200);
  });
});

describe('two-factor sign-in for admins by default', () => {
  it('is required where no admin changed the setting: a new admin must set it up at first sign-in', async () => {
    expect(DEFAULT_SETTINGS.admin_two_factor_required).toBe(true);
    // The test servers turn the setting off in one place (tests/helpers/test-settings.ts): back to the
    // default for this test, as a deployment that never changed it, and off again whatever happens.
    await adminTwoFactorAsDefault(server.db);
    try {
      const fresh = { email: `fresh-${Date.now()}@example.com`, password: 'Fresh-Admin-Pass-2026' };
      await createAdmin(server.db, { ...fresh, username: `fresh_${Date.now().toString(36)}` });
      const admin = new ApiClient(server.baseUrl);
      const signIn = await admin.signIn(fresh, '/auth/adminsignin');
      expect(Object.keys(signIn.body).sort()).toEqual(['admin', 'expireAt']);
      expect((await admin.get('/two-factor')).body).toEqual({
        enabled: false,
        required: true,
        recovery_codes_left: 0,
      });
      for (const path of ['/users', '/settings', '/audit']) {
        const res = await admin.get(path);
        expect(res.status).toBe(403);
        expect(res.body.message).toBe(TWO_FACTOR.requiredForAdmins);
      }
      const own = await enrol(admin);
      const settings = await admin.get('/settings');
      expect(settings.status).toBe(200);
      expect(settings.body.settings.admin_two_factor_required).toBe(true);
      expect((await admin.get('/audit')).status).toBe(200);

      // From now on this admin signs in with the password and then a code.
      const challenge = await passwordStep(fresh, '/auth/adminsignin');
      const res = await challenge.post('/auth/otp-code', { code: await own.app.next() });
      expect(res.status).toBe(200);
      expect((await challenge.get('/audit')).status).toBe(200);
    } finally {
      await adminTwoFactorOffForTests(server.db);
    }
  });
});
