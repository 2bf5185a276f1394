import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUpSalary } from '../../src/server/modules/salary/salary-run.service.ts';
import { addMonths, SALARY_MESSAGES as M, monthBefore } from '../../src/shared/salary.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import {
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  workingCents,
} from '../helpers/income.ts';
import { moveIntoMonth, paidIn } from '../helpers/salary.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Salary (issue 17 item 3, RULES.md, docs/rules.md "Salary"): monthly tiers by the new team business a
// member's downline (every level) brings in a calendar month and their active direct members; a member
// is paid the single highest tier they qualify for, for an ended month, once (the payments' unique
// (member, month) key, in the same transaction as the ledger transfer), into Income Working.

const thisMonth = () => new Date().toISOString().slice(0, 7);
const lastMonth = () => monthBefore(new Date());
const OPTIONS = { leaseMs: 60_000, payPauseMs: 0, catchUpMonths: 12 };

describe('salary', () => {
  let server: TestServer;
  let admin: ApiClient;
  let a: Member; // two active directs, 4,500.00 new business last month (levels 1 and 2): Silver
  let d1: Member; // one active direct with 1,000.00: Bronze
  let b: Member; // 20,000.00 new business but one active direct: Bronze, not Gold
  let c: Member; // 500.00 last month (and 5,000.00 the month before): nothing
  const tiers: Record<string, string> = {};
  const working: Record<string, number> = {};

  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: '127.0.0.1' });
    admin = await signedInAdminClient(server.baseUrl);
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    for (const [name, min_business, min_active_directs, amount] of [
      ['Bronze', '1000', 1, '50'],
      ['Silver', '3000', 2, '150'],
      ['Gold', '10000', 3, '500'],
    ] as const) {
      const res = await admin.post('/salary/tiers', { name, min_business, min_active_directs, amount });
      expect(res.status, res.text).toBe(201);
      tiers[name] = res.body.tier.id;
    }
    a = await member(server, admin, undefined);
    d1 = await member(server, admin, a, { business: '2000' });
    const d2 = await member(server, admin, a, { business: '11500' });
    const e1 = await member(server, admin, d1, { business: '1000' });
    b = await member(server, admin, undefined);
    const b1 = await member(server, admin, b, { business: '20000' });
    c = await member(server, admin, undefined);
    const c1 = await member(server, admin, c, { business: '500' });
    const c2 = await member(server, admin, c, { business: '5000' });
    for (const [who, amount, month] of [
      [d1, '2000', lastMonth()],
      [d2, '1500', lastMonth()],
      [e1, '1000', lastMonth()],
      [b1, '20000', lastMonth()],
      [c1, '500', lastMonth()],
      [c2, '5000', addMonths(lastMonth(), -1)],
    ] as const)
      await moveIntoMonth(server, await buy(who, planId, amount), month);
    // This month's business counts for this month only.
    await buy(d2, planId, '10000');
    for (const m of [a, d1, b, c]) working[m.id] = await workingCents(server, m.id);
  });
  afterAll(async () => server?.stop());

  it('validates tiers with the shared schema and lets only admins keep them', async () => {
    const bad = await admin.post('/salary/tiers', {
      name: ' ',
      min_business: '0',
      min_active_directs: 1.5,
      amount: 'abc',
    });
    expect(bad.status).toBe(400);
    expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual([
      'amount',
      'min_active_directs',
      'min_business',
      'name',
    ]);
    const negative = await admin.post('/salary/tiers', {
      name: 'Neg',
      min_business: '1',
      min_active_directs: -1,
      amount: '1',
    });
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0].message).toBe(M.directsInvalid);
    const cents = await admin.post('/salary/tiers', {
      name: 'Fraction',
      min_business: '1.001',
      min_active_directs: 0,
      amount: '1',
    });
    expect(cents.status).toBe(400);
    const dup = await admin.post('/salary/tiers', {
      name: 'Bronze',
      min_business: '1',
      min_active_directs: 0,
      amount: '1',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(M.nameTaken);
    expect((await admin.put(`/salary/tiers/${tiers.Gold}`, {})).status).toBe(400);
    expect((await admin.put('/salary/tiers/nope', { amount: '1' })).status).toBe(404);
    const byMember = await a.client.post('/salary/tiers', {
      name: 'Mine',
      min_business: '1',
      min_active_directs: 0,
      amount: '1',
    });
    expect(byMember.status).toBe(403);
    const list = await a.client.get('/salary/tiers');
    expect(list.status).toBe(200);
    expect(list.body.tiers.map((t: { name: string }) => t.name)).toEqual(['Bronze', 'Silver', 'Gold']);
    expect(list.body.tiers[1]).toMatchObject({
      min_business: '3000.00',
      min_active_directs: 2,
      amount: '150.00',
    });
  });

  it('counts who qualifies for the month under way, and never pays it', async () => {
    const today = await admin.get('/salary/today-stats');
    expect(today.status, today.text).toBe(200);
    // a: 10,000.00 this month, two active directs: Silver (Gold needs three).
    expect(today.body).toMatchObject({
      month: thisMonth(),
      paid_today_count: 0,
      paid_today_total: '0.00',
      qualifying_members: 1,
      qualifying_total: '150.00',
    });
    const current = await admin.post('/salary/run', { month: thisMonth() });
    expect(current.status).toBe(400);
    expect(current.body.errors[0]).toEqual({ field: 'month', message: M.monthInvalid });
    expect((await admin.post('/salary/run', { month: addMonths(thisMonth(), 1) })).status).toBe(400);
    expect((await admin.post('/salary/run', { month: '2026-13' })).status).toBe(400);
    expect(await paidIn(server, thisMonth())).toEqual([]);
  });

  it('pays each member the single highest tier they qualify for, once, under 10 concurrent runs', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => admin.post('/salary/run', { month: lastMonth() })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(answers.reduce((sum, r) => sum + r.body.run.members_paid, 0)).toBe(3);
    expect(await paidIn(server, lastMonth())).toEqual(
      [`${a.username} Silver 15000`, `${b.username} Bronze 5000`, `${d1.username} Bronze 5000`].sort(),
    );
    expect((await workingCents(server, a.id)) - (working[a.id] ?? 0)).toBe(15000);
    expect((await workingCents(server, d1.id)) - (working[d1.id] ?? 0)).toBe(5000);
    expect((await workingCents(server, b.id)) - (working[b.id] ?? 0)).toBe(5000);
    expect((await workingCents(server, c.id)) - (working[c.id] ?? 0)).toBe(0);
    const ledger = await server.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'salary')
      .executeTakeFirstOrThrow();
    expect(Number(ledger.n)).toBe(3);

    const again = await admin.post('/salary/run', { month: lastMonth() });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      message: M.runDone,
      run: { month: lastMonth(), members_paid: 0, total: '0.00' },
    });
    // The scheduler finds the month done and pays nothing either; nor the month under way.
    await catchUpSalary(server.db, OPTIONS);
    expect(await paidIn(server, lastMonth())).toHaveLength(3);
    expect(await paidIn(server, thisMonth())).toEqual([]);
    const audit = await server.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'salary.run')
      .execute();
    expect(audit.length).toBe(11);
    await expectBooksBalanced(admin);
  });

  it('answers admins only, and a member their own history only', async () => {
    for (const path of [
      '/salary/user-salaries',
      '/salary/transactions',
      '/salary/today-stats',
      '/salary/tier-stats',
      '/salarytier-stats',
      '/salary/admin-dashboard',
    ])
      expect((await a.client.get(path)).status, path).toBe(403);
    expect((await a.client.post('/salary/run', { month: lastMonth() })).status).toBe(403);
    expect((await a.client.request('DELETE', `/salary/tiers/${tiers.Gold}`)).status).toBe(403);
    const own = await a.client.get(`/salary/user-history/${a.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ total: 1, total_pages: 1, current_page: 1 });
    expect(own.body.data[0]).toMatchObject({
      month: lastMonth(),
      tier_name: 'Silver',
      amount: '150.00',
      new_business: '4500.00',
      active_directs: 2,
    });
    const other = await a.client.get(`/salary/user-history/${b.id}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(M.memberNotFound);
    expect((await admin.get(`/salary/user-history/${b.id}`)).body.data[0].tier_name).toBe('Bronze');
    expect((await admin.get('/salary/user-history/nobody')).status).toBe(404);
  });

  it('pages the lists as {data, total, total_pages, current_page}', async () => {
    const first = await admin.get('/salary/transactions?page=1&limit=2');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['current_page', 'data', 'total', 'total_pages']);
    expect(first.body).toMatchObject({ total: 3, total_pages: 2, current_page: 1 });
    expect(first.body.data).toHaveLength(2);
    const second = await admin.get('/salary/transactions?page=2&limit=2');
    expect(second.body).toMatchObject({ total: 3, total_pages: 2, current_page: 2 });
    expect(second.body.data).toHaveLength(1);
    const ids = [...first.body.data, ...second.body.data].map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(3);

    const searched = await admin.get(`/salary/user-salaries?search=${b.username}&month=${lastMonth()}`);
    expect(searched.body).toMatchObject({ total: 1, total_pages: 1, current_page: 1 });
    expect(searched.body.data[0]).toMatchObject({
      user_id: b.id,
      months_paid: 1,
      total: '50.00',
      last_month: lastMonth(),
    });
    const none = await admin.get(`/salary/user-salaries?month=${thisMonth()}`);
    expect(none.body).toEqual({ data: [], total: 0, total_pages: 1, current_page: 1 });
    for (const query of ['page=0', 'page=x', 'limit=0', 'limit=101', 'month=2026-1'])
      expect((await admin.get(`/salary/transactions?${query}`)).status, query).toBe(400);
  });

  it('counts each tier, keeps a paid tier and shows the dashboard', async () => {
    const stats = await admin.get('/salary/tier-stats');
    expect(stats.status).toBe(200);
    const byName = Object.fromEntries(
      stats.body.tiers.map((t: { name: string; members_paid: number; total_paid: string }) => [
        t.name,
        `${t.members_paid} ${t.total_paid}`,
      ]),
    );
    expect(byName).toEqual({ Bronze: '2 100.00', Silver: '1 150.00', Gold: '0 0.00' });
    expect((await admin.get('/salarytier-stats')).body).toEqual(stats.body);
    const kept = await admin.request('DELETE', `/salary/tiers/${tiers.Bronze}`);
    expect(kept.status).toBe(409);
    expect(kept.body.message).toBe(M.hasPayments);
    const renamed = await admin.put(`/salary/tiers/${tiers.Bronze}`, { name: 'Bronze II' });
    expect(renamed.status).toBe(200);
    // The payment keeps the name it was paid at.
    expect((await admin.get(`/salary/user-history/${b.id}`)).body.data[0].tier_name).toBe('Bronze');
    expect((await admin.request('DELETE', `/salary/tiers/${tiers.Gold}`)).status).toBe(200);
    expect((await admin.request('DELETE', `/salary/tiers/${tiers.Gold}`)).status).toBe(404);

    const dashboard = await admin.get('/salary/admin-dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toMatchObject({
      total_paid: '250.00',
      payments: 3,
      months: [{ month: lastMonth(), members: 3, total: '250.00' }],
      last_run: { month: lastMonth(), status: 'completed', members_paid: 3, total: '250.00' },
      next_run: null, // the test server's schedule is off
    });
    const today = await admin.get('/salary/today-stats');
    expect(today.body).toMatchObject({ paid_today_count: 3, paid_today_total: '250.00' });
  });
});

