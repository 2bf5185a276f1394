import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/shared/constants.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, newMember, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The checks that depend on a request's path (CSRF, the session, no-store) judge the path the router
// acts on, not the raw request line: an encoded, doubled or dotted spelling of an API route, or the
// absolute form of the request line, gets exactly the checks of `/api/v1/...`.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

type RawAnswer = { status: number; cacheControl: string | undefined; body: { message?: string } };

/** Sends the request line's target exactly as given (fetch would normalise it). */
const raw = (method: string, target: string, headers: Record<string, string>, body?: unknown) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const url = new URL(server.baseUrl);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request({
      host: url.hostname,
      port: url.port,
      method,
      path: target,
      agent: false,
      headers: { ...(text ? { 'content-type': 'application/json' } : {}), ...headers },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        data += chunk;
      });
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          cacheControl: res.headers['cache-control'],
          body: data ? JSON.parse(data) : {},
        }),
      );
    });
    req.end(text);
  });

/** Spellings of `/api/v1/<rest>` that a router (or a proxy in front) may read as that route. */
const spellings = (rest: string) => {
  const [first = '', ...others] = rest.split('/');
  return [
    `/%61pi/v1/${rest}`,
    `/%61%70%69/v1/${rest}`,
    `/ap%69/v1/${rest}`,
    `/api%2Fv1/${rest}`,
    `/api%2fv1/${rest}`,
    `//api/v1/${rest}`,
    `/api/v1/./${rest}`,
    `/api/v1/x/../${rest}`,
    `/x/%2e%2e/api/v1/${rest}`,
    `/api/v1/${first}%2F${others.join('/')}`,
    `http://members.example/api/v1/${rest}`,
    `http://members.example/%61pi/v1/${rest}`,
  ];
};

describe('CSRF on any spelling of an API route', () => {
  it('refuses a registration without the token (403, no-store) however the path is spelled, and registers nobody', async () => {
    const primed = new ApiClient(server.baseUrl);
    await primed.get('/auth/csrf');
    for (const target of spellings('auth/register')) {
      const member = newMember();
      const res = await raw('POST', target, { cookie: primed.cookieHeader() }, member);
      expect(res.status, target).toBe(403);
      expect(res.body.message, target).toBe(GENERIC.csrf);
      expect(res.cacheControl, target).toBe('no-store');
      const signIn = await new ApiClient(server.baseUrl).post('/auth/signin', member);
      expect(signIn.status, target).toBe(401);
    }
  });

  it('lets the same encoded spelling through with the token: it does reach the route', async () => {
    const primed = new ApiClient(server.baseUrl);
    await primed.get('/auth/csrf');
    const member = newMember();
    const headers = { cookie: primed.cookieHeader(), [CSRF_HEADER]: primed.csrfToken ?? '' };
    const res = await raw('POST', '/%61pi/v1/auth/register', headers, member);
    expect(res.status).toBe(201);
    expect(res.cacheControl).toBe('no-store');
    expect((await new ApiClient(server.baseUrl).post('/auth/signin', member)).status).toBe(200);
  });
});

describe('the session and no-store on any spelling of an API route', () => {
  it('answers the signed-in member, never cacheable, on encoded and absolute-form spellings', async () => {
    const { client, member } = await signedInMember(server.baseUrl);
    for (const target of [
      '/%61pi/v1/auth/session',
      '/ap%69/v1/auth/session',
      'http://members.example/%61pi/v1/auth/session',
    ]) {
      const res = await raw('GET', target, { cookie: client.cookieHeader() });
      expect(res.status, target).toBe(200);
      expect((res.body as { auth?: { email: string } }).auth?.email, target).toBe(member.email);
      expect(res.cacheControl, target).toBe('no-store');
    }
  });

  it('marks a not-found answer under an encoded or dotted /api path no-store too', async () => {
    for (const target of ['/%61pi/v1/no-such-call', '/api/v1/x/../auth/session', '//api/v1/auth/session']) {
      const res = await raw('GET', target, {});
      expect(res.status, target).toBe(404);
      expect(res.cacheControl, target).toBe('no-store');
    }
  });
});
