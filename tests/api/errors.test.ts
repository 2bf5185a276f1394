import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/shared/constants.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, newMember, signedInMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// The error model of API.md "Conventions": a status plus {message, error?, errors?}, never a stack
// trace or a password hash. (ApiClient also refuses any response that carries either.)

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const ALLOWED_KEYS = ['error', 'errors', 'message'];
const LEAKS = /stack|\$argon2|password_hash|node_modules|\.ts:\d+/i;

describe('error bodies', () => {
  it('answers a malformed JSON body with 400 {message} and no stack', async () => {
    const c = new ApiClient(server.baseUrl);
    await c.get('/auth/csrf');
    const res = await c.request('POST', '/auth/signin', {
      body: '{"email":',
      csrf: false,
      headers: { [CSRF_HEADER]: c.csrfToken as string, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: GENERIC.invalidJson });
    expect(res.text).not.toMatch(LEAKS);
  });

  it('answers a JSON body that is not an object with 400 and field errors, not 500', async () => {
    const res = await new ApiClient(server.baseUrl).post('/auth/register', '"just a string"');
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.text).not.toMatch(LEAKS);
  });

  it('keeps every error body to {message, error?, errors?} without leaks', async () => {
    const member = await signedInMember(server.baseUrl);
    const c = new ApiClient(server.baseUrl);
    const responses = [
      await c.post('/auth/register', { ...newMember(), email: 'broken' }),
      await c.post('/auth/register', { ...newMember(), email: member.member.email }),
      await c.post('/auth/signin', { email: member.member.email, password: 'not-the-password-1' }),
      await c.post('/auth/adminsignin', { email: ADMIN.email, password: 'not-the-password-1' }),
      await c.get('/auth/session'),
      await member.client.get('/users/counts'),
      await c.request('POST', '/auth/signin', { body: {}, csrf: false }),
      await c.get('/no-such-call'),
    ];
    expect(responses.map((r) => r.status)).toEqual([400, 409, 401, 401, 401, 403, 403, 404]);
    for (const res of responses) {
      expect(res.body.message).toEqual(expect.any(String));
      for (const key of Object.keys(res.body)) expect(ALLOWED_KEYS).toContain(key);
      expect(res.text).not.toMatch(LEAKS);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(responses[2]?.body).toEqual({ message: AUTH.invalidCredentials });
  });

  it('never shows a password hash in a successful answer either', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const session = await client.get('/auth/session');
    expect(session.status).toBe(200);
    expect(session.text).not.toMatch(/password|\$argon2/i);
    const admin = await new ApiClient(server.baseUrl).signIn(ADMIN, '/auth/adminsignin');
    expect(admin.text).not.toMatch(/password|\$argon2/i);
  });
});
