import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { NOTIFICATION_MESSAGES } from '../../src/shared/notifications.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The admin side of notifications (spec 2 "Admin Create Notification" / "Admin notification list",
// spec 5 validation, spec 7 calls, spec 8 messages): POST /notifications, GET /notifications,
// GET /notifications/users (the form's user search), DELETE /notifications/delete/{id}.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const counts = async () => ({
  notifications: (await server.db.selectFrom('notifications').select('id').execute()).length,
  recipients: (await server.db.selectFrom('notification_recipients').select('user_id').execute()).length,
});

describe('POST /notifications validates with the messages of spec 5', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no title', { message: 'Hello' }, 'title', NOTIFICATION_MESSAGES.titleRequired],
    ['a blank title', { title: '   ', message: 'Hello' }, 'title', NOTIFICATION_MESSAGES.titleRequired],
    ['no message', { title: 'Hi' }, 'message', NOTIFICATION_MESSAGES.messageRequired],
    [
      'an empty type',
      { title: 'Hi', message: 'Hello', type: '' },
      'type',
      NOTIFICATION_MESSAGES.typeRequired,
    ],
    [
      'an unknown type',
      { title: 'Hi', message: 'Hello', type: 'email' },
      'type',
      NOTIFICATION_MESSAGES.invalidType,
    ],
    [
      'chosen users but none chosen',
      { title: 'Hi', message: 'Hello', users: false, recipients: [] },
      'recipients',
      NOTIFICATION_MESSAGES.recipientsRequired,
    ],
    [
      'a title over 200 characters',
      { title: 'x'.repeat(201), message: 'Hello' },
      'title',
      NOTIFICATION_MESSAGES.titleTooLong,
    ],
  ];
  it.each(cases)('refuses %s and creates nothing', async (_name, body, field, message) => {
    const before = await counts();
    const res = await admin.post('/notifications', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await counts()).toEqual(before);
  });

  it('refuses recipients that are not members (unknown ids, admins)', async () => {
    const session = await admin.get('/auth/session');
    const { auth } = await signedInMember(server.baseUrl);
    for (const stranger of ['no-such-user', session.body.admin.id]) {
      const before = await counts();
      const res = await admin.post('/notifications', {
        title: 'Hi',
        message: 'Hello',
        users: false,
        recipients: [auth.id, stranger],
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({
        field: 'recipients',
        message: NOTIFICATION_MESSAGES.recipientUnknown,
      });
      expect(await counts()).toEqual(before);
    }
  });
});

