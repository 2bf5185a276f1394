import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/shared/constants.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, newMember, registerMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Signed double-submit CSRF (API.md "Conventions"): every call but GET/HEAD/OPTIONS sends the
// XSRF-TOKEN cookie's value in X-XSRF-TOKEN; the token is bound to the (pre-)session it was issued to.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const CSRF_REFUSAL = { message: GENERIC.csrf, error: 'csrf' };
const client = () => new ApiClient(server.baseUrl);

/** A client that already holds a CSRF token (and the pre-session it is bound to). */
const primed = async () => {
  const c = client();
  const res = await c.get('/auth/csrf');
  expect(res.status).toBe(200);
  return c;
};

/** POST with exactly the given token header (or none), and whatever cookies the client holds. */
const postWith = (c: ApiClient, path: string, body: unknown, token?: string) =>
  c.request('POST', path, {
    body,
    csrf: false,
    headers: token === undefined ? {} : { [CSRF_HEADER]: token },
  });

describe('GET /auth/csrf', () => {
  it('returns {csrfToken} equal to a readable (not httpOnly) XSRF-TOKEN cookie', async () => {
    const c = client();
    const res = await c.get('/auth/csrf');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['csrfToken']);
    expect(res.body.csrfToken).toEqual(expect.any(String));
    expect(res.body.csrfToken.length).toBeGreaterThan(20);
    expect(c.csrfToken).toBe(res.body.csrfToken);
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${CSRF_COOKIE}=`));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/HttpOnly/i);
    expect(line).toMatch(/;\s*Path=\/(;|$)/i);
  });
});

describe('a state-changing call', () => {
  it('succeeds with the token in cookie and header (the control for the refusals below)', async () => {
    const c = await primed();
    const res = await postWith(c, '/auth/register', newMember(), c.csrfToken);
    expect(res.status).toBe(201);
  });

  it('is refused with 403 without the header, and nothing happens', async () => {
    const c = await primed();
    const member = newMember();
    const res = await postWith(c, '/auth/register', member);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_REFUSAL);
    expect((await client().post('/auth/register', member)).status).toBe(201);
  });

  it('is refused with 403 with neither cookie nor header', async () => {
    const res = await postWith(client(), '/auth/signin', {
      email: 'a@example.com',
      password: 'whatever-123',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_REFUSAL);
  });

  it('is refused with 403 before validation: an invalid body without a token is 403, not 400', async () => {
    const c = await primed();
    const res = await postWith(c, '/auth/register', { username: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_REFUSAL);
    expect(res.body.errors).toBeUndefined();
  });

  it('is refused with 403 before the body is even read: malformed JSON without a token is 403', async () => {
    const c = await primed();
    const res = await postWith(c, '/auth/signin', '{"email":');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_REFUSAL);
  });

  it('is refused with 403 when the header differs from the cookie', async () => {
    const c = await primed();
    const token = c.csrfToken as string;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const res = await postWith(c, '/auth/register', newMember(), altered);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_REFUSAL);

    const other = await primed();
    const res2 = await postWith(c, '/auth/register', newMember(), other.csrfToken);
    expect(res2.status).toBe(403);
  });

  it("is refused with 403 for another client's token, even with the cookie set to match", async () => {
    const victim = await primed();
    const attacker = await primed();
    const stolen = attacker.csrfToken as string;
    victim.cookies.set(CSRF_COOKIE, stolen);
    const res = await postWith(victim, '/auth/register', newMember(), stolen);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_REFUSAL);
  });

  it('is refused for a token that is not signed by the server', async () => {
    const c = await primed();
    const forged = 'bm9uY2Vub25jZW5vbmNl.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl';
    c.cookies.set(CSRF_COOKIE, forged);
    const res = await postWith(c, '/auth/register', newMember(), forged);
    expect(res.status).toBe(403);
  });
});

describe('the token across sign-in and sign-out', () => {
  it('a token from before sign-in stops working; the one set by the sign-in response works', async () => {
    const member = await registerMember(server.baseUrl);
    const c = await primed();
    const before = c.csrfToken as string;
    const signIn = await c.post('/auth/signin', member);
    expect(signIn.status).toBe(200);
    const after = c.csrfToken as string;
    expect(signIn.headers.getSetCookie().some((l) => l.startsWith(`${CSRF_COOKIE}=${after}`))).toBe(true);
    expect(after).not.toBe(before);

    c.cookies.set(CSRF_COOKIE, before);
    const stale = await postWith(c, '/auth/signin', member, before);
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual(CSRF_REFUSAL);

    c.cookies.set(CSRF_COOKIE, after);
    const fresh = await postWith(c, '/auth/signin', member, after);
    expect(fresh.status).toBe(200);
  });

  it('GET /auth/csrf while signed in issues a token bound to the session', async () => {
    const member = await registerMember(server.baseUrl);
    const c = client();
    await c.signIn(member);
    const res = await c.get('/auth/csrf');
    expect(res.body.csrfToken).toBe(c.csrfToken);
    expect((await postWith(c, '/auth/signin', member, res.body.csrfToken)).status).toBe(200);

    // Another signed-in member cannot use it.
    const other = await registerMember(server.baseUrl);
    const o = client();
    await o.signIn(other);
    o.cookies.set(CSRF_COOKIE, res.body.csrfToken);
    const borrowed = await postWith(o, '/auth/signin', other, res.body.csrfToken);
    expect(borrowed.status).toBe(403);
  });

  it("a signed-in session's token stops working after sign-out; the new one works", async () => {
    const member = await registerMember(server.baseUrl);
    const c = client();
    await c.signIn(member);
    const sessionToken = c.csrfToken as string;
    const out = await c.post('/auth/signout');
    expect(out.body).toEqual({ message: AUTH.signedOut });
    const fresh = c.csrfToken as string;
    expect(fresh).not.toBe(sessionToken);

    c.cookies.set(CSRF_COOKIE, sessionToken);
    expect((await postWith(c, '/auth/signin', member, sessionToken)).status).toBe(403);
    c.cookies.set(CSRF_COOKIE, fresh);
    expect((await postWith(c, '/auth/signin', member, fresh)).status).toBe(200);
  });
});
