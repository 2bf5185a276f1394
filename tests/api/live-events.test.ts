import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyMembers } from '../../src/server/modules/notifications/notifications.service.ts';
import { countOf, type LiveStream, openStream, sleep } from '../fixtures/live-stream.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The live channel (GET /api/v1/events, server-sent events): a new notification reaches the open
// tabs of exactly the members it is for, once its transaction has committed, never when it rolls
// back; a stream lives only as long as its session. One server here; two on one PostgreSQL in
// cluster.test.ts.

let server: TestServer;
let admin: ApiClient;
const streams: LiveStream[] = [];
beforeAll(async () => {
  server = await startServer({ LIVE_HEARTBEAT_MS: '1000' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await server?.stop();
});

type Member = Awaited<ReturnType<typeof signedInMember>>;

const open = async (who: Member | ApiClient) => {
  const client = who instanceof ApiClient ? who : who.client;
  const stream = await openStream(server.baseUrl, client.cookieHeader());
  streams.push(stream);
  await stream.waitFor((m) => m.some((x) => x.topic === 'ready'));
  return stream;
};
const notifications = (s: LiveStream) => countOf(s.messages, 'notifications');

describe('GET /events', () => {
  it('is an event stream that is never cached, opened with a ready message', async () => {
    const m = await signedInMember(server.baseUrl);
    const stream = await open(m);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-store');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stream.messages).toEqual([{ topic: 'ready' }]);
    await stream.waitFor(() => stream.heartbeats() >= 1, 3000);
    stream.close();
  });

  it('brings a notification to every tab of each chosen member, and to nobody else', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const c = await signedInMember(server.baseUrl);
    const [a1, a2, b1, c1, adminTab] = [
      await open(a),
      await open(a),
      await open(b),
      await open(c),
      await open(admin),
    ];

    const res = await admin.post('/notifications', {
      title: 'For A and B',
      message: 'Live',
      users: false,
      recipients: [a.auth.id, b.auth.id],
    });
    expect(res.status).toBe(201);
    for (const s of [a1, a2, b1]) await s.waitFor(() => notifications(s) === 1);

    // Then one for C alone: C's stream holds that one and nothing from before.
    await admin.post('/notifications', {
      title: 'For C',
      message: 'Live',
      users: false,
      recipients: [c.auth.id],
    });
    await c1.waitFor(() => notifications(c1) === 1);
    await sleep(200);
    expect(notifications(c1)).toBe(1);
    expect([a1, a2, b1].map(notifications)).toEqual([1, 1, 1]);
    expect(notifications(adminTab)).toBe(0);
  });

  it('brings an all-users notification to every member and the seen state to the member’s other tabs', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const [a1, a2, b1] = [await open(a), await open(a), await open(b)];
    const res = await admin.post('/notifications', { title: 'All', message: 'Everyone' });
    for (const s of [a1, a2, b1]) await s.waitFor(() => notifications(s) === 1);

    expect((await a.client.put(`/notifications/${res.body.notification.id}/seen`, {})).status).toBe(200);
    for (const s of [a1, a2]) await s.waitFor(() => notifications(s) === 2);
    await sleep(200);
    expect(notifications(b1)).toBe(1);
  });

  it('announces notifyMembers only after commit, and never for a rolled-back transaction', async () => {
    const a = await signedInMember(server.baseUrl);
    const stream = await open(a);
    const note = { recipientIds: [a.auth.id], title: 'From the ticket desk', message: 'x' };

    await expect(
      server.db.transaction().execute(async (trx) => {
        await notifyMembers(trx, note);
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');

    await server.db.transaction().execute(async (trx) => {
      await notifyMembers(trx, { ...note, title: 'Committed' });
      await sleep(300);
      // Not yet: the transaction is still open.
      expect(notifications(stream)).toBe(0);
    });
    await stream.waitFor(() => notifications(stream) === 1);
    await sleep(300);
    expect(notifications(stream)).toBe(1);
    const titles = (await a.client.get('/notifications')).body.notifications.map(
      (n: { title: string }) => n.title,
    );
    expect(titles).toEqual(['Committed']);
  });

  it('ends the stream when the member signs out, and refuses to open one without a session', async () => {
    const a = await signedInMember(server.baseUrl);
    const cookie = a.client.cookieHeader();
    const stream = await open(a);
    expect((await a.client.post('/auth/signout')).status).toBe(200);
    await stream.ended;
    const again = await openStream(server.baseUrl, cookie);
    expect(again.status).toBe(401);
  });

  it('ends the stream of a member an admin blocks', async () => {
    const a = await signedInMember(server.baseUrl);
    const stream = await open(a);
    expect((await admin.put(`/users/${a.auth.id}`, { status: 'block' })).status).toBe(200);
    await stream.ended;
  });
});
