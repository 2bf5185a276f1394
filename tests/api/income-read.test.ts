import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUpIncome, DEFAULT_INCOME_OPTIONS } from '../../src/server/modules/income/income.service.ts';
import { addDays } from '../../src/shared/dates.ts';
import { INCOME_READ_MESSAGES } from '../../src/shared/income.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import {
  backdate,
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  runDate,
  today,
} from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 15 items 3 and 4: what the admin's and the member's income screens read. One scenario, built
// over HTTP and paid by the real run (by an admin, by the scheduler, and by the scheduler finishing a
// date whose server died), then every figure checked to the cent.
//
// root admin > sponsor > owner. The owner buys 200.00 of a 1.5% plan (3.00 a day) and 10.00 of a 60%
// plan (6.00 a day, capped at 200% = 20.00), both bought three days ago (D-3). Dates D-3 to D (today)
// are paid, in the order D-2, D, D-3, D-1: the first plan 4 x 3.00 = 12.00; the second 6 + 6 + 6 and
// the last 2.00 under its cap on D-1 (20.00), then completed. The
// sponsor earns activation income of 5% of each top-up (10.00 + 0.50) and level income of 10% of each
// ROI payment (0.30 x 4 + 0.60 x 3 + 0.20 = 3.20).

let server: TestServer;
let admin: ApiClient;
let sponsor: Member;
let owner: Member;
let bystander: Member;
let adminId: string;
const D = today();

beforeAll(async () => {
  server = await startServer({
    TRUST_PROXY: '127.0.0.1',
    INCOME_SCHEDULE: 'off',
    INCOME_RETRY_MS: '0',
    SANDBOX_STEP_MS: '20',
    PAYMENT_SWEEP_MS: '0',
  });
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (
    await server.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'root_admin')
      .executeTakeFirstOrThrow()
  ).id;
  const steady = await createPlan(admin, { roi_percent: '1.5', duration_days: 30 });
  const rich = await createPlan(admin, { roi_percent: '60', duration_days: 10 });
  sponsor = await member(server, admin, undefined);
  owner = await member(server, admin, sponsor, { business: '210' });
  bystander = await member(server, admin, undefined);
  await backdate(server, await buy(owner, steady, '200'), 3);
  await backdate(server, await buy(owner, rich, '10'), 3);

  // An admin pays D-2 and today. D-3: a run its server left unfinished (lease run out) is finished by
  // the scheduler's next check, which also pays yesterday (D-1). The admin goes first, so the check
  // finds only those two dates to pay, however far back it looks for missed ones.
  for (const date of [addDays(D, -2), D]) expect((await runDate(admin, date)).status).toBe(200);
  await server.db
    .insertInto('income_runs')
    .values({
      run_date: addDays(D, -3),
      status: 'running',
      trigger: 'schedule',
      started_by: null,
      started_at: new Date().toISOString(),
      finished_at: null,
      lease_owner: 'a-server-that-died',
      lease_until_ms: 0,
      attempts: 1,
      investments_paid: 0,
      roi_total_cents: 0,
      level_total_cents: 0,
      level_payments: 0,
      duration_ms: 0,
      error: null,
      final: 0,
      level_percents: null,
    })
    .execute();
  const { runs: outcomes } = await catchUpIncome(server.db, { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 30 });
  expect(outcomes.filter((o) => o.kind === 'paid').map((o) => o.date)).toEqual([
    addDays(D, -3),
    addDays(D, -1),
  ]);

  // One crypto deposit of 25.50 through the sandbox provider: the only money received from outside
  // (the test funding above is an admin adjustment, which is not a deposit).
  const payer = await signedInMember(server.baseUrl);
  const created = await payer.client.post('/payments/create-payment', {
    price_amount: '25.50',
    price_currency: 'usd',
    pay_currency: 'usdtbsc',
  });
  expect(created.status, created.text).toBe(201);
  expect((await payer.client.post(`/payments/sandbox/${created.body.payment_id}/pay`, {})).status).toBe(200);
  const deadline = Date.now() + 10_000;
  while (
    (await payer.client.get(`/payments/payment-status/${created.body.payment_id}`)).body.payment_status !==
    'finished'
  ) {
    if (Date.now() > deadline) throw new Error('the sandbox payment did not finish');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});
