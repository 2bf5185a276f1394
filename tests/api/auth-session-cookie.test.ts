import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../src/shared/constants.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The session cookie's name and attributes: `__Host-sid` when the site is served over https (the
// browser then takes it only with Secure, Path=/ and no Domain, so neither a sibling subdomain nor a
// plain-http page can plant or overwrite it), `sid` over http (local development, where a __Host-
// cookie cannot be set). The test servers answer over http; PUBLIC_URL says how the site is served.

let https: TestServer;
let http: TestServer;
beforeAll(async () => {
  [https, http] = await Promise.all([
    startServer({ PUBLIC_URL: 'https://members.example.com' }),
    startServer({ PUBLIC_URL: 'http://localhost:8080' }),
  ]);
});
afterAll(async () => {
  await Promise.all([https?.stop(), http?.stop()]);
});

const sessionLine = (headers: Headers, name: string) =>
  headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
const attributes = (line: string | undefined) =>
  (line ?? '')
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());

describe('the session cookie over https', () => {
  it('is __Host-sid, Secure, HttpOnly, Path=/ and without Domain, for members and admins', async () => {
    const { member } = await signedInMember(https.baseUrl);
    const client = new ApiClient(https.baseUrl);
    const res = await client.signIn(member);
    const line = sessionLine(res.headers, SECURE_SESSION_COOKIE);
    expect(line, res.headers.getSetCookie().join('\n')).toBeDefined();
    expect(sessionLine(res.headers, SESSION_COOKIE)).toBeUndefined();
    const attrs = attributes(line);
    expect(attrs).toContain('secure');
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('path=/');
    expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
    expect((await client.get('/auth/session')).status).toBe(200);
    const admin = await signedInAdminClient(https.baseUrl);
    expect(admin.cookies.has(SECURE_SESSION_COOKIE)).toBe(true);
    expect((await admin.get('/auth/session')).body.admin).toBeDefined();
  });

  it('is not taken under the plain name: a sid cookie (as a plain-http page could set) signs nobody in', async () => {
    const { client } = await signedInMember(https.baseUrl);
    const token = client.cookies.get(SECURE_SESSION_COOKIE);
    expect(token).toBeDefined();
    const planted = new ApiClient(https.baseUrl);
    planted.cookies.set(SESSION_COOKIE, token as string);
    expect((await planted.get('/auth/session')).status).toBe(401);
  });

  it('is cleared under its own name on sign-out', async () => {
    const { client } = await signedInMember(https.baseUrl);
    const res = await client.post('/auth/signout');
    expect(res.status).toBe(200);
    const cleared = sessionLine(res.headers, SECURE_SESSION_COOKIE);
    expect(cleared).toMatch(/expires=Thu, 01 Jan 1970/i);
    expect(attributes(cleared)).toContain('secure');
    expect(attributes(cleared)).toContain('path=/');
    expect(client.cookies.has(SECURE_SESSION_COOKIE)).toBe(false);
  });
});

describe('the session cookie over http (local development)', () => {
  it('is sid, HttpOnly and not Secure', async () => {
    const { member } = await signedInMember(http.baseUrl);
    const client = new ApiClient(http.baseUrl);
    const res = await client.signIn(member);
    const line = sessionLine(res.headers, SESSION_COOKIE);
    expect(line).toBeDefined();
    expect(sessionLine(res.headers, SECURE_SESSION_COOKIE)).toBeUndefined();
    expect(attributes(line)).toContain('httponly');
    expect(attributes(line)).not.toContain('secure');
    expect((await client.get('/auth/session')).status).toBe(200);
  });
});
