import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillTeamTotals } from '../../src/server/db/migrations/0024-team-totals.ts';
import { addDays } from '../../src/shared/dates.ts';
import { monthBefore } from '../../src/shared/salary.ts';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { backdate, createPlan, expectBooksBalanced, runDate, today } from '../helpers/income.ts';
import { moveIntoMonth } from '../helpers/salary.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { accountCents, credit, type Payee, payee, TX_HASH, withdrawalCode } from '../helpers/withdrawals.ts';

// The other three kinds (RULES.md "Withdrawals"): ROI withdrawal takes ROI one investment has paid
// and not yet withdrawn; principal withdrawal takes the whole principal of a matured investment from
// the member's invested account; compound turns Income Working money into a new investment. All hold
// at once and are decided exactly once, with the same limits.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50', TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const cents = (id: string) => accountCents(server.db, id);

/** A member's investment of `amount` in a 1%-a-day plan of `days`, bought `ago` days back, paid up to yesterday. */
async function investment(p: Payee, amount: string, days: number, ago: number): Promise<string> {
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: days });
  await credit(admin, p.id, amount, 'business');
  const bought = await p.client.post('/topup/add', { plan_id: planId, amount });
  expect(bought.status, bought.text).toBe(201);
  const id = bought.body.topup.id;
  const first = await backdate(server, id, ago);
  for (let date = first; date < today(); date = addDays(date, 1))
    expect((await runDate(admin, date)).status).toBe(200);
  return id;
}

describe('ROI withdrawal', () => {
  it('takes at most the ROI the investment has paid and not yet withdrawn', async () => {
    const p = await payee(server, admin, smtp);
    const topupId = await investment(p, '1000', 30, 3); // 3 days of $10
    const options = (await p.client.get('/withdrawalrequest/options')).body;
    expect(options.investments).toEqual([
      expect.objectContaining({
        topup_id: topupId,
        roi_paid: '30.00',
        roi_withdrawable: '30.00',
        matured: false,
      }),
    ]);
    const otp = await withdrawalCode(smtp, p);
    const url = '/withdrawalrequest/add/roiwithdrawal';
    const tooMuch = await p.client.post(url, { amount: '30.01', otp, topup_id: topupId }, p.from);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe(M.roiTooMuch('30.00'));
    const notMine = await p.client.post(url, { amount: '20', otp, topup_id: 'someone-else' }, p.from);
    expect(notMine.status).toBe(404);
    const res = await p.client.post(url, { amount: '20', otp, topup_id: topupId }, p.from);
    expect(res.status, res.text).toBe(201);
    expect(res.body.withdrawal).toMatchObject({
      kind: 'roi',
      topup_id: topupId,
      fee: '1.00',
      net_amount: '19.00',
    });
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 3_000, held: 2_000, available: 1_000 });
    const id = res.body.withdrawal.id;
    // Decided by the ROI call (and not by the principal one).
    const body = { status: 'approved', amount: '20', user_id: p.id, tx_hash: TX_HASH };
    expect((await admin.put(`/withdrawalrequest/update/principle/${id}`, body)).status).toBe(404);
    expect((await admin.put(`/withdrawalrequest/update/roi/${id}`, body)).status).toBe(200);
    const after = (await p.client.get('/withdrawalrequest/options')).body;
    expect(after.investments[0].roi_withdrawable).toBe('10.00');
    await expectBooksBalanced(admin);
  });
});

