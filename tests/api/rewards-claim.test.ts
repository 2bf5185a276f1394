import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REWARD_MESSAGES as M } from '../../src/shared/rewards.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import {
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  workingCents,
} from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The reward ladder and claims (issue 17 item 2, RULES.md "Rewards", API.md "Team and rewards"): an
// admin keeps the ladder; a member whose team business reaches a rung claims its reward once into
// Income Working (a second claim, even a concurrent one, is a 409 and pays nothing); a GET only shows.

let server: TestServer;
let admin: ApiClient;
let top: Member;
let bronze: string;
let silver: string;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  top = await member(server, admin, undefined);
  const down = await member(server, admin, top, { business: '1500' });
  await buy(down, planId, '1500'); // top's team business: 1,500.00
  const add = async (rank: string, business_needed: string, amount: string) => {
    const res = await admin.post('/rewards', { rank, business_needed, amount });
    expect(res.status, res.text).toBe(201);
    return res.body.reward.id as string;
  };
  silver = await add('Silver', '5000', '250');
  bronze = await add('Bronze', '1000', '50');
});
afterAll(async () => server?.stop());

describe('reward plans', () => {
  it('lets admins keep the ladder, by business needed, and nobody else', async () => {
    const list = await top.client.get('/rewards');
    expect(list.body.rewards.map((r: { rank: string }) => r.rank)).toEqual(['Bronze', 'Silver']);
    expect(list.body.rewards[0]).toMatchObject({ business_needed: '1000.00', amount: '50.00' });
    expect(
      (await top.client.post('/rewards', { rank: 'Gold', business_needed: '1', amount: '1' })).status,
    ).toBe(403);
    const dup = await admin.post('/rewards', { rank: 'Bronze', business_needed: '2', amount: '1' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(M.rankTaken);
    const bad = await admin.post('/rewards', { rank: ' ', business_needed: '0', amount: 'x' });
    expect(bad.status).toBe(400);
    expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual([
      'amount',
      'business_needed',
      'rank',
    ]);
    const temp = await admin.post('/rewards', { rank: 'Temp', business_needed: '99999', amount: '1' });
    const nothing = await admin.put(`/rewards/${temp.body.reward.id}`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors).toEqual([{ field: 'rank', message: M.nothingToChange }]);
    expect((await admin.put('/rewards/no-such-reward', { amount: '1' })).status).toBe(404);
    const changed = await admin.put(`/rewards/${temp.body.reward.id}`, { amount: '2.50' });
    expect(changed.body.reward).toMatchObject({ rank: 'Temp', amount: '2.50' });
    expect((await admin.request('DELETE', `/rewards/${temp.body.reward.id}`)).status).toBe(200);
    expect((await admin.request('DELETE', `/rewards/${temp.body.reward.id}`)).status).toBe(404);
  });
});

describe('claims', () => {
  it('shows the ladder as the member stands on it, and a GET moves nothing', async () => {
    const before = await workingCents(server, top.id);
    const res = await top.client.get(`/rewards/user/claim/${top.id}`);
    expect(res.status).toBe(200);
    expect(res.body.team_business).toBe('1500.00');
    expect(
      res.body.rewards.map((r: { rank: string; reached: boolean; claimed: boolean }) => [
        r.rank,
        r.reached,
        r.claimed,
      ]),
    ).toEqual([
      ['Bronze', true, false],
      ['Silver', false, false],
    ]);
    expect(res.body.next).toEqual({ id: silver, rank: 'Silver', business_left: '3500.00' });
    expect(await workingCents(server, top.id)).toBe(before);
    expect((await top.client.get(`/rewards/user/business/${top.id}`)).body).toEqual({
      team_business: '1500.00',
    });
  });

  it('pays a reached reward once, even to concurrent claims, and refuses one not reached', async () => {
    const before = await workingCents(server, top.id);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        top.client.post(`/rewards/user/claim/${top.id}`, { reward_id: bronze }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.find((a) => a.status === 201)?.body).toEqual({ message: 'Reward claimed successfully!' });
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.message)).toEqual(
      Array(4).fill(M.alreadyClaimed),
    );
    expect(await workingCents(server, top.id)).toBe(before + 5_000);
    const notYet = await top.client.post(`/rewards/user/claim/${top.id}`, { reward_id: silver });
    expect(notYet.status).toBe(422);
    expect(notYet.body.message).toBe(M.notReached);
    const ladder = (await top.client.get(`/rewards/user/${top.id}`)).body.rewards;
    expect(ladder[0]).toMatchObject({ rank: 'Bronze', claimed: true, claimed_at: expect.any(String) });
    // A claimed reward stays in the ladder.
    expect((await admin.request('DELETE', `/rewards/${bronze}`)).status).toBe(409);
    const claims = await admin.get('/rewards/claims');
    expect(claims.body.claims).toEqual([
      expect.objectContaining({ user_id: top.id, rank: 'Bronze', amount: '50.00', team_business: '1500.00' }),
    ]);
    const tx = await top.client.get(`/tr/user/${top.id}?transaction_type=reward`);
    expect(tx.body.transactions).toEqual([
      expect.objectContaining({ transaction_type: 'reward', amount: '50.00' }),
    ]);
    await expectBooksBalanced(admin);
  });

  it('keeps members to their own rewards', async () => {
    const other = await member(server, admin, undefined);
    expect((await other.client.get(`/rewards/user/${top.id}`)).status).toBe(404);
    expect((await other.client.post(`/rewards/user/claim/${top.id}`, { reward_id: bronze })).status).toBe(
      404,
    );
    const noBusiness = await other.client.post(`/rewards/user/claim/${other.id}`, { reward_id: bronze });
    expect(noBusiness.status).toBe(422);
    expect((await admin.get(`/rewards/user/${top.id}`)).status).toBe(200);
    expect((await other.client.get('/rewards/claims')).status).toBe(403);
  });
});

