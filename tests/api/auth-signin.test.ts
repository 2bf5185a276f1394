import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../src/shared/constants.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, registerMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// POST /auth/signin and /auth/adminsignin: the answer, the session cookie, the one generic refusal,
// session rotation and the per-(address, e-mail) limit on failed attempts.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const client = () => new ApiClient(server.baseUrl);
const INVALID = { message: AUTH.invalidCredentials };

/** The User fields of spec section 3, except password. */
const USER_FIELDS = [
  'id',
  'username',
  'email',
  'role',
  'status',
  'is_active',
  'roi_status',
  'level_status',
  'address',
  'business',
  'business_balance',
  'fullname',
  'phone',
  'reffer_by',
  'refferal_code',
  'last_login',
  'created_at',
  'verify_at',
  'updated_at',
  'activation_date',
  'paid_member',
  'level_month',
  'roi_day',
  'total_team',
  'bep20',
  'trc20',
];

const sidCookieLine = (headers: Headers) =>
  headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));

describe('POST /auth/signin for a member', () => {
  it('answers 200 {auth, expireAt} with every User field but the password', async () => {
    const member = await registerMember(server.baseUrl);
    const res = await client().post('/auth/signin', { email: member.email, password: member.password });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['auth', 'expireAt']);
    for (const field of USER_FIELDS) expect(res.body.auth).toHaveProperty(field);
    expect(res.text).not.toMatch(/password/i);
    expect(res.text).not.toContain('$argon2');
    expect(res.body.auth).toMatchObject({
      username: member.username,
      email: member.email,
      fullname: member.fullname,
      role: 'user',
      status: 'unblock',
      is_active: 'inactive',
      business: '0.00',
      business_balance: '0.00',
      paid_member: false,
    });
    expect(res.body.auth.id).toEqual(expect.any(String));
    expect(new Date(res.body.expireAt).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(res.body.expireAt).toISOString()).toBe(res.body.expireAt);
  });

  it('sets an httpOnly, SameSite=Lax, Path=/ session cookie that opens the session', async () => {
    const member = await registerMember(server.baseUrl);
    const c = client();
    const res = await c.post('/auth/signin', { email: member.email, password: member.password });
    const line = sidCookieLine(res.headers);
    expect(line).toBeDefined();
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\/(;|$)/i);
    expect(c.sid).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const session = await c.get('/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.auth.id).toBe(res.body.auth.id);
  });

  it('sets last_login, and accepts the e-mail in any case', async () => {
    const member = await registerMember(server.baseUrl);
    const before = await server.db
      .selectFrom('users')
      .select('last_login')
      .where('email', '=', member.email)
      .executeTakeFirstOrThrow();
    expect(before.last_login).toBeNull();

    const res = await client().post('/auth/signin', {
      email: member.email.toUpperCase(),
      password: member.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.auth.last_login).toEqual(expect.any(String));
    expect(new Date(res.body.auth.last_login).toISOString()).toBe(res.body.auth.last_login);

    const after = await server.db
      .selectFrom('users')
      .select('last_login')
      .where('email', '=', member.email)
      .executeTakeFirstOrThrow();
    expect(after.last_login).toBe(res.body.auth.last_login);
  });

  it('answers unknown e-mail, wrong password and an admin account with one identical 401', async () => {
    const member = await registerMember(server.baseUrl);
    const unknown = await client().post('/auth/signin', {
      email: 'nobody@example.com',
      password: member.password,
    });
    const wrong = await client().post('/auth/signin', {
      email: member.email,
      password: 'not-the-password-1',
    });
    const admin = await client().post('/auth/signin', ADMIN);
    for (const res of [unknown, wrong, admin]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
      expect(sidCookieLine(res.headers)).toBeUndefined();
    }
    expect(unknown.text).toBe(wrong.text);
    expect(admin.text).toBe(wrong.text);
  });

  it('answers 400 with field errors for a missing password or a malformed e-mail', async () => {
    const res = await client().post('/auth/signin', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'email', message: AUTH.emailInvalid },
        { field: 'password', message: AUTH.passwordRequired },
      ]),
    );
  });

  it('rotates the session on a second sign-in: a new sid, and the old one is dead', async () => {
    const member = await registerMember(server.baseUrl);
    const c = client();
    await c.signIn(member);
    const first = c.sid;
    await c.signIn(member);
    const second = c.sid;
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    expect((await c.get('/auth/session')).status).toBe(200);
    const old = client();
    old.cookies.set(SESSION_COOKIE, first as string);
    const res = await old.get('/auth/session');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: GENERIC.notSignedIn });
  });
});

