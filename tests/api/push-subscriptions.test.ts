import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PUSH_SUBSCRIPTIONS, PUSH_MESSAGES } from '../../src/shared/push.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { type FakePushService, startFakePushService } from '../helpers/fake-push-service.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The push calls (issue 6): GET /push/key, POST and DELETE /push/subscriptions. Endpoints must be https
// on a known push service's host (http only on the loopback address, and only where
// PUSH_ALLOW_LOOPBACK=true); keys must be there; a member stores and removes only their own
// subscriptions, never takes another member's, keeps at most 10, and admins have none (issue 14).

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
// Registrations are limited per address (20 in 10 minutes): the endpoint-rule cases share one member of
// the strict server, whose rules for https endpoints are the same.
let sharedStrictMember: Promise<Member> | undefined;
const strictMember = () => {
  sharedStrictMember ??= signedInMember(strict.baseUrl);
  return sharedStrictMember;
};
const httpsSubscription = (name: string) => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${name}-${Date.now().toString(36)}`,
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

  it("refreshes the member's own endpoint with new keys, without a second row", async () => {
    const member = await signedInMember(server.baseUrl);
    const body = httpsSubscription('refresh');
    expect((await subscribe(member, body)).status).toBe(201);
    const renewed = { ...body, keys: pushService.subscription('/unused').keys };
    expect((await subscribe(member, renewed)).status).toBe(201);
    const rows = await server.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', body.endpoint)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: member.auth.id, p256dh: renewed.keys.p256dh });
  });

  it("never moves another member's endpoint: 409, and it stays with its owner, keys unchanged", async () => {
    const owner = await signedInMember(server.baseUrl);
    const other = await signedInMember(server.baseUrl);
    const body = httpsSubscription('taken');
    expect((await subscribe(owner, body)).status).toBe(201);
    const res = await subscribe(other, { ...body, keys: pushService.subscription('/unused').keys });
    expect(res.status, res.text).toBe(409);
    expect(res.body.message).toBe(PUSH_MESSAGES.endpointTaken);
    const rows = await server.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', body.endpoint)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: owner.auth.id, p256dh: body.keys.p256dh, auth: body.keys.auth });
  });

  it.each([
    ['Chrome (FCM)', 'https://fcm.googleapis.com/fcm/send/abc:APA91b'],
    ['Firefox', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAA'],
    ['Firefox (another node)', 'https://eu.push.services.mozilla.com/wpush/v1/x'],
    ['Safari', 'https://web.push.apple.com/QGuQyavXutnMH'],
    ['Edge (WNS)', 'https://db5p.notify.windows.com/w/?token=AwYAAAB'],
  ])("accepts the endpoint of %s's push service", async (_name, endpoint) => {
    const member = await strictMember();
    const body = { ...httpsSubscription('known'), endpoint: `${endpoint}${Date.now().toString(36)}` };
    const res = await subscribe(member, body);
    expect(res.status, res.text).toBe(201);
    expect(await stored(strict.db, body.endpoint)).toMatchObject({ user_id: member.auth.id });
  });

  it.each([
    ['an unknown host', 'https://push.example.net/send/x'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['a private address', 'https://10.0.0.7/send/x'],
    ['a look-alike host', 'https://fcm.googleapis.com.attacker.example/send/x'],
    ['a host that only ends like one', 'https://evilpush.apple.com/x'],
    ['a known host on another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
    ['credentials in the URL', 'https://user:pw@fcm.googleapis.com/fcm/send/x'],
  ])('refuses %s with a 400 and stores nothing', async (_name, endpoint) => {
    const member = await strictMember();
    const res = await subscribe(member, { ...httpsSubscription('unknown'), endpoint });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toContainEqual({
      field: 'endpoint',
      message: PUSH_MESSAGES.endpointUnknownService,
    });
    expect(await stored(strict.db, endpoint)).toBeUndefined();
  });

  it(`keeps at most ${MAX_PUSH_SUBSCRIPTIONS} devices per member: a new one replaces the oldest`, async () => {
    const member = await signedInMember(strict.baseUrl);
    const bodies = Array.from({ length: MAX_PUSH_SUBSCRIPTIONS + 1 }, (_, i) =>
      httpsSubscription(`device-${i}`),
    );
    for (const body of bodies) expect((await subscribe(member, body)).status).toBe(201);
    const rows = await strict.db
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', member.auth.id)
      .execute();
    expect(rows.map((row) => row.endpoint).sort()).toEqual(
      bodies
        .slice(1)
        .map((body) => body.endpoint)
        .sort(),
    );
    // Refreshing one of the ten keeps ten.
    expect((await subscribe(member, bodies[5])).status).toBe(201);
    expect(await stored(strict.db, bodies[0]?.endpoint ?? '')).toBeUndefined();
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