describe('Principal withdrawal', () => {
  it('takes the whole principal of a matured investment, once', async () => {
    const p = await payee(server, admin, smtp);
    const young = await investment(p, '500', 30, 1);
    const otp = await withdrawalCode(smtp, p);
    const url = '/withdrawalrequest/add/principle';
    const early = await p.client.post(url, { otp, topup_id: young }, p.from);
    expect(early.status).toBe(422);
    expect(early.body.message).toBe(M.notMatured);

    const old = await investment(p, '1000', 2, 4); // ended two days ago
    const options = (await p.client.get('/withdrawalrequest/options')).body;
    expect(options.investments.find((i: { topup_id: string }) => i.topup_id === old)).toMatchObject({
      matured: true,
      principal_withdrawable: true,
    });
    const invested = await cents(`${p.id}:invested`);
    expect(invested.balance).toBe(150_000);
    const res = await p.client.post(url, { otp, topup_id: old }, p.from);
    expect(res.status, res.text).toBe(201);
    expect(res.body.withdrawal).toMatchObject({
      kind: 'principal',
      amount: '1000.00',
      fee: '50.00',
      net_amount: '950.00',
    });
    expect(await cents(`${p.id}:invested`)).toEqual({ balance: 150_000, held: 100_000, available: 50_000 });
    const id = res.body.withdrawal.id;
    const approved = await admin.put(`/withdrawalrequest/update/principle/${id}`, {
      status: 'approved',
      amount: '1000',
      user_id: p.id,
      tx_hash: TX_HASH,
    });
    expect(approved.status, approved.text).toBe(200);
    expect(await cents(`${p.id}:invested`)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
    // Once: the same principal cannot be asked for again.
    const again = await p.client.post(url, { otp: await withdrawalCode(smtp, p), topup_id: old }, p.from);
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(M.principalTaken);
    await expectBooksBalanced(admin);
  });
});

describe('Principal withdrawal and team business', () => {
  it('takes the principal out of every team above at the request, back on a rejection or cancel; claimed rewards stay', async () => {
    const sponsor = await payee(server, admin, smtp);
    const { refferal_code } = await server.db
      .selectFrom('users')
      .select('refferal_code')
      .where('id', '=', sponsor.id)
      .executeTakeFirstOrThrow();
    const p = await payee(server, admin, smtp, { sponsorCode: refferal_code });
    const rung = await admin.post('/rewards', {
      rank: 'Principal rung',
      business_needed: '1000',
      amount: '5',
    });
    expect(rung.status, rung.text).toBe(201);
    const tier = { name: 'Principal tier', min_business: '1000', min_active_directs: 1, amount: '1' };
    expect((await admin.post('/salary/tiers', tier)).status).toBe(201);
    // Bought last month (so not new business this month), ended since.
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 2 });
    await credit(admin, p.id, '1000', 'business');
    const bought = await p.client.post('/topup/add', { plan_id: planId, amount: '1000' });
    expect(bought.status, bought.text).toBe(201);
    const topupId = bought.body.topup.id;
    await moveIntoMonth(server, topupId, monthBefore(new Date()));

    const ladder = async () => (await sponsor.client.get(`/rewards/user/claim/${sponsor.id}`)).body;
    const figures = async () => {
      const tree = (await admin.get(`/referral/full/${sponsor.id}?depth=1`)).body.tree;
      return [tree.team_business, tree.children[0].investment];
    };
    const qualifying = async () => (await admin.get('/salary/today-stats')).body.qualifying_members;
    expect((await ladder()).team_business).toBe('1000.00');
    const claim = await sponsor.client.post(`/rewards/user/claim/${sponsor.id}`, {
      reward_id: rung.body.reward.id,
    });
    expect(claim.status, claim.text).toBe(201);
    expect(await qualifying()).toBe(0);

    const url = '/withdrawalrequest/add/principle';
    const ask = async () => {
      const res = await p.client.post(url, { otp: await withdrawalCode(smtp, p), topup_id: topupId }, p.from);
      expect(res.status, res.text).toBe(201);
      return res.body.withdrawal.id as string;
    };
    // Requested: out of the member's investment and the sponsor's team business at once.
    const cancelled = await ask();
    expect(await figures()).toEqual(['0.00', '0.00']);
    expect((await p.client.request('DELETE', `/withdrawalrequest/${cancelled}`)).status).toBe(200);
    expect(await figures()).toEqual(['1000.00', '1000.00']);
    const rejected = await ask();
    expect(await figures()).toEqual(['0.00', '0.00']);
    const decision = { amount: '1000', user_id: p.id };
    const reject = { ...decision, status: 'rejected', reason: 'Not this time' };
    expect((await admin.put(`/withdrawalrequest/update/principle/${rejected}`, reject)).status).toBe(200);
    expect(await figures()).toEqual(['1000.00', '1000.00']);
    const paid = await ask();
    const approve = { ...decision, status: 'approved', tx_hash: TX_HASH };
    expect((await admin.put(`/withdrawalrequest/update/principle/${paid}`, approve)).status).toBe(200);
    expect(await figures()).toEqual(['0.00', '0.00']);
    // The rung claimed with that business stays claimed.
    const after = await ladder();
    expect(after.team_business).toBe('0.00');
    expect(after.rewards.find((r: { rank: string }) => r.rank === 'Principal rung')).toMatchObject({
      reached: false,
      claimed: true,
    });

    // The same dollars invested again count once, and are no new business this month (1,000.00 in,
    // 1,000.00 of principal out): no salary tier.
    await credit(admin, p.id, '1000', 'business');
    expect((await p.client.post('/topup/add', { plan_id: planId, amount: '1000' })).status).toBe(201);
    expect(await figures()).toEqual(['1000.00', '1000.00']);
    expect(await qualifying()).toBe(0);

    // The running totals equal what the backfill (migrations 0024 and 0033) computes from the data.
    const snapshot = () => server.db.selectFrom('team_totals').selectAll().orderBy('user_id').execute();
    const kept = await snapshot();
    await server.db.deleteFrom('team_totals').execute();
    await backfillTeamTotals(server.db as unknown as Kysely<unknown>);
    const computed = await snapshot();
    const plain = (rows: typeof kept) =>
      rows.map((r) => [
        r.user_id,
        Number(r.invested_cents),
        Number(r.team_business_cents),
        Number(r.team_size),
      ]);
    expect(plain(computed)).toEqual(plain(kept));
    await expectBooksBalanced(admin);
  });
});