describe('carry-forward', () => {
  it('carries the business beyond the last reached reward toward the next one, and moves nothing', async () => {
    const before = await workingCents(server, top.id);
    const standing = (await top.client.get(`/rewards/user/${top.id}`)).body;
    expect(standing.carried_forward).toEqual({ from_rank: 'Bronze', to_rank: 'Silver', amount: '500.00' });
    const res = await top.client.put(`/rewards/carry-forward/${top.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      message: 'Carry forward successful',
      carry_forward: { from_rank: 'Bronze', to_rank: 'Silver', amount: '500.00' },
    });
    // Again: the same answer, no money and no claim.
    expect((await top.client.put(`/rewards/carry-forward/${top.id}`)).body).toEqual(res.body);
    expect(await workingCents(server, top.id)).toBe(before);
    expect((await top.client.get(`/rewards/user/${top.id}`)).body.next).toEqual({
      id: silver,
      rank: 'Silver',
      business_left: '3500.00',
    });
    // An admin may ask for a member; another member may not; a PUT without CSRF is refused.
    expect((await admin.put(`/rewards/carry-forward/${top.id}`)).body.carry_forward.amount).toBe('500.00');
    const other = await member(server, admin, undefined);
    expect((await other.client.put(`/rewards/carry-forward/${top.id}`)).status).toBe(404);
    expect(
      (await top.client.request('PUT', `/rewards/carry-forward/${top.id}`, { csrf: false })).status,
    ).toBe(403);
  });

  it('has nothing to carry before the first reward and after the last', async () => {
    const fresh = await member(server, admin, undefined);
    const none = await fresh.client.put(`/rewards/carry-forward/${fresh.id}`);
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(M.carryNothingReached);
    expect((await fresh.client.get(`/rewards/user/${fresh.id}`)).body.carried_forward).toBeNull();

    const leader = await member(server, admin, undefined);
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const down = await member(server, admin, leader, { business: '6000' });
    await buy(down, planId, '6000'); // beyond Silver, the top of the ladder
    const past = await leader.client.put(`/rewards/carry-forward/${leader.id}`);
    expect(past.status).toBe(422);
    expect(past.body.message).toBe(M.carryTopReached);
    const standing = (await leader.client.get(`/rewards/user/${leader.id}`)).body;
    expect(standing.carried_forward).toBeNull();
    expect(standing.next).toBeNull();
  });
});
