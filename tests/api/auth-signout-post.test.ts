import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 14: sign-out also answers POST, which needs the CSRF header like every other state change, so
// another site cannot sign a member out; the app uses it. The GET of the specification stays.

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

  it('keeps GET /auth/signout for old clients', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const sid = client.sid;
    expect((await client.get('/auth/signout')).status).toBe(200);
    expect((await replay(sid)).status).toBe(401);
  });

  it('publishes both methods in the OpenAPI document', async () => {
    const doc = (await new ApiClient(server.baseUrl).get('/openapi.json')).body;
    for (const path of ['/api/v1/auth/signout', '/api/v1/auth/signoutadmin']) {
      expect(Object.keys(doc.paths[path]).sort()).toEqual(['get', 'post']);
      expect(doc.paths[path].post.responses).toHaveProperty('403');
    }
  });
});