describe('the salary scheduler', () => {
  let server: TestServer;
  afterAll(async () => server?.stop());

  it('catches up two missed months since the first tier, once, and never the month under way', async () => {
    server = await startServer({ TRUST_PROXY: '127.0.0.1' });
    const admin = await signedInAdminClient(server.baseUrl);
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const tier = await admin.post('/salary/tiers', {
      name: 'Starter',
      min_business: '100',
      min_active_directs: 1,
      amount: '25',
    });
    expect(tier.status).toBe(201);
    const twoAgo = addMonths(lastMonth(), -1);
    // The tier existed since two months ago; nobody ran the scheduler since.
    await server.db
      .updateTable('salary_tiers')
      .set({ created_at: `${twoAgo}-01T00:00:00.000Z` })
      .execute();
    const leader = await member(server, admin, undefined);
    const first = await member(server, admin, leader, { business: '300' });
    await moveIntoMonth(server, await buy(first, planId, '100'), twoAgo);
    await moveIntoMonth(server, await buy(first, planId, '100'), lastMonth());
    await buy(first, planId, '100'); // this month: not paid before it ends
    const before = await workingCents(server, leader.id);

    const outcomes = await Promise.all([
      catchUpSalary(server.db, OPTIONS),
      catchUpSalary(server.db, OPTIONS),
    ]);
    const paid = outcomes.flat().filter((o) => !o.skipped);
    expect(paid.reduce((sum, o) => sum + o.membersPaid, 0)).toBe(2);
    expect(await paidIn(server, twoAgo)).toEqual([`${leader.username} Starter 2500`]);
    expect(await paidIn(server, lastMonth())).toEqual([`${leader.username} Starter 2500`]);
    expect(await paidIn(server, thisMonth())).toEqual([]);
    expect((await workingCents(server, leader.id)) - before).toBe(5000);
    const runs = await server.db
      .selectFrom('salary_runs')
      .select(['month', 'status', 'trigger'])
      .orderBy('month')
      .execute();
    expect(runs).toEqual([
      { month: twoAgo, status: 'completed', trigger: 'schedule' },
      { month: lastMonth(), status: 'completed', trigger: 'schedule' },
    ]);
    // Again: every month is done.
    expect(await catchUpSalary(server.db, OPTIONS)).toEqual([]);
    // A bounded window: with one month of catch-up, only last month would have been looked at.
    await server.db.deleteFrom('salary_runs').where('month', '=', twoAgo).execute();
    expect(await catchUpSalary(server.db, { ...OPTIONS, catchUpMonths: 1 })).toEqual([]);
    await expectBooksBalanced(admin);
  });
});

