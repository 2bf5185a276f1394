import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Sign-out is a POST, which needs the CSRF header like every other state change, so another site
// cannot sign a member out (an <img src> or a link to a GET would). The specification's GET signs
// nobody out: it answers 405 with Allow: POST and changes nothing.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const replay = (sid: string | undefined) => {
  const c = new ApiClient(server.baseUrl);
  if (sid) c.cookies.set(SESSION_COOKIE, sid);
  return c.get('/auth/session');
};

describe('POST /auth/signout and /auth/signoutadmin', () => {
  it('ends the member session with the CSRF header: 200 {message}, cookie cleared, old sid is 401', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const sid = client.sid;
    const res = await client.post('/auth/signout');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: AUTH.signedOut });
    expect(client.sid).toBeUndefined();
    expect((await replay(sid)).status).toBe(401);
  });

  it('ends the admin session with the CSRF header', async () => {
    const admin = await signedInAdminClient(server.baseUrl);
    const sid = admin.sid;
    const res = await admin.post('/auth/signoutadmin');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: AUTH.signedOut });
    expect((await replay(sid)).status).toBe(401);
  });

  it('refuses a POST without the CSRF header (as from another site) with 403, and the session lives on', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const admin = await signedInAdminClient(server.baseUrl);
    for (const [who, url] of [
      [client, '/auth/signout'],
      [admin, '/auth/signoutadmin'],
    ] as const) {
      const sid = who.sid;
      const res = await who.request('POST', url, { csrf: false });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(GENERIC.csrf);
      expect(who.sid).toBe(sid);
      expect((await replay(sid)).status).toBe(200);
    }
  });

  it('signs nobody out on a GET (as an <img> on another site would send): 405 with Allow: POST, the session lives on', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const admin = await signedInAdminClient(server.baseUrl);
    for (const [who, url] of [
      [client, '/auth/signout'],
      [admin, '/auth/signoutadmin'],
    ] as const) {
      const sid = who.sid;
      const csrfToken = who.csrfToken;
      const res = await who.get(url);
      expect(res.status, url).toBe(405);
      expect(res.headers.get('allow'), url).toBe('POST');
      expect(res.body, url).toEqual({ message: AUTH.signOutWithPost, error: 'method_not_allowed' });
      // No cookie is cleared or replaced, and the session still answers.
      expect(res.headers.getSetCookie(), url).toEqual([]);
      expect(who.sid, url).toBe(sid);
      expect(who.csrfToken, url).toBe(csrfToken);
      expect((await replay(sid)).status, url).toBe(200);
    }
  });

  it('publishes POST as the way to sign out in the OpenAPI document, and the GET as a 405', async () => {
    const doc = (await new ApiClient(server.baseUrl).get('/openapi.json')).body;
    for (const path of ['/api/v1/auth/signout', '/api/v1/auth/signoutadmin']) {
      expect(Object.keys(doc.paths[path]).sort()).toEqual(['get', 'post']);
      expect(doc.paths[path].post.responses).toHaveProperty('403');
      expect(Object.keys(doc.paths[path].get.responses)).toEqual(['405']);
    }
  });
});
