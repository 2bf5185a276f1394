import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSIONS } from '../../src/shared/sessions.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 14, item 5: a member sees every device signed in to the account (device, address, signed in
// at) and signs out any other one, or all others at once. Only their own sessions, never anybody else's.

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => server?.stop());

/** Signs the member in on one more "device": its own cookies, user agent and address. */
async function anotherDevice(credentials: { email: string; password: string }, ua: string, ip: string) {
  const device = new ApiClient(server.baseUrl);
  const res = await device.post(
    '/auth/signin',
    { email: credentials.email, password: credentials.password },
    { 'user-agent': ua, 'x-forwarded-for': ip },
  );
  expect(res.status, res.text).toBe(200);
  return device;
}

describe('GET /auth/sessions', () => {
  it('lists this device first, then the others newest first, each named as a person would', async () => {
    const { member, client } = await signedInMember(server.baseUrl);
    await anotherDevice(member, PHONE_UA, '203.0.113.7');
    await anotherDevice(member, IPHONE_UA, '203.0.113.8');

    const res = await client.get('/auth/sessions');
    expect(res.status, res.text).toBe(200);
    const { sessions } = res.body;
    expect(sessions).toHaveLength(3);
    expect(sessions[0].current).toBe(true);
    expect(sessions.slice(1).map((s: { device: string }) => s.device)).toEqual([
      'Safari on iOS',
      'Chrome on Android',
    ]);
    expect(sessions.slice(1).map((s: { ip: string }) => s.ip)).toEqual(['203.0.113.8', '203.0.113.7']);
    for (const s of sessions) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Date.parse(s.created_at)).toBeLessThan(Date.parse(s.expires_at));
    }
    // Neither the cookie's token nor the stored session key is ever shown.
    expect(res.text).not.toContain(client.sid as string);
  });

  it('shows a member none of another member’s sessions', async () => {
    const alice = await signedInMember(server.baseUrl);
    const bob = await signedInMember(server.baseUrl);
    await anotherDevice(bob.member, PHONE_UA, '203.0.113.9');
    const res = await alice.client.get('/auth/sessions');
    expect(res.body.sessions).toHaveLength(1);
  });

  it('works for an admin too, and needs a session', async () => {
    const admin = await signedInAdminClient(server.baseUrl);
    const res = await admin.get('/auth/sessions');
    expect(res.status).toBe(200);
    expect(res.body.sessions.some((s: { current: boolean }) => s.current)).toBe(true);
    expect((await new ApiClient(server.baseUrl).get('/auth/sessions')).status).toBe(401);
  });
});

describe('DELETE /auth/sessions/{id}', () => {
  it('signs out that device only: its next call is a 401, this one lives on', async () => {
    const { member, client } = await signedInMember(server.baseUrl);
    const phone = await anotherDevice(member, PHONE_UA, '203.0.113.10');
    const iphone = await anotherDevice(member, IPHONE_UA, '203.0.113.11');
    const { sessions } = (await client.get('/auth/sessions')).body;
    const target = sessions.find((s: { device: string }) => s.device === 'Chrome on Android');

    const res = await client.request('DELETE', `/auth/sessions/${target.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: SESSIONS.ended });
    expect((await phone.get('/auth/session')).status).toBe(401);
    expect((await iphone.get('/auth/session')).status).toBe(200);
    expect((await client.get('/auth/session')).status).toBe(200);
    expect((await client.get('/auth/sessions')).body.sessions).toHaveLength(2);

    const again = await client.request('DELETE', `/auth/sessions/${target.id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(SESSIONS.notFound);
  });

  it('answers 404 for another member’s session and leaves it signed in', async () => {
    const alice = await signedInMember(server.baseUrl);
    const bob = await signedInMember(server.baseUrl);
    const bobsId = (await bob.client.get('/auth/sessions')).body.sessions[0].id;
    const res = await alice.client.request('DELETE', `/auth/sessions/${bobsId}`);
    expect(res.status).toBe(404);
    expect((await bob.client.get('/auth/session')).status).toBe(200);
  });

  it('refuses the session in use with 422 (sign-out is for that), and a malformed id with 400', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const mine = (await client.get('/auth/sessions')).body.sessions[0];
    const res = await client.request('DELETE', `/auth/sessions/${mine.id}`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(SESSIONS.current);
    expect((await client.get('/auth/session')).status).toBe(200);
    expect((await client.request('DELETE', '/auth/sessions/not-a-session')).status).toBe(400);
  });

  it('needs the CSRF header', async () => {
    const { member, client } = await signedInMember(server.baseUrl);
    const phone = await anotherDevice(member, PHONE_UA, '203.0.113.12');
    const other = (await client.get('/auth/sessions')).body.sessions[1];
    const res = await client.request('DELETE', `/auth/sessions/${other.id}`, { csrf: false });
    expect(res.status).toBe(403);
    expect((await phone.get('/auth/session')).status).toBe(200);
  });
});

describe('POST /auth/sessions/end-others', () => {
  it('signs out every other device of the member, no one else’s, and says how many', async () => {
    const { member, client } = await signedInMember(server.baseUrl);
    const devices = [
      await anotherDevice(member, PHONE_UA, '203.0.113.13'),
      await anotherDevice(member, IPHONE_UA, '203.0.113.14'),
    ];
    const bystander = await signedInMember(server.baseUrl);

    const res = await client.post('/auth/sessions/end-others');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: SESSIONS.othersEnded, ended: 2 });
    for (const device of devices) expect((await device.get('/auth/session')).status).toBe(401);
    expect((await client.get('/auth/session')).status).toBe(200);
    expect((await bystander.client.get('/auth/session')).status).toBe(200);

    const again = await client.post('/auth/sessions/end-others');
    expect(again.body.ended).toBe(0);
  });

  it('is in the OpenAPI document with the other two calls', async () => {
    const doc = (await new ApiClient(server.baseUrl).get('/openapi.json')).body;
    expect(doc.paths['/api/v1/auth/sessions']).toHaveProperty('get');
    expect(doc.paths['/api/v1/auth/sessions/{id}']).toHaveProperty('delete');
    expect(doc.paths['/api/v1/auth/sessions/end-others']).toHaveProperty('post');
  });
});
