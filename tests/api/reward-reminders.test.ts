import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REWARD_MESSAGES as M } from '../../src/shared/rewards.ts';
import { ApiClient, signedInAdminClient } from '../helpers/client.ts';
import {
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  workingCents,
} from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Reward reminders (docs/rules.md "Reward reminders", docs/api.md "Rewards"): the rewards a member
// reached and has not claimed (the spec's "defaulter"), every member's standing for admins, an admin's
// reminder to claim (a notification, one per member), and /rewards/initialize, which answers the
// ladder. None of them moves money.

let server: TestServer;
let admin: ApiClient;
let anon: ApiClient;
let top: Member; // team business 1,500: reaches Bronze and Silver, claims nothing
let mid: Member; // team business 1,100: reaches Bronze and claims it
let low: Member; // no team business
let bronze: string;
let silver: string;
const balances = () => Promise.all([top, mid, low].map((m) => workingCents(server, m.id)));
const reminders = async (m: Member) => {
  const res = await m.client.get(`/notifications/user/${m.id}`);
  expect(res.status).toBe(200);
  return (res.body.notifications as { title: string; message: string; link: string | null }[]).filter(
    (n) => n.title === M.reminderTitle,
  );
};

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  anon = new ApiClient(server.baseUrl);
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  top = await member(server, admin, undefined);
  mid = await member(server, admin, undefined);
  low = await member(server, admin, undefined);
  await buy(await member(server, admin, top, { business: '1500' }), planId, '1500');
  await buy(await member(server, admin, mid, { business: '1100' }), planId, '1100');
  const add = async (rank: string, business_needed: string, amount: string) => {
    const res = await admin.post('/rewards', { rank, business_needed, amount });
    expect(res.status, res.text).toBe(201);
    return res.body.reward.id as string;
  };
  bronze = await add('Bronze', '1000', '50');
  silver = await add('Silver', '1200', '80');
  await add('Gold', '5000', '250');
  expect((await mid.client.post(`/rewards/user/claim/${mid.id}`, { reward_id: bronze })).status).toBe(201);
});
afterAll(async () => server?.stop());