describe('Principal of an investment paid by an activation code', () => {
  it('is never paid out for a promotional code (the default), and is for a paid one', async () => {
    const p = await payee(server, admin, smtp);
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 2 });
    const redeemed = async (funding?: string) => {
      const body = { plan_id: planId, amount: '100', count: 1, ...(funding ? { funding } : {}) };
      const made = await admin.post('/codes', body);
      expect(made.status, made.text).toBe(201);
      expect(made.body.codes[0].funding).toBe(funding ?? 'promotional');
      const res = await p.client.post('/codes/redeem', { code: made.body.codes[0].code });
      expect(res.status, res.text).toBe(201);
      await backdate(server, res.body.topup.id, 4); // ended two days ago
      return res.body.topup.id as string;
    };
    const promotional = await redeemed();
    const paid = await redeemed('paid');
    const options = (await p.client.get('/withdrawalrequest/options')).body.investments;
    const shown = (id: string) => options.find((i: { topup_id: string }) => i.topup_id === id);
    expect(shown(promotional)).toMatchObject({
      matured: true,
      promotional: true,
      principal_withdrawable: false,
    });
    expect(shown(paid)).toMatchObject({ matured: true, promotional: false, principal_withdrawable: true });

    const url = '/withdrawalrequest/add/principle';
    const otp = await withdrawalCode(smtp, p);
    const refused = await p.client.post(url, { otp, topup_id: promotional }, p.from);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(M.principalPromotional);
    expect(await cents(`${p.id}:invested`)).toEqual({ balance: 20_000, held: 0, available: 20_000 });
    const res = await p.client.post(url, { otp, topup_id: paid }, p.from);
    expect(res.status, res.text).toBe(201);
    expect(res.body.withdrawal).toMatchObject({ kind: 'principal', amount: '100.00', topup_id: paid });
    await expectBooksBalanced(admin);
  });
});

describe('Compound', () => {
  it('holds income and, when approved, makes it a new investment', async () => {
    const p = await payee(server, admin, smtp, { working: '100.00', address: false });
    const planId = await createPlan(admin, {
      roi_percent: '1',
      duration_days: 30,
      min_amount: '50',
      max_amount: '1000',
    });
    const otp = await withdrawalCode(smtp, p);
    const url = '/withdrawalrequest/addcompoundwithdrawal';
    const small = await p.client.post(url, { amount: '40', otp, plan_id: planId }, p.from);
    expect(small.status).toBe(400);
    expect(small.body.errors[0].field).toBe('amount');
    const res = await p.client.post(url, { amount: '60', otp, plan_id: planId }, p.from);
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe(M.compoundRequested);
    expect(res.body.withdrawal).toMatchObject({
      kind: 'compound',
      fee: '0.00',
      net_amount: '60.00',
      address: null,
    });
    const id = res.body.withdrawal.id;
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 10_000, held: 6_000, available: 4_000 });

    // The member changes the amount: the hold follows.
    const changed = await p.client.put('/withdrawalrequest/compound/amount', { id, amount: '70' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.withdrawal).toMatchObject({
      amount: '70.00',
      net_amount: '70.00',
      status: 'pending',
    });
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 10_000, held: 7_000, available: 3_000 });
    const tooMuch = await p.client.put('/withdrawalrequest/compound/amount', { id, amount: '100.01' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe(M.insufficient);
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 10_000, held: 7_000, available: 3_000 });

    const approved = await admin.put(`/withdrawalrequest/compound/${id}`, {
      status: 'approved',
      amount: '70',
      user_id: p.id,
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.message).toBe(M.compoundApproved);
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 3_000, held: 0, available: 3_000 });
    expect((await cents(`${p.id}:invested`)).balance).toBe(7_000);
    const topups = await p.client.get(`/topup/by/${p.id}`);
    expect(JSON.stringify(topups.body)).toContain('"amount":"70.00"');
    expect((await p.client.put('/withdrawalrequest/compound/amount', { id, amount: '60' })).status).toBe(409);
    await expectBooksBalanced(admin);
  });
});