afterAll(async () => server?.stop());

describe('GET /income/runs', () => {
  it("lists each date's run, newest first, with its totals, trigger, who started it and its attempts", async () => {
    const res = await admin.get('/income/runs');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 1, limit: 20 });
    const runs = res.body.runs as Record<string, unknown>[];
    expect(runs.map((r) => [r.date, r.trigger, r.started_by, r.attempts])).toEqual([
      [D, 'admin', { id: adminId, username: 'root_admin' }, 1],
      [addDays(D, -1), 'schedule', null, 1],
      [addDays(D, -2), 'admin', { id: adminId, username: 'root_admin' }, 1],
      [addDays(D, -3), 'catch_up', null, 2],
    ]);
    expect(runs.map((r) => [r.investments_paid, r.roi_total, r.level_total, r.level_payments])).toEqual([
      [2, '9.00', '0.90', 2],
      [2, '5.00', '0.50', 2],
      [2, '9.00', '0.90', 2],
      [2, '9.00', '0.90', 2],
    ]);
    // Today's run started before today ended: the date stays open for a later run.
    expect(runs.map((r) => r.status)).toEqual(['open', 'completed', 'completed', 'completed']);
    for (const run of runs) {
      expect(run).toMatchObject({ error: null });
      expect(typeof run.duration_ms).toBe('number');
      expect(run.duration_ms as number).toBeGreaterThanOrEqual(0);
      expect(Date.parse(run.finished_at as string)).toBeGreaterThanOrEqual(
        Date.parse(run.started_at as string),
      );
    }
  });

  it('pages by page and limit', async () => {
    const res = await admin.get('/income/runs?page=2&limit=3');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect(res.body.runs.map((r: { date: string }) => r.date)).toEqual([addDays(D, -3)]);
    expect((await admin.get('/income/runs?page=3&limit=3')).body.runs).toEqual([]);
  });

  it('refuses a bad page or limit (400), a member (403) and a visitor (401)', async () => {
    for (const [query, message] of [
      ['page=0', INCOME_READ_MESSAGES.pageInvalid],
      ['page=abc', INCOME_READ_MESSAGES.pageInvalid],
      ['page=-1', INCOME_READ_MESSAGES.pageInvalid],
      ['limit=0', INCOME_READ_MESSAGES.limitInvalid],
      ['limit=101', INCOME_READ_MESSAGES.limitInvalid],
      ['limit=2.5', INCOME_READ_MESSAGES.limitInvalid],
    ]) {
      const res = await admin.get(`/income/runs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.text, query).toContain(message);
    }
    expect((await owner.client.get('/income/runs')).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).get('/income/runs')).status).toBe(401);
  });
});

describe('GET /income/overview', () => {
  it('shows income paid by kind against deposits received, in all and per month, from the ledger', async () => {
    const res = await admin.get('/income/overview?months=2');
    expect(res.status, res.text).toBe(200);
    // ROI 9.00 x 3 + 5.00; activation 10.50; level 0.90 x 3 + 0.50.
    const paid = {
      roi: '32.00',
      activation: '10.50',
      level: '3.20',
      income_total: '45.70',
      deposits: '25.50',
    };
    expect(res.body.totals).toEqual({ ...paid, net: '-20.20' });
    const month = D.slice(0, 7);
    const [year = 0, m = 1] = month.split('-').map(Number);
    const previous = m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
    const zero = { roi: '0.00', activation: '0.00', level: '0.00', income_total: '0.00', deposits: '0.00' };
    expect(res.body.months).toEqual([
      { month, ...paid },
      { month: previous, ...zero },
    ]);
    // Twelve months by default, this one first.
    const byDefault = await admin.get('/income/overview');
    expect(byDefault.body.months).toHaveLength(12);
    expect(byDefault.body.months[0]).toEqual({ month, ...paid });
    await expectBooksBalanced(admin);
  });

  it('refuses a bad window (400), a member (403) and a visitor (401)', async () => {
    for (const months of ['0', '37', 'x', '1.5']) {
      const res = await admin.get(`/income/overview?months=${months}`);
      expect(res.status, months).toBe(400);
      expect(res.text).toContain(INCOME_READ_MESSAGES.monthsInvalid);
    }
    expect((await sponsor.client.get('/income/overview')).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).get('/income/overview')).status).toBe(401);
  });
});

describe('GET /income/summary', () => {
  const zero = { roi: '0.00', activation: '0.00', level: '0.00', total: '0.00' };

  it("gives the owner their ROI by period, the last 30 days and each investment's progress to the cap", async () => {
    const res = await owner.client.get('/income/summary');
    expect(res.status, res.text).toBe(200);
    // Every payment reached the wallet today (the runs happened today, whatever date they paid).
    const earned = { roi: '32.00', activation: '0.00', level: '0.00', total: '32.00' };
    expect(res.body.today).toEqual(earned);
    expect(res.body.month).toEqual(earned);
    expect(res.body.all_time).toEqual(earned);
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days[0]).toEqual({ date: addDays(D, -29), ...zero });
    expect(res.body.days[29]).toEqual({ date: D, ...earned });
    expect(res.body.days.slice(0, 29).every((d: { total: string }) => d.total === '0.00')).toBe(true);

    const byPlan = Object.fromEntries(
      res.body.investments.map((i: { plan_name: string }) => [i.plan_name, i]),
    );
    expect(res.body.investments).toHaveLength(2);
    expect(byPlan['Plan 1.5% 30d']).toMatchObject({
      amount: '200.00',
      roi_percent: '1.50',
      duration_days: 30,
      roi_paid: '12.00',
      days_paid: 4,
      days_left: 26,
      cap: '400.00',
      cap_reached_percent: '3.00',
      status: 'active',
      roi_end_date: addDays(D, 26),
    });
    expect(byPlan['Plan 60% 10d']).toMatchObject({
      amount: '10.00',
      roi_percent: '60.00',
      duration_days: 10,
      roi_paid: '20.00',
      days_paid: 4,
      days_left: 0,
      cap: '20.00',
      cap_reached_percent: '100.00',
      status: 'completed',
    });
  });

  it('gives the sponsor their activation and level income, and none of the investments below them', async () => {
    const res = await sponsor.client.get('/income/summary');
    expect(res.status).toBe(200);
    const earned = { roi: '0.00', activation: '10.50', level: '3.20', total: '13.70' };
    expect(res.body.today).toEqual(earned);
    expect(res.body.all_time).toEqual(earned);
    expect(res.body.investments).toEqual([]);
  });

  it("shows a member only their own income: another member's id in the address changes nothing", async () => {
    const res = await bystander.client.get(`/income/summary?user_id=${owner.id}&id=${owner.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ today: zero, month: zero, all_time: zero, investments: [] });
    expect(res.body.days).toHaveLength(30);
  });

  it('is for members: an admin gets 403 and a visitor 401', async () => {
    expect((await admin.get('/income/summary')).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).get('/income/summary')).status).toBe(401);
  });
});

describe('OpenAPI document', () => {
  it('publishes the three income calls', async () => {
    const paths = (await new ApiClient(server.baseUrl).get('/openapi.json')).body.paths;
    for (const path of ['/api/v1/income/runs', '/api/v1/income/overview', '/api/v1/income/summary'])
      expect(Object.keys(paths[path] ?? {}), path).toEqual(['get']);
  });
});
