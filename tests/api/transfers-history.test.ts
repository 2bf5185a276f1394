import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { publicUserSchema, USER_MESSAGES } from '../../src/shared/users.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /transfer/byid/{id} (spec 3 "Transfer history response", API.md), GET /transfer/list (admin),
// GET /users/{id} (singleuser) and PUT /users/{id} (admin: account flags, audited).
// Members in this file: 11.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (await admin.get('/auth/session')).body.admin.id;
  expect(adminId).toEqual(expect.any(String));
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof fundedMember>>;
type Transfer = { id: string; status: string; amount: string; created_at: string };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends and returns the new transfer; a short pause keeps created_at strictly increasing. */
const send = async (
  from: Member,
  to: Member,
  amount: string,
  extra: Record<string, unknown> = {},
): Promise<Transfer> => {
  await pause(3);
  const res = await from.client.post('/transfer/touser', {
    userto_id: to.auth.id,
    amount,
    from: 'business',
    to: 'business',
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.transfer;
};

const decide = async (id: string, status: 'completed' | 'failed') => {
  const res = await admin.put(`/transfer/${id}/status`, { status });
  expect(res.status, res.text).toBe(200);
};

const historyOf = async (client: ApiClient, id: string) => {
  const res = await client.get(`/transfer/byid/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const ids = (list: { id: string }[]) => list.map((t) => t.id);

const balanceOf = async (client: ApiClient) => {
  const res = await client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

describe('GET /transfer/byid/{id}', () => {
  let m: Member;
  let n: Member;
  let nosy: Member;
  let t1: Transfer;
  let t2: Transfer;
  let t3: Transfer;
  let t4: Transfer;
  beforeAll(async () => {
    m = await fundedMember(server.baseUrl, admin, { business: '20000.00' });
    n = await fundedMember(server.baseUrl, admin, { business: '50.00' });
    nosy = await fundedMember(server.baseUrl, admin, { business: '5.00' });
    t1 = await send(m, n, '10.00', { desc: 'Lunch' }); // completed
    t2 = await send(m, n, '6000.00', { to: 'working' }); // pending
    t3 = await send(m, n, '7000.00'); // pending, then rejected: failed
    t4 = await send(n, m, '3.00', { to: 'working' }); // completed
    await decide(t3.id, 'failed');
  });

  it('gives a member their outgoing, incoming and all transfers, newest first', async () => {
    const history = await historyOf(m.client, m.auth.id);
    expect(Object.keys(history).sort()).toEqual(['stats', 'transfers']);
    expect(Object.keys(history.transfers).sort()).toEqual(['all', 'incoming', 'outgoing']);
    expect(ids(history.transfers.outgoing)).toEqual([t3.id, t2.id, t1.id]);
    expect(ids(history.transfers.incoming)).toEqual([t4.id]);
    expect(ids(history.transfers.all)).toEqual([t4.id, t3.id, t2.id, t1.id]);
    const all = history.transfers.all as Transfer[];
    const times = all.map((t) => Date.parse(t.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // Each entry is the API.md Transfer object with its current status.
    expect(history.transfers.outgoing[2]).toEqual({
      id: t1.id,
      amount: '10.00',
      description: 'Lunch',
      created_at: t1.created_at,
      status: 'completed',
      sender_name: m.member.fullname,
      sender_email: m.member.email,
      recipient_name: n.member.fullname,
      recipient_email: n.member.email,
      from: 'business',
      to: 'business',
    });
    expect(all.map((t) => [t.amount, t.status])).toEqual([
      ['3.00', 'completed'],
      ['7000.00', 'failed'],
      ['6000.00', 'pending'],
      ['10.00', 'completed'],
    ]);
    expect(history.transfers.incoming[0]).toMatchObject({
      sender_email: n.member.email,
      recipient_email: m.member.email,
      to: 'working',
    });

    // The recipient sees the same transfers from the other side.
    const other = await historyOf(n.client, n.auth.id);
    expect(ids(other.transfers.outgoing)).toEqual([t4.id]);
    expect(ids(other.transfers.incoming)).toEqual([t3.id, t2.id, t1.id]);
    expect(other.transfers.incoming).toEqual(history.transfers.outgoing);
  });

  it('counts pending and completed transfers in the stats, not failed ones, under the spec’s field names', async () => {
    const mine = await historyOf(m.client, m.auth.id);
    expect(mine.stats).toEqual({
      total_outgoing: 2,
      total_incoming: 1,
      total_sent_amount: '6010.00',
      total_received_amount: '3.00',
      pending_outgoing: 1,
      pending_incoming: 0,
      completed_outgoing: 1,
      completed_incoming: 1,
      // Nothing in the 30 days before the last 30: no trend to show.
      trends: { sent: null, received: null, transfers: null },
    });
    const theirs = await historyOf(n.client, n.auth.id);
    expect(theirs.stats).toEqual({
      total_outgoing: 1,
      total_incoming: 2,
      total_sent_amount: '3.00',
      total_received_amount: '6010.00',
      pending_outgoing: 0,
      pending_incoming: 1,
      completed_outgoing: 1,
      completed_incoming: 1,
      trends: { sent: null, received: null, transfers: null },
    });
  });

  it('follows a decision: an approved transfer moves from pending to completed', async () => {
    await decide(t2.id, 'completed');
    const mine = await historyOf(m.client, m.auth.id);
    expect(mine.transfers.outgoing.find((t: Transfer) => t.id === t2.id).status).toBe('completed');
    expect(mine.stats).toMatchObject({
      total_outgoing: 2,
      total_sent_amount: '6010.00',
      pending_outgoing: 0,
      completed_outgoing: 2,
    });
    const theirs = await historyOf(n.client, n.auth.id);
    expect(theirs.stats).toMatchObject({ pending_incoming: 0, completed_incoming: 2, total_incoming: 2 });
  });

  it('answers another member’s id, an admin’s id and an unknown id with 404 for a member', async () => {
    for (const id of [m.auth.id, n.auth.id, adminId, randomUUID()]) {
      const res = await nosy.client.get(`/transfer/byid/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.text).not.toContain(m.member.email);
    }
    // Their own (empty) history is fine.
    const own = await historyOf(nosy.client, nosy.auth.id);
    expect(own.transfers).toEqual({ outgoing: [], incoming: [], all: [] });
    expect(own.stats).toMatchObject({ total_outgoing: 0, total_incoming: 0, total_sent_amount: '0.00' });
    const visitor = await new ApiClient(server.baseUrl).get(`/transfer/byid/${m.auth.id}`);
    expect(visitor.status).toBe(401);
    expect(visitor.body).toEqual({ message: GENERIC.notSignedIn });
  });

  it('lets an admin read any member’s history (the same view), and answers a non-member id with 404', async () => {
    expect(await historyOf(admin, m.auth.id)).toEqual(await historyOf(m.client, m.auth.id));
    expect(await historyOf(admin, n.auth.id)).toEqual(await historyOf(n.client, n.auth.id));
    for (const id of [randomUUID(), adminId]) {
      const res = await admin.get(`/transfer/byid/${id}`);
      expect(res.status, id).toBe(404);
    }
  });

  it('computes real trends against the previous 30 days, ignoring anything older than 60', async () => {
    // Two transfers from before the app's history in this test: 45 days ago (counts as the previous
    // period) and 70 days ago (older than both periods). Written as balanced ledger rows.
    const old = async (days: number, cents: number) => {
      await server.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('ledger_transfers')
          .values({
            id: randomUUID(),
            debit_account_id: `${m.auth.id}:business`,
            credit_account_id: `${n.auth.id}:business`,
            amount_cents: cents,
            phase: 'single',
            pending_id: null,
            kind: 'transfer',
            reference: `transfer:${m.auth.id}`,
            description: 'Earlier',
            created_by: m.auth.id,
            created_at: new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString(),
          })
          .execute();
        for (const [id, delta] of [
          [`${m.auth.id}:business`, -cents],
          [`${n.auth.id}:business`, cents],
        ] as const) {
          const row = await trx
            .selectFrom('ledger_accounts')
            .select('balance_cents')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          await trx
            .updateTable('ledger_accounts')
            .set({ balance_cents: Number(row.balance_cents) + delta })
            .where('id', '=', id)
            .execute();
        }
      });
    };
    await old(45, 10_000);
    await old(70, 99_900);
    await expectBalanced();

    const mine = await historyOf(m.client, m.auth.id);
    // Sent: 6,010.00 now against 100.00 before: +5,910.0%. Received: nothing before. Transfers: 3 against 1.
    expect(mine.stats.trends).toEqual({ sent: 5910, received: null, transfers: 200 });
    // The old transfers are listed (last), and count in the totals like any other.
    expect(mine.transfers.all).toHaveLength(6);
    expect(mine.stats.total_sent_amount).toBe('7109.00');
    const theirs = await historyOf(n.client, n.auth.id);
    expect(theirs.stats.trends).toEqual({ sent: null, received: 5910, transfers: 200 });
  });
});