describe('A withdrawal that would pay out nothing', () => {
  const pair = ['withdrawal_minimum', 'withdrawal_fee_percent'];
  // A minimum of $0.01 with a 50% fee, stored as it could be before the settings refused the pair:
  // the fee of a one-cent withdrawal is that cent.
  beforeAll(async () => {
    const updated_at = new Date().toISOString();
    await server.db
      .insertInto('settings')
      .values([
        { name: 'withdrawal_minimum', value: JSON.stringify('0.01'), updated_at },
        { name: 'withdrawal_fee_percent', value: JSON.stringify('50.00'), updated_at },
      ])
      .execute();
  });
  afterAll(async () => {
    await server.db.deleteFrom('settings').where('name', 'in', pair).execute();
  });

  it('is a 400 naming the amount for every kind that pays out, and holds nothing', async () => {
    const p = await payee(server, admin, smtp, { working: '1.00' });
    // Dates no other test here runs: $10.00 of ROI a day paid.
    const earning = await investment(p, '1000', 30, 8);
    const centPlan = await createPlan(admin, { roi_percent: '1', duration_days: 1, min_amount: '0.01' });
    await credit(admin, p.id, '0.01', 'business');
    const bought = await p.client.post('/topup/add', { plan_id: centPlan, amount: '0.01' });
    expect(bought.status, bought.text).toBe(201);
    const cent = bought.body.topup.id;
    await backdate(server, cent, 3); // its one day is past: matured
    const workingBefore = await cents(`${p.id}:working`);
    const investedBefore = await cents(`${p.id}:invested`);

    const otp = await withdrawalCode(smtp, p);
    const nothing = { message: M.netsNothing('0.01') };
    const income = await p.client.post('/withdrawalrequest/add', { amount: '0.01', otp }, p.from);
    expect(income.status, income.text).toBe(400);
    expect(income.body).toMatchObject({ ...nothing, errors: [{ field: 'amount', ...nothing }] });
    const roi = await p.client.post(
      '/withdrawalrequest/add/roiwithdrawal',
      { amount: '0.01', otp, topup_id: earning },
      p.from,
    );
    expect(roi.status, roi.text).toBe(400);
    expect(roi.body).toMatchObject({ ...nothing, errors: [{ field: 'amount', ...nothing }] });
    const principal = await p.client.post(
      '/withdrawalrequest/add/principle',
      { otp, topup_id: cent },
      p.from,
    );
    expect(principal.status, principal.text).toBe(400);
    expect(principal.body).toMatchObject({ ...nothing, errors: [{ field: 'topup_id', ...nothing }] });
    const payout = await admin.post('/withdrawalrequest/debit', {
      user_id: p.id,
      amount: '0.01',
      tx_hash: TX_HASH,
      reason: 'Paid outside a request',
    });
    expect(payout.status, payout.text).toBe(400);
    expect(payout.body).toMatchObject({ ...nothing, errors: [{ field: 'amount', ...nothing }] });

    expect(await cents(`${p.id}:working`)).toEqual(workingBefore);
    expect(await cents(`${p.id}:invested`)).toEqual(investedBefore);
    expect((await p.client.get('/withdrawalrequest/list')).body.withdrawals).toEqual([]);
    // The code was never used up: two cents pay out one.
    const two = await p.client.post('/withdrawalrequest/add', { amount: '0.02', otp }, p.from);
    expect(two.status, two.text).toBe(201);
    expect(two.body.withdrawal).toMatchObject({ fee: '0.01', net_amount: '0.01' });
    await expectBooksBalanced(admin);
  });
});