describe('POST /notifications creates', () => {
  it('for all users by default, of type notification, with the spec 8 message', async () => {
    const res = await admin.post('/notifications', { title: 'Maintenance', message: 'Tonight at 22:00' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(NOTIFICATION_MESSAGES.created);
    expect(res.body.notification).toMatchObject({
      title: 'Maintenance',
      message: 'Tonight at 22:00',
      users: true,
      type: 'notification',
      recipients: [],
    });
    expect(res.body.notification.notification_id).toBe(res.body.notification.id);
  });

  it('for chosen members only, ignoring duplicates; all users clears the chosen ones', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const chosen = await admin.post('/notifications', {
      title: 'For two',
      message: 'Just you two',
      users: false,
      type: 'site_popup',
      recipients: [a.auth.id, b.auth.id, a.auth.id],
    });
    expect(chosen.status).toBe(201);
    expect(chosen.body.notification).toMatchObject({ users: false, type: 'site_popup' });
    expect([...chosen.body.notification.recipients].sort()).toEqual([a.auth.id, b.auth.id].sort());

    const all = await admin.post('/notifications', {
      title: 'Everyone',
      message: 'All of you',
      users: true,
      recipients: [a.auth.id],
    });
    expect(all.status).toBe(201);
    expect(all.body.notification.recipients).toEqual([]);
    const rows = await server.db
      .selectFrom('notification_recipients')
      .selectAll()
      .where('notification_id', '=', all.body.notification.id)
      .execute();
    expect(rows).toEqual([]);
  });

  // More recipients than one statement binds (200): written in turn, each member once, none lost.
  it('for more chosen members than one insert holds: every one of them, once', async () => {
    const reader = await signedInMember(server.baseUrl);
    const others: string[] = [];
    for (let i = 0; i < 249; i++) {
      const row = await createUser(server.db, {
        username: `many_${i}`,
        email: `many.${i}@example.com`,
        password_hash: 'not-a-real-hash',
        role: 'user',
        fullname: `Many ${i}`,
        phone: `+1555100${String(1000 + i)}`,
      });
      others.push(row.id);
    }
    const before = await counts();
    const res = await admin.post('/notifications', {
      title: 'For 250',
      message: 'Many of you',
      users: false,
      recipients: [...others, reader.auth.id, others[0]],
    });
    expect(res.status).toBe(201);
    expect(res.body.notification.recipients).toHaveLength(250);
    const rows = await server.db
      .selectFrom('notification_recipients')
      .select('user_id')
      .where('notification_id', '=', res.body.notification.id)
      .execute();
    expect(rows.map((r) => r.user_id).sort()).toEqual([...others, reader.auth.id].sort());
    expect(await counts()).toEqual({
      notifications: before.notifications + 1,
      recipients: before.recipients + 250,
    });
    const titles = (await reader.client.get('/notifications')).body.notifications.map(
      (n: { title: string }) => n.title,
    );
    expect(titles).toContain('For 250');
  });

  it('writes the audit log', async () => {
    const res = await admin.post('/notifications', { title: 'Audited', message: 'Yes' });
    const entry = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', res.body.notification.id)
      .executeTakeFirst();
    expect(entry?.action).toBe('notification.create');
  });
});

describe('GET /notifications (admin) lists every notification for the list screen', () => {
  it('newest first, with users (All User) and type and recipients', async () => {
    const m = await signedInMember(server.baseUrl);
    const first = await admin.post('/notifications', { title: 'Older', message: '1' });
    const second = await admin.post('/notifications', {
      title: 'Newer',
      message: '2',
      users: false,
      recipients: [m.auth.id],
    });
    const res = await admin.get('/notifications');
    expect(res.status).toBe(200);
    const ids = res.body.notifications.map((n: { id: string }) => n.id);
    expect(ids.indexOf(second.body.notification.id)).toBeLessThan(ids.indexOf(first.body.notification.id));
    expect(res.body.notifications[0]).toMatchObject({
      id: second.body.notification.id,
      title: 'Newer',
      message: '2',
      users: false,
      type: 'notification',
      recipients: [m.auth.id],
    });
  });
});

describe('DELETE /notifications/delete/{id}', () => {
  it('deletes for everyone with the spec 8 message; a second delete is a 404', async () => {
    const m = await signedInMember(server.baseUrl);
    const created = await admin.post('/notifications', {
      title: 'Soon gone',
      message: 'x',
      users: false,
      recipients: [m.auth.id],
    });
    const id = created.body.notification.id;
    expect((await m.client.get(`/notifications/user/${m.auth.id}`)).body.notifications).toHaveLength(1);

    const res = await admin.request('DELETE', `/notifications/delete/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(NOTIFICATION_MESSAGES.deleted);
    expect((await m.client.get(`/notifications/user/${m.auth.id}`)).body.notifications).toHaveLength(0);
    expect(
      (await admin.get('/notifications')).body.notifications.map((n: { id: string }) => n.id),
    ).not.toContain(id);
    expect((await admin.request('DELETE', `/notifications/delete/${id}`)).status).toBe(404);
  });
});

describe('GET /notifications/users (the form user search)', () => {
  it('finds members by a case-insensitive e-mail fragment, never admins', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const m = await signedInMember(server.baseUrl, { email: `Find.${tag}@example.com` });
    const res = await admin.get(`/notifications/users?email=${tag.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual([
      { id: m.auth.id, fullname: m.member.fullname, username: m.member.username, email: m.auth.email },
    ]);
    const admins = await admin.get('/notifications/users?email=root-admin');
    expect(admins.body.users).toEqual([]);
    const wildcard = await admin.get('/notifications/users?email=%25');
    expect(wildcard.body.users).toEqual([]);
  });
});

describe('admin calls are for admins only', () => {
  it('a member gets 403 and changes nothing; signed out gets 401', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const created = await admin.post('/notifications', { title: 'Keep', message: 'me' });
    const before = await counts();
    const calls = [
      () => client.post('/notifications', { title: 'Hack', message: 'x' }),
      () => client.request('DELETE', `/notifications/delete/${created.body.notification.id}`),
      () => client.get('/notifications/users?email=example'),
    ];
    for (const call of calls) expect((await call()).status).toBe(403);
    expect(await counts()).toEqual(before);

    const anonymous = new ApiClient(server.baseUrl);
    for (const [method, path] of [
      ['POST', '/notifications'],
      ['GET', '/notifications'],
      ['GET', '/notifications/home'],
      ['GET', '/notifications/banner'],
      ['GET', `/notifications/user/${auth.id}`],
      ['PUT', `/notifications/${created.body.notification.id}/seen`],
      ['DELETE', `/notifications/delete/${created.body.notification.id}`],
      ['GET', '/events'],
    ] as const) {
      const res = await anonymous.request(
        method,
        path,
        method === 'POST' ? { body: { title: 'x', message: 'y' } } : {},
      );
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