describe('POST /auth/adminsignin', () => {
  it('answers 200 {admin, expireAt} for the admin, with a future ISO expiry and a session cookie', async () => {
    const res = await client().post('/auth/adminsignin', ADMIN);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['admin', 'expireAt']);
    expect(res.body.admin.role).toBe('admin');
    expect(res.body.admin.email).toBe(ADMIN.email);
    for (const field of USER_FIELDS) expect(res.body.admin).toHaveProperty(field);
    expect(res.text).not.toMatch(/password/i);
    expect(new Date(res.body.expireAt).toISOString()).toBe(res.body.expireAt);
    expect(new Date(res.body.expireAt).getTime()).toBeGreaterThan(Date.now());
    expect(sidCookieLine(res.headers)).toMatch(/HttpOnly/i);
  });

  it("refuses a member's right credentials and a wrong admin password with the generic 401", async () => {
    const member = await registerMember(server.baseUrl);
    const asMember = await client().post('/auth/adminsignin', member);
    const wrong = await client().post('/auth/adminsignin', { ...ADMIN, password: 'Wrong-Admin-Pass-0' });
    for (const res of [asMember, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
      expect(sidCookieLine(res.headers)).toBeUndefined();
    }
  });
});

describe('limit on failed sign-ins per address and e-mail', () => {
  it('after 5 failures answers 429 with Retry-After, even for the right password', async () => {
    const member = await registerMember(server.baseUrl);
    for (let i = 0; i < 5; i++) {
      const res = await client().post('/auth/signin', {
        email: member.email,
        password: `wrong-guess-${i}-x`,
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
    const res = await client().post('/auth/signin', { email: member.email, password: member.password });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sidCookieLine(res.headers)).toBeUndefined();
    expect(res.headers.getSetCookie().some((l) => l.startsWith(`${CSRF_COOKIE}=`))).toBe(false);
  });

  it('does not lock another member out from the same address', async () => {
    const target = await registerMember(server.baseUrl);
    const other = await registerMember(server.baseUrl);
    for (let i = 0; i < 6; i++)
      await client().post('/auth/signin', { email: target.email, password: `wrong-guess-${i}-x` });
    expect((await client().post('/auth/signin', target)).status).toBe(429);

    const wrong = await client().post('/auth/signin', { email: other.email, password: 'wrong-guess-x-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID);
    const right = await client().post('/auth/signin', { email: other.email, password: other.password });
    expect(right.status).toBe(200);
    expect(right.body.auth.email).toBe(other.email);
  });

  it('counts the e-mail whatever its case', async () => {
    const member = await registerMember(server.baseUrl);
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? member.email.toUpperCase() : member.email;
      expect((await client().post('/auth/signin', { email, password: `wrong-guess-${i}-x` })).status).toBe(
        401,
      );
    }
    expect((await client().post('/auth/signin', member)).status).toBe(429);
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const member = await registerMember(server.baseUrl);
    const fail = () => client().post('/auth/signin', { email: member.email, password: 'wrong-guess-x-9' });
    for (let i = 0; i < 4; i++) expect((await fail()).status).toBe(401);
    expect((await client().post('/auth/signin', member)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await fail()).status).toBe(401);
    expect((await client().post('/auth/signin', member)).status).toBe(200);
  });
});