describe('GET /users/get/defaulterreward/{id}', () => {
  it('lists the rewards reached and not claimed, to the member and to admins only', async () => {
    const own = await top.client.get(`/users/get/defaulterreward/${top.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      rewards: [
        { id: bronze, rank: 'Bronze', amount: '50.00', business_needed: '1000.00' },
        { id: silver, rank: 'Silver', amount: '80.00', business_needed: '1200.00' },
      ],
      count: 2,
    });
    expect((await mid.client.get(`/users/get/defaulterreward/${mid.id}`)).body).toEqual({
      rewards: [],
      count: 0,
    });
    expect((await admin.get(`/users/get/defaulterreward/${top.id}`)).body.count).toBe(2);
    expect((await low.client.get(`/users/get/defaulterreward/${top.id}`)).status).toBe(404);
    expect((await admin.get('/users/get/defaulterreward/no-such-member')).status).toBe(404);
    expect((await anon.get(`/users/get/defaulterreward/${top.id}`)).status).toBe(401);
  });
});

describe('GET /users/rewards', () => {
  it('shows admins every member who reached a reward, by team business', async () => {
    const res = await admin.get('/users/rewards');
    expect(res.status).toBe(200);
    expect(res.body.members).toEqual([
      {
        id: top.id,
        username: top.username,
        fullname: expect.any(String),
        team_business: '1500.00',
        reached: 2,
        claimed: 0,
        unclaimed: 2,
        unclaimed_ranks: ['Bronze', 'Silver'],
      },
      expect.objectContaining({
        id: mid.id,
        team_business: '1100.00',
        reached: 1,
        claimed: 1,
        unclaimed: 0,
        unclaimed_ranks: [],
      }),
    ]);
    expect((await top.client.get('/users/rewards')).status).toBe(403);
    expect((await anon.get('/users/rewards')).status).toBe(401);
  });
});

describe('POST /users/send/reward', () => {
  it('is for admins only, and refuses bad input', async () => {
    expect((await anon.post('/users/send/reward', {})).status).toBe(401);
    expect((await top.client.post('/users/send/reward', {})).status).toBe(403);
    const notList = await admin.post('/users/send/reward', { user_ids: 'everyone' });
    expect(notList.status).toBe(400);
    expect(notList.body.errors[0]).toMatchObject({ field: 'user_ids' });
    const unknown = await admin.post('/users/send/reward', { user_ids: [top.id, 'no-such-member'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'user_ids', message: M.userIdsUnknown }]);
    expect(await reminders(top)).toEqual([]);
  });

  it('reminds only the chosen members who have rewards to claim', async () => {
    const res = await admin.post('/users/send/reward', { user_ids: [mid.id, low.id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: 'Reward reminders sent to 0 members', sent: 0 });
    expect(await reminders(mid)).toEqual([]);
    expect(await reminders(top)).toEqual([]);
  });

  it('reminds every member with rewards to claim, once per member, listing the ranks, and moves no money', async () => {
    const before = await balances();
    const key = { 'Idempotency-Key': 'remind-claimers-1' };
    const first = await admin.post('/users/send/reward', undefined, key);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ message: 'Reward reminders sent to 1 members', sent: 1 });
    const again = await admin.post('/users/send/reward', undefined, key);
    expect(again.body).toEqual(first.body);
    const got = await reminders(top);
    expect(got).toEqual([
      expect.objectContaining({
        message: 'You have reached Bronze, Silver: claim your reward on the Rewards screen',
        link: '/user/rewards',
      }),
    ]);
    expect(await reminders(mid)).toEqual([]);
    expect(await reminders(low)).toEqual([]);
    const audit = await admin.get('/audit');
    expect(audit.body.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'reward.remind',
          after: { sent: 1, members: [{ id: top.id, ranks: ['Bronze', 'Silver'] }] },
        }),
      ]),
    );
    expect(await balances()).toEqual(before);
    await expectBooksBalanced(admin);
  });
});

describe('POST /rewards/initialize', () => {
  it("answers the member's ladder as GET /rewards/user/{id} does, and moves nothing", async () => {
    const before = await balances();
    const ladder = await top.client.get(`/rewards/user/${top.id}`);
    const init = await top.client.post('/rewards/initialize', { user_id: top.id });
    expect(init.status).toBe(200);
    expect(init.body).toEqual(ladder.body);
    expect((await admin.post('/rewards/initialize', { user_id: top.id })).body).toEqual(ladder.body);
    expect((await low.client.post('/rewards/initialize', { user_id: top.id })).status).toBe(404);
    expect((await anon.post('/rewards/initialize', { user_id: top.id })).status).toBe(401);
    const missing = await top.client.post('/rewards/initialize', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'user_id', message: M.userIdRequired }]);
    expect(await balances()).toEqual(before);
    expect((await top.client.get(`/users/get/defaulterreward/${top.id}`)).body.count).toBe(2);
  });
});

describe('GET /users/non/users', () => {
  it('lists admins the members who never invested, newest first, a page at a time', async () => {
    const all = await admin.get('/users/non/users');
    expect(all.status).toBe(200);
    // top, mid and low never bought a plan themselves; the members under them did.
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 20, total_pages: 1 });
    expect(all.body.allnonusers.map((u: { id: string }) => u.id)).toEqual([low.id, mid.id, top.id]);
    expect(all.body.allnonusers[0]).toEqual({
      id: low.id,
      username: low.username,
      fullname: expect.any(String),
      email: expect.stringContaining('@'),
      joined: expect.any(String),
    });
    const second = await admin.get('/users/non/users?page=2&limit=2');
    expect(second.body).toMatchObject({ total: 3, page: 2, limit: 2, total_pages: 2 });
    expect(second.body.allnonusers.map((u: { id: string }) => u.id)).toEqual([top.id]);
    const bad = await admin.get('/users/non/users?page=0&limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'page']);
    expect((await top.client.get('/users/non/users')).status).toBe(403);
    expect((await anon.get('/users/non/users')).status).toBe(401);
  });
});
