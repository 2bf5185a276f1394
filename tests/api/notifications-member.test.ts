import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_MESSAGES } from '../../src/shared/notifications.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The member side (spec 2 /user/notifications, spec 4 "Notification marked seen", spec 7):
// GET /notifications, /notifications/user/{id}, /notifications/home, PUT /notifications/{id}/seen.
// A member reads only their own; another member's ids are a 404. Seen is per member.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof signedInMember>>;
type Note = {
  id: string;
  title: string;
  seen: boolean;
  seen_at: string | null;
  type: string;
  users: boolean;
};

const create = async (body: Record<string, unknown>) => {
  const res = await admin.post('/notifications', { message: 'Body text', ...body });
  expect(res.status).toBe(201);
  return res.body.notification as { id: string };
};
const listOf = async (m: Member): Promise<Note[]> => {
  const res = await m.client.get(`/notifications/user/${m.auth.id}`);
  expect(res.status).toBe(200);
  return res.body.notifications;
};
const seen = (m: Member, id: string, body: Record<string, unknown> = { userId: m.auth.id }) =>
  m.client.put(`/notifications/${id}/seen`, body);

describe('a member sees their notifications, newest first', () => {
  it('gets all-users ones and their own chosen ones, not those for others', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const forAll = await create({ title: 'For all' });
    const forA = await create({ title: 'For A', users: false, recipients: [a.auth.id] });
    const forB = await create({ title: 'For B', users: false, recipients: [b.auth.id] });

    const listA = await listOf(a);
    expect(listA.map((n) => n.title)).toEqual(['For A', 'For all']);
    expect(listA[0]).toMatchObject({
      id: forA.id,
      notification_id: forA.id,
      users: false,
      type: 'notification',
      seen: false,
      seen_at: null,
    });
    expect((await listOf(b)).map((n) => n.id)).toEqual([forB.id, forAll.id]);
    // GET /notifications answers a member with the same list.
    const own = await a.client.get('/notifications');
    expect(own.body.notifications.map((n: Note) => n.id)).toEqual(listA.map((n) => n.id));
  });

  it('does not get all-users notifications sent before they registered', async () => {
    const before = await create({ title: 'Before you came' });
    const late = await signedInMember(server.baseUrl);
    const after = await create({ title: 'After you came' });
    const ids = (await listOf(late)).map((n) => n.id);
    expect(ids).toContain(after.id);
    expect(ids).not.toContain(before.id);
  });

  it("answers another member's list with a 404, and an admin with any member's", async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const forB = await create({ title: 'Private to B', users: false, recipients: [b.auth.id] });
    const peek = await a.client.get(`/notifications/user/${b.auth.id}`);
    expect(peek.status).toBe(404);
    expect(peek.text).not.toContain('Private to B');
    const asAdmin = await admin.get(`/notifications/user/${b.auth.id}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.notifications.map((n: Note) => n.id)).toContain(forB.id);
    expect((await admin.get('/notifications/user/no-such-member')).status).toBe(404);
  });
});

describe('PUT /notifications/{id}/seen', () => {
  it('marks seen for this member only, keeps the first seen_at, and lowers the unread count', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const shared = await create({ title: 'Shared' });
    const homeBefore = await a.client.get('/notifications/home');
    expect(homeBefore.body.unread).toBe(1);

    const first = await seen(a, shared.id);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(NOTIFICATION_MESSAGES.markedSeen);
    expect(first.body.notification).toMatchObject({ id: shared.id, seen: true });
    const seenAt = first.body.notification.seen_at as string;
    expect(Date.parse(seenAt)).toBeGreaterThan(Date.now() - 60_000);

    const again = await seen(a, shared.id, {});
    expect(again.status).toBe(200);
    expect(again.body.notification.seen_at).toBe(seenAt);

    expect((await listOf(a)).find((n) => n.id === shared.id)).toMatchObject({ seen: true, seen_at: seenAt });
    expect((await listOf(b)).find((n) => n.id === shared.id)).toMatchObject({ seen: false, seen_at: null });
    expect((await a.client.get('/notifications/home')).body.unread).toBe(0);
    expect((await b.client.get('/notifications/home')).body.unread).toBe(1);
  });

  it("is a 404 for another member's notification or another member's userId, and changes nothing", async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const forB = await create({ title: 'Only B', users: false, recipients: [b.auth.id] });
    const forAll = await create({ title: 'Everyone' });

    const other = await seen(a, forB.id, {});
    expect(other.status).toBe(404);
    const asB = await seen(a, forAll.id, { userId: b.auth.id });
    expect(asB.status).toBe(404);
    expect((await seen(a, 'no-such-notification', {})).status).toBe(404);
    expect((await listOf(b)).every((n) => !n.seen)).toBe(true);
    expect((await listOf(a)).find((n) => n.id === forAll.id)?.seen).toBe(false);
  });

  it('is for members: an admin gets 403', async () => {
    const forAll = await create({ title: 'Admins have none' });
    expect((await admin.put(`/notifications/${forAll.id}/seen`, {})).status).toBe(403);
  });
});

describe('GET /notifications/home: the unread count and the site pop-ups', () => {
  it('offers an unseen site_popup until the member has seen it, then never again', async () => {
    const a = await signedInMember(server.baseUrl);
    const popup = await create({ title: 'Pop!', type: 'site_popup', users: false, recipients: [a.auth.id] });
    await create({ title: 'Plain', users: false, recipients: [a.auth.id] });

    const home = await a.client.get('/notifications/home');
    expect(home.status).toBe(200);
    expect(home.body.unread).toBe(2);
    expect(home.body.popups.map((n: Note) => n.id)).toEqual([popup.id]);
    expect(home.body.popups[0]).toMatchObject({ title: 'Pop!', type: 'site_popup', seen: false });

    expect((await seen(a, popup.id)).status).toBe(200);
    const later = await a.client.get('/notifications/home');
    expect(later.body.popups).toEqual([]);
    expect(later.body.unread).toBe(1);
  });

  it('is for members: an admin gets 403', async () => {
    expect((await admin.get('/notifications/home')).status).toBe(403);
  });
});

describe('GET /notifications/banner', () => {
  it('is null before any banner was uploaded', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.get('/notifications/banner');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ banner: null });
  });
});
