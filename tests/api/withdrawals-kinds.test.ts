import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.ts';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { backdate, createPlan, expectBooksBalanced, runDate, today } from '../helpers/income.ts';
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
