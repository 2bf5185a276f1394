import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, registerMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /users/counts: the admin dashboard's member counts (admins themselves are not members).

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Counts = { total: number; active: number; inactive: number; blocked: number; joinedToday: number };
const counts = async (): Promise<Counts> => {
  const res = await admin.get<Counts>('/users/counts');
  expect(res.status).toBe(200);
  return res.body;
};
const setUser = (email: string, values: { status?: 'block'; is_active?: 'active'; created_at?: string }) =>
  server.db.updateTable('users').set(values).where('email', '=', email).execute();

describe('GET /users/counts', () => {
  it('answers 401 when signed out', async () => {
    const res = await new ApiClient(server.baseUrl).get('/users/counts');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: GENERIC.notSignedIn });
  });

  it('answers 403 to a member', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.get('/users/counts');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: GENERIC.forbidden });
  });

  it('answers an admin with whole-number counts of members only', async () => {
    const res = await admin.get('/users/counts');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['active', 'blocked', 'inactive', 'joinedToday', 'total']);
    for (const value of Object.values(res.body)) expect(Number.isInteger(value)).toBe(true);
    const rows = await server.db.selectFrom('users').select(['role']).execute();
    expect(res.body.total).toBe(rows.filter((r) => r.role === 'user').length);
    expect(rows.length).toBe(res.body.total + 1); // the admin, not counted
    expect(res.body.active + res.body.inactive).toBe(res.body.total);
  });

  it('follows registrations, activation, blocking and the join date', async () => {
    const start = await counts();
    const members = [
      await registerMember(server.baseUrl),
      await registerMember(server.baseUrl),
      await registerMember(server.baseUrl),
    ];
    const [a, b, c] = members.map((m) => m.email) as [string, string, string];

    const afterJoin = await counts();
    expect(afterJoin).toEqual({
      total: start.total + 3,
      active: start.active,
      inactive: start.inactive + 3,
      blocked: start.blocked,
      joinedToday: start.joinedToday + 3,
    });

    await setUser(a, { status: 'block' });
    const afterBlock = await counts();
    expect(afterBlock).toEqual({ ...afterJoin, blocked: afterJoin.blocked + 1 });

    await setUser(b, { is_active: 'active' });
    const afterActivate = await counts();
    expect(afterActivate).toEqual({
      ...afterBlock,
      active: afterBlock.active + 1,
      inactive: afterBlock.inactive - 1,
    });

    const yesterday = new Date(Date.now() - 36 * 60 * 60 * 1000).toISOString();
    await setUser(c, { created_at: yesterday });
    const afterBackdate = await counts();
    expect(afterBackdate).toEqual({ ...afterActivate, joinedToday: afterActivate.joinedToday - 1 });
  });
});