describe('salary and blocked members', () => {
  let server: TestServer;
  afterAll(async () => server?.stop());

  it('pays a blocked member no salary, as for level income, and an unblocked one who meets the same tier', async () => {
    server = await startServer({ TRUST_PROXY: '127.0.0.1' });
    const admin = await signedInAdminClient(server.baseUrl);
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const tier = await admin.post('/salary/tiers', {
      name: 'Starter',
      min_business: '100',
      min_active_directs: 1,
      amount: '25',
    });
    expect(tier.status).toBe(201);
    const paid = await member(server, admin, undefined);
    const blocked = await member(server, admin, undefined);
    for (const leader of [paid, blocked]) {
      const direct = await member(server, admin, leader, { business: '100' });
      await moveIntoMonth(server, await buy(direct, planId, '100'), lastMonth());
    }
    expect((await admin.put(`/users/${blocked.id}`, { status: 'block' })).status).toBe(200);
    const before = await workingCents(server, blocked.id);

    const run = await admin.post('/salary/run', { month: lastMonth() });
    expect(run.status, run.text).toBe(200);
    expect(run.body.run).toMatchObject({ members_paid: 1, total: '25.00' });
    expect(await paidIn(server, lastMonth())).toEqual([`${paid.username} Starter 2500`]);
    expect((await workingCents(server, blocked.id)) - before).toBe(0);
    await expectBooksBalanced(admin);
  });
});
