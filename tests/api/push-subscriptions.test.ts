import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_MESSAGES } from '../../src/shared/push.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { type FakePushService, startFakePushService } from '../helpers/fake-push-service.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The push calls (issue 6): GET /push/key, POST and DELETE /push/subscriptions. Endpoints must be https
// (http only on the loopback address, and only where PUSH_ALLOW_LOOPBACK=true); keys must be there; a
// member stores and removes only their own subscriptions, and admins have none.

let server: TestServer;
let strict: TestServer;
let admin: ApiClient;
let pushService: FakePushService;
beforeAll(async () => {
  server = await startServer({ PUSH_ALLOW_LOOPBACK: 'true' });
  strict = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  pushService = await startFakePushService();
});
afterAll(async () => {
  await server?.stop();
  await strict?.stop();
  await pushService?.stop();
});

type Member = Awaited<ReturnType<typeof signedInMember>>;
const subscribe = (who: Member | ApiClient, body: unknown) =>
  ('client' in who ? who.client : who).post('/push/subscriptions', body);
const unsubscribe = (who: Member | ApiClient, endpoint: unknown) =>
  ('client' in who ? who.client : who).request('DELETE', '/push/subscriptions', { body: { endpoint } });
const stored = (db: TestServer['db'], endpoint: string) =>
  db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).executeTakeFirst();
const httpsSubscription = (name: string) => ({
  endpoint: `https://push.example.net/send/${name}`,
  expirationTime: null,
  keys: pushService.subscription('/unused').keys,
});

describe('GET /push/key', () => {
  it('gives a signed-in person the public VAPID key (65-byte P-256 point), and nobody else', async () => {
    const member = await signedInMember(server.baseUrl);
    const res = await member.client.get('/push/key');
    expect(res.status).toBe(200);
    const key = Buffer.from(res.body.publicKey, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await admin.get('/push/key')).body.publicKey).toBe(res.body.publicKey);
    // Another server with another DATA_DIR has its own key pair.
    const other = await signedInMember(strict.baseUrl);
    expect((await other.client.get('/push/key')).body.publicKey).not.toBe(res.body.publicKey);

    const anonymous = await fetch(`${server.baseUrl}/api/v1/push/key`);
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /push/subscriptions', () => {
  it("stores the member's subscription for this device", async () => {
    const member = await signedInMember(server.baseUrl);
    const body = httpsSubscription('store');
    const res = await member.client.request('POST', '/push/subscriptions', {
      body,
      headers: { 'user-agent': 'Phone browser 1.0' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe(PUSH_MESSAGES.subscribed);
    expect(await stored(server.db, body.endpoint)).toMatchObject({
      user_id: member.auth.id,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      user_agent: 'Phone browser 1.0',
    });
  });

  it('refreshes the same endpoint (new keys; the member who sent it last owns it)', async () => {
    const first = await signedInMember(server.baseUrl);
    const second = await signedInMember(server.baseUrl);
    const body = httpsSubscription('shared-phone');
    expect((await subscribe(first, body)).status).toBe(201);
    const renewed = { ...body, keys: pushService.subscription('/unused').keys };
    expect((await subscribe(second, renewed)).status).toBe(201);
    const rows = await server.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', body.endpoint)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: second.auth.id, p256dh: renewed.keys.p256dh });
  });

  it.each([
    ['plain http', { endpoint: 'http://push.example.net/send/x' }, 'endpoint', PUSH_MESSAGES.endpointInvalid],
    ['not a URL', { endpoint: 'push service' }, 'endpoint', PUSH_MESSAGES.endpointInvalid],
    ['another scheme', { endpoint: 'ftp://push.example.net/x' }, 'endpoint', PUSH_MESSAGES.endpointInvalid],
    ['no endpoint', { endpoint: undefined }, 'endpoint', PUSH_MESSAGES.endpointInvalid],
    ['no keys', { keys: undefined }, 'keys', PUSH_MESSAGES.keysRequired],
    ['no auth key', { keys: { p256dh: 'BAAA' } }, 'keys.auth', PUSH_MESSAGES.keysRequired],
    [
      'a key that is not base64url',
      { keys: { p256dh: 'not base64!', auth: 'abc' } },
      'keys.p256dh',
      PUSH_MESSAGES.keysRequired,
    ],
  ])('refuses %s with a 400 and stores nothing', async (_name, change, field, message) => {
    const member = await signedInMember(server.baseUrl);
    const body = { ...httpsSubscription(`bad-${field}`), ...change };
    const res = await subscribe(member, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ field, message }));
    const rows = await server.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', member.auth.id)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('takes a loopback http endpoint only where PUSH_ALLOW_LOOPBACK=true', async () => {
    const body = pushService.subscription('/loopback');
    const onStrict = await signedInMember(strict.baseUrl);
    const refused = await subscribe(onStrict, body);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toContainEqual({ field: 'endpoint', message: PUSH_MESSAGES.endpointInvalid });
    expect(await stored(strict.db, body.endpoint)).toBeUndefined();

    const onTest = await signedInMember(server.baseUrl);
    expect((await subscribe(onTest, body)).status).toBe(201);
  });

  it('is for members only: 401 signed out, 403 for an admin, 403 without the CSRF token', async () => {
    const body = httpsSubscription('access');
    // Signed out, with a CSRF token like the app has.
    expect((await subscribe(new ApiClient(server.baseUrl), body)).status).toBe(401);
    expect((await subscribe(admin, body)).status).toBe(403);
    const member = await signedInMember(server.baseUrl);
    const noToken = await member.client.request('POST', '/push/subscriptions', { body, csrf: false });
    expect(noToken.status).toBe(403);
    expect(await stored(server.db, body.endpoint)).toBeUndefined();
  });
});

describe('DELETE /push/subscriptions', () => {
  it("removes the member's own subscription; another member's is a 404 and stays", async () => {
    const owner = await signedInMember(server.baseUrl);
    const other = await signedInMember(server.baseUrl);
    const body = httpsSubscription('own-only');
    expect((await subscribe(owner, body)).status).toBe(201);

    const peek = await unsubscribe(other, body.endpoint);
    expect(peek.status).toBe(404);
    expect(peek.body.message).toBe(PUSH_MESSAGES.notFound);
    expect(await stored(server.db, body.endpoint)).toMatchObject({ user_id: owner.auth.id });
    expect((await unsubscribe(admin, body.endpoint)).status).toBe(403);

    const res = await unsubscribe(owner, body.endpoint);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(PUSH_MESSAGES.unsubscribed);
    expect(await stored(server.db, body.endpoint)).toBeUndefined();
    expect((await unsubscribe(owner, body.endpoint)).status).toBe(404);
  });

  it('refuses a body without a valid endpoint with a 400', async () => {
    const member = await signedInMember(server.baseUrl);
    const res = await unsubscribe(member, 'nope');
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'endpoint', message: PUSH_MESSAGES.endpointInvalid });
  });
});
