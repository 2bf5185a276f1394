import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, signedInMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// GET /auth/session, sign-out, and the ways a session ends on the server: sign-out, blocking, expiry.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const NOT_SIGNED_IN = { message: GENERIC.notSignedIn };

/** A fresh client that sends nothing but the given session cookie value. */
const withSid = (sid: string | undefined) => {
  const c = new ApiClient(server.baseUrl);
  if (!sid) throw new Error('no session cookie to replay');
  c.cookies.set(SESSION_COOKIE, sid);
  return c;
};

const signedInAdmin = async () => {
  const client = new ApiClient(server.baseUrl);
  const res = await client.signIn(ADMIN, '/auth/adminsignin');
  return { client, admin: res.body.admin, expireAt: res.body.expireAt as string };
};

describe('GET /auth/session', () => {
  it('answers 401 without a session, and with a made-up session cookie', async () => {
    const none = await new ApiClient(server.baseUrl).get('/auth/session');
    expect(none.status).toBe(401);
    expect(none.body).toEqual(NOT_SIGNED_IN);
    const forged = await withSid('x'.repeat(43)).get('/auth/session');
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual(NOT_SIGNED_IN);
  });

  it('answers {auth, expireAt} for a member, the same as sign-in gave', async () => {
    const { client, auth, expireAt } = await signedInMember(server.baseUrl);
    const res = await client.get('/auth/session');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['auth', 'expireAt']);
    expect(res.body.auth).toEqual(auth);
    expect(res.body.expireAt).toBe(expireAt);
    expect(res.text).not.toMatch(/password/i);
  });

  it('answers {admin, expireAt} for an admin', async () => {
    const { client, admin, expireAt } = await signedInAdmin();
    const res = await client.get('/auth/session');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['admin', 'expireAt']);
    expect(res.body.admin.id).toBe(admin.id);
    expect(res.body.admin.role).toBe('admin');
    expect(res.body.expireAt).toBe(expireAt);
  });
});

describe('sign-out ends the session on the server', () => {
  it('POST /auth/signout: 200 {message}, the cookie is cleared, and the old sid value gets 401', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const sid = client.sid;
    const res = await client.post('/auth/signout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: AUTH.signedOut });
    expect(client.sid).toBeUndefined();

    const replay = await withSid(sid).get('/auth/session');
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(NOT_SIGNED_IN);
  });

  it('POST /auth/signoutadmin: 200 {message}, and the old admin sid value gets 401', async () => {
    const { client } = await signedInAdmin();
    const sid = client.sid;
    expect((await withSid(sid).get('/auth/session')).status).toBe(200);
    const res = await client.post('/auth/signoutadmin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: AUTH.signedOut });

    const replay = await withSid(sid).get('/auth/session');
    expect(replay.status).toBe(401);
    expect((await withSid(sid).get('/users/counts')).status).toBe(401);
  });

  it('ends only the session signed out, not the same member on another device', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    const phone = new ApiClient(server.baseUrl);
    await phone.signIn(member);
    await client.post('/auth/signout');
    expect((await client.get('/auth/session')).status).toBe(401);
    expect((await phone.get('/auth/session')).status).toBe(200);
  });

  it('answers a sign-out without a session with 200 too', async () => {
    const res = await new ApiClient(server.baseUrl).post('/auth/signout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: AUTH.signedOut });
  });
});

describe('a blocked member', () => {
  it('loses an open session at once, and cannot sign in again', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    expect((await client.get('/auth/session')).status).toBe(200);
    await server.db.updateTable('users').set({ status: 'block' }).where('email', '=', member.email).execute();

    const session = await client.get('/auth/session');
    expect(session.status).toBe(401);
    expect(session.body).toEqual(NOT_SIGNED_IN);

    const right = await new ApiClient(server.baseUrl).post('/auth/signin', member);
    expect(right.status).toBe(403);
    expect(right.body).toEqual({ message: AUTH.blocked });
    expect(right.headers.getSetCookie().some((l) => l.startsWith(`${SESSION_COOKIE}=`))).toBe(false);

    const wrong = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: member.email,
      password: 'not-the-password-1',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: AUTH.invalidCredentials });
  });

  it('can sign in again once unblocked (the block, not the test, caused the refusals)', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    await server.db.updateTable('users').set({ status: 'block' }).where('email', '=', member.email).execute();
    expect((await client.get('/auth/session')).status).toBe(401);
    await server.db
      .updateTable('users')
      .set({ status: 'unblock' })
      .where('email', '=', member.email)
      .execute();
    const again = await new ApiClient(server.baseUrl).post('/auth/signin', member);
    expect(again.status).toBe(200);
  });

  it('has every session ended, not merely hidden: unblocking does not revive an old cookie', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    const phone = new ApiClient(server.baseUrl);
    await phone.signIn(member);
    await server.db.updateTable('users').set({ status: 'block' }).where('email', '=', member.email).execute();
    expect((await client.get('/auth/session')).status).toBe(401);
    const owner = await server.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', member.email)
      .executeTakeFirstOrThrow();
    const left = await server.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', owner.id)
      .execute();
    expect(left).toEqual([]);

    await server.db
      .updateTable('users')
      .set({ status: 'unblock' })
      .where('email', '=', member.email)
      .execute();
    expect((await client.get('/auth/session')).status).toBe(401);
    expect((await phone.get('/auth/session')).status).toBe(401);
  });
});

describe('an expired session', () => {
  it('answers 401 once expires_at has passed', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    expect((await client.get('/auth/session')).status).toBe(200);
    await server.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('user_id', '=', auth.id)
      .execute();
    const res = await client.get('/auth/session');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_SIGNED_IN);
  });
});

describe('access by role', () => {
  it("keeps a member's session out of admin-only calls with 403", async () => {
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.get('/users/counts');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: GENERIC.forbidden });
  });
});