describe('GET /transfer/list', () => {
  let all: Transfer[];
  beforeAll(async () => {
    const a = await fundedMember(server.baseUrl, admin, { business: '30000.00' });
    const b = await fundedMember(server.baseUrl, admin);
    await send(a, b, '1.00');
    const pending = await send(a, b, '5000.00');
    await send(a, b, '2.00');
    const rejected = await send(a, b, '5000.00');
    await send(b, a, '0.50');
    await decide(rejected.id, 'failed');
    expect(pending.status).toBe('pending');
    const res = await admin.get('/transfer/list?limit=200');
    expect(res.status).toBe(200);
    all = res.body.alltransfer;
  });

  it('lists every member transfer newest first for an admin, 50 a page by default', async () => {
    const res = await admin.get('/transfer/list');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ alltransfer: all.slice(0, 50), total: all.length, page: 1, limit: 50 });
    // At least the 5 transfers above plus those of the history tests.
    expect(all.length).toBeGreaterThanOrEqual(5);
    const times = all.map((t) => Date.parse(t.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(all[0]).toMatchObject({ amount: '0.50', status: 'completed' });
    // Each entry is the API.md Transfer object, nothing more.
    for (const t of all)
      expect(Object.keys(t).sort()).toEqual(
        [
          'amount',
          'created_at',
          'description',
          'from',
          'id',
          'recipient_email',
          'recipient_name',
          'sender_email',
          'sender_name',
          'status',
          'to',
        ].sort(),
      );
  });

  it('pages with page and limit', async () => {
    const page1 = await admin.get('/transfer/list?page=1&limit=2');
    const page2 = await admin.get('/transfer/list?page=2&limit=2');
    expect(page1.body).toEqual({ alltransfer: all.slice(0, 2), total: all.length, page: 1, limit: 2 });
    expect(page2.body).toEqual({ alltransfer: all.slice(2, 4), total: all.length, page: 2, limit: 2 });
    const beyond = await admin.get(`/transfer/list?page=${all.length + 1}&limit=1`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ alltransfer: [], total: all.length, page: all.length + 1, limit: 1 });
  });

  it('filters by status', async () => {
    let sum = 0;
    for (const status of ['pending', 'completed', 'failed']) {
      const res = await admin.get(`/transfer/list?status=${status}&limit=200`);
      expect(res.status).toBe(200);
      const expected = all.filter((t) => t.status === status);
      expect(expected.length, status).toBeGreaterThan(0);
      expect(res.body).toEqual({ alltransfer: expected, total: expected.length, page: 1, limit: 200 });
      sum += res.body.total;
    }
    expect(sum).toBe(all.length);
    const paged = await admin.get('/transfer/list?status=completed&page=2&limit=1');
    expect(paged.body.alltransfer).toEqual(all.filter((t) => t.status === 'completed').slice(1, 2));
  });

  it('refuses bad queries with 400', async () => {
    for (const query of ['status=approved', 'page=0', 'page=1.5', 'limit=0', 'limit=201', 'limit=ten']) {
      const res = await admin.get(`/transfer/list?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errors?.length, query).toBeGreaterThan(0);
    }
  });

  it('is for admins only: a member gets 403, a visitor 401', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const member = await client.get('/transfer/list');
    expect(member.status).toBe(403);
    expect(member.body).toEqual({ message: GENERIC.forbidden });
    const visitor = await new ApiClient(server.baseUrl).get('/transfer/list');
    expect(visitor.status).toBe(401);
  });
});

describe('GET /users/{id}', () => {
  it('gives a member their own singleuser record with their balance, and 404 for anyone else', async () => {
    const me = await fundedMember(server.baseUrl, admin, { business: '12.34', working: '0.66' });
    const other = await fundedMember(server.baseUrl, admin);
    const res = await me.client.get(`/users/${me.auth.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['singleuser']);
    const user = res.body.singleuser;
    expect(Object.keys(user).sort()).toEqual([...Object.keys(publicUserSchema.entries), 'balance'].sort());
    expect(user).toMatchObject({
      id: me.auth.id,
      username: me.member.username,
      email: me.member.email,
      fullname: me.member.fullname,
      role: 'user',
      status: 'unblock',
      is_active: 'active',
      balance: { business: '12.34', working: '0.66' },
    });
    expect(user.balance).toEqual(await balanceOf(me.client));
    expect(res.text).not.toMatch(/password/i);

    for (const id of [other.auth.id, adminId, randomUUID()]) {
      const refused = await me.client.get(`/users/${id}`);
      expect(refused.status, id).toBe(404);
      expect(refused.body).toEqual({ message: USER_MESSAGES.noMember });
    }
    expect((await new ApiClient(server.baseUrl).get(`/users/${me.auth.id}`)).status).toBe(401);
  });

  it('lets an admin read any member (with balance) and admin record (without)', async () => {
    const member = await fundedMember(server.baseUrl, admin, { working: '7.00' });
    const res = await admin.get(`/users/${member.auth.id}`);
    expect(res.status).toBe(200);
    expect(res.body.singleuser).toMatchObject({
      id: member.auth.id,
      email: member.member.email,
      balance: { business: '0.00', working: '7.00' },
    });
    expect(res.body).toEqual((await member.client.get(`/users/${member.auth.id}`)).body);
    const self = await admin.get(`/users/${adminId}`);
    expect(self.status).toBe(200);
    expect(self.body.singleuser).toMatchObject({ id: adminId, role: 'admin' });
    expect(self.body.singleuser.balance).toBeUndefined();
    expect((await admin.get(`/users/${randomUUID()}`)).status).toBe(404);
  });
});

describe('PUT /users/{id}', () => {
  let target: Member;
  beforeAll(async () => {
    target = await fundedMember(server.baseUrl, admin, { business: '40.00', working: '2.50' });
  });

  const accountsOf = (userId: string) =>
    server.db
      .selectFrom('ledger_accounts')
      .select(['id', 'balance_cents', 'held_cents'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  const userRow = (userId: string) =>
    server.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const auditRows = (userId: string) =>
    server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', userId)
      .where('action', '=', 'user.update')
      .orderBy('created_at')
      .execute();

  it('refuses to change the role with 400, and changes nothing else sent with it', async () => {
    const before = await userRow(target.auth.id);
    const audits = (await auditRows(target.auth.id)).length;
    for (const body of [{ role: 'admin' }, { role: 'user' }, { role: 'admin', status: 'block' }]) {
      const res = await admin.put(`/users/${target.auth.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toContainEqual({ field: 'role', message: USER_MESSAGES.roleLocked });
    }
    expect(await userRow(target.auth.id)).toEqual(before);
    expect(await auditRows(target.auth.id)).toHaveLength(audits);
    expect((await target.client.get('/auth/session')).body.auth.role).toBe('user');
  });

  it('refuses values outside each field’s choices, and an empty change, with 400', async () => {
    const before = await userRow(target.auth.id);
    for (const [body, field] of [
      [{ status: 'frozen' }, 'status'],
      [{ status: 'BLOCK' }, 'status'],
      [{ is_active: 'yes' }, 'is_active'],
      [{ roi_status: 'opened' }, 'roi_status'],
      [{ level_status: true }, 'level_status'],
    ] as const) {
      const res = await admin.put(`/users/${target.auth.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const empty = await admin.put(`/users/${target.auth.id}`, { updated_at: new Date().toISOString() });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(USER_MESSAGES.nothingToChange);
    expect(await userRow(target.auth.id)).toEqual(before);
  });

  it('is for admins only (a member gets 403, even on themself), and 404 for a non-member', async () => {
    const before = await userRow(target.auth.id);
    const own = await target.client.put(`/users/${target.auth.id}`, { roi_status: 'close' });
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: GENERIC.forbidden });
    const visitor = await new ApiClient(server.baseUrl).put(`/users/${target.auth.id}`, { status: 'block' });
    expect(visitor.status).toBe(401);
    expect(await userRow(target.auth.id)).toEqual(before);
    for (const id of [randomUUID(), adminId]) {
      const res = await admin.put(`/users/${id}`, { status: 'block' });
      expect(res.status, id).toBe(404);
    }
    // The admin was not blocked by that.
    expect((await admin.get('/auth/session')).status).toBe(200);
  });

  it('changes the flags, moves updated_at and writes an audit row with before and after', async () => {
    const before = await userRow(target.auth.id);
    await pause(5);
    const res = await admin.put(`/users/${target.auth.id}`, {
      roi_status: 'close',
      level_status: 'close',
      updated_at: '2000-01-01T00:00:00.000Z',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: USER_MESSAGES.updated });
    const read = (await admin.get(`/users/${target.auth.id}`)).body.singleuser;
    expect(read).toMatchObject({ roi_status: 'close', level_status: 'close', status: 'unblock' });
    // The server sets updated_at; the client's value is not trusted.
    expect(Date.parse(read.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(Math.abs(Date.now() - Date.parse(read.updated_at))).toBeLessThan(60_000);
    const audits = await auditRows(target.auth.id);
    const last = audits[audits.length - 1];
    expect(last).toMatchObject({ actor_id: adminId, target_type: 'user', action: 'user.update' });
    expect(JSON.parse(last?.before_json ?? 'null')).toEqual({ roi_status: 'open', level_status: 'open' });
    expect(JSON.parse(last?.after_json ?? 'null')).toEqual({ roi_status: 'close', level_status: 'close' });
    // Still signed in: only a block ends sessions.
    expect((await target.client.get('/auth/session')).status).toBe(200);
  });

  it('blocks a member: their sessions end at once, sign-in is refused, no wallet moves; unblocking restores access', async () => {
    const phone = new ApiClient(server.baseUrl);
    await phone.signIn(target.member);
    const accounts = await accountsOf(target.auth.id);
    const ledgerRows = await server.db.selectFrom('ledger_transfers').select('id').execute();
    const before = await userRow(target.auth.id);
    await pause(5);

    const res = await admin.put(`/users/${target.auth.id}`, { status: 'block' });
    expect(res.status, res.text).toBe(200);
    for (const client of [target.client, phone]) {
      const session = await client.get('/auth/session');
      expect(session.status).toBe(401);
      expect((await client.get('/wallet/balance')).status).toBe(401);
    }
    const left = await server.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', target.auth.id)
      .execute();
    expect(left).toEqual([]);
    const again = await new ApiClient(server.baseUrl).post('/auth/signin', target.member);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ message: AUTH.blocked });

    const after = await userRow(target.auth.id);
    expect(after.status).toBe('block');
    expect(after.updated_at > before.updated_at).toBe(true);
    const audits = await auditRows(target.auth.id);
    const last = audits[audits.length - 1];
    expect(last).toMatchObject({ actor_id: adminId, action: 'user.update' });
    expect(JSON.parse(last?.before_json ?? 'null')).toEqual({ status: 'unblock' });
    expect(JSON.parse(last?.after_json ?? 'null')).toEqual({ status: 'block' });
    expect(await accountsOf(target.auth.id)).toEqual(accounts);
    expect(await server.db.selectFrom('ledger_transfers').select('id').execute()).toEqual(ledgerRows);
    const viewed = (await admin.get(`/users/${target.auth.id}`)).body.singleuser;
    expect(viewed).toMatchObject({ status: 'block', balance: { business: '40.00', working: '2.50' } });

    expect((await admin.put(`/users/${target.auth.id}`, { status: 'unblock' })).status).toBe(200);
    const back = new ApiClient(server.baseUrl);
    await back.signIn(target.member);
    expect(await balanceOf(back)).toEqual({ business: '40.00', working: '2.50' });
    // The old cookies stay dead.
    expect((await target.client.get('/auth/session')).status).toBe(401);
    await expectBalanced();
  });

  it('deactivates a member, who then cannot send transfers', async () => {
    const recipient = await fundedMember(server.baseUrl, admin);
    const res = await admin.put(`/users/${target.auth.id}`, { is_active: 'inactive' });
    expect(res.status).toBe(200);
    const client = new ApiClient(server.baseUrl);
    await client.signIn(target.member);
    const refused = await client.post('/transfer/touser', {
      userto_id: recipient.auth.id,
      amount: '1.00',
      from: 'business',
      to: 'business',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: TRANSFER_MESSAGES.senderInactive });
    expect((await admin.get(`/users/${target.auth.id}`)).body.singleuser.is_active).toBe('inactive');
  });
});
