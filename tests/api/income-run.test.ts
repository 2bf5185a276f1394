import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.ts';
import { INCOME_MESSAGES } from '../../src/shared/income.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import {
  backdate,
  buy,
  createPlan,
  expectBooksBalanced,
  member,
  runDate,
  today,
  workingCents,
} from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// RULES.md "Daily income": a run pays one UTC date: ROI to each investment's owner, level income up the
// sponsor line to those who qualify, each payment rounded down to the cent, from the platform's income
// account into Income Working; a date is paid once, whatever happens. Each test has a server of its
// own: a date, once paid, is final.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function setUp(env: Record<string, string> = {}) {
  server = await startServer({
    TRUST_PROXY: '127.0.0.1',
    INCOME_SCHEDULE: 'off',
    INCOME_RETRY_MS: '0',
    ...env,
  });
  const admin = await signedInAdminClient(server.baseUrl);
  return { server, admin };
}

const count = async (s: TestServer, table: 'roi_payments' | 'level_incomes') =>
  Number(
    (
      await s.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * A member with two investments bought `daysAgo` days back: 100.00 at 1% a day for 2 days, and 10.00 at
 * 60% a day for 10 days, which the 200% cap ends after four (6.00, 6.00, 6.00, 2.00).
 */
async function shortAndRich(daysAgo: number) {
  const { server, admin } = await setUp();
  const shortPlan = await createPlan(admin, { roi_percent: '1', duration_days: 2 });
  const richPlan = await createPlan(admin, { roi_percent: '60', duration_days: 10 });
  const owner = await member(server, admin, undefined, { business: '110' });
  const short = await buy(owner, shortPlan, '100');
  const rich = await buy(owner, richPlan, '10');
  const start = await backdate(server, short, daysAgo);
  await backdate(server, rich, daysAgo);
  return { server, admin, owner, short, rich, start };
}

/** Each investment of the member's progress, by id. */
async function progressOf(s: TestServer, ownerId: string) {
  const rows = await s.db
    .selectFrom('topups')
    .select(['id', 'roi_paid_cents', 'roi_days_paid', 'status'])
    .where('user_id', '=', ownerId)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

describe('POST /income/run', () => {
  it('pays the ROI to the owner and level income to qualifying uplines, once, and the books balance', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1.5', duration_days: 30 });
    // root admin > u1 > u2 > u3 > u4 > u5 > owner; u4 has a second active direct member (x4), so it
    // qualifies at level 2; u3, u2 and u1 have one each and are skipped at levels 3 to 5.
    const u1 = await member(server, admin, undefined);
    const u2 = await member(server, admin, u1);
    const u3 = await member(server, admin, u2);
    const u4 = await member(server, admin, u3);
    await member(server, admin, u4);
    const u5 = await member(server, admin, u4);
    const owner = await member(server, admin, u5, { business: '250' });
    await buy(owner, planId, '250');
    const before = await Promise.all([owner, u5, u4, u3, u2, u1].map((m) => workingCents(server, m.id)));

    const res = await runDate(admin, today());
    expect(res.status, res.text).toBe(200);
    // 250.00 x 1.5% = 3.75; level 1 (10%) 0.375 -> 0.37; level 2 (5%) 0.1875 -> 0.18.
    expect(res.body).toEqual({
      message: INCOME_MESSAGES.runDone,
      run: { date: today(), investments_paid: 1, roi_total: '3.75', level_total: '0.55' },
    });
    const after = await Promise.all([owner, u5, u4, u3, u2, u1].map((m) => workingCents(server, m.id)));
    expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual([375, 37, 18, 0, 0, 0]);
    expect((await owner.client.get('/wallet/balance')).body.working).toBe('3.75');

    const again = await runDate(admin, today());
    expect(again.status).toBe(200);
    expect(again.body.run).toEqual({
      date: today(),
      investments_paid: 0,
      roi_total: '0.00',
      level_total: '0.00',
    });
    expect(await count(server, 'roi_payments')).toBe(1);
    expect(await count(server, 'level_incomes')).toBe(2);
    const topup = (await owner.client.get('/topup/list')).body.topups[0];
    expect(topup.roi_paid).toBe('3.75');

    // Today has not ended: the second run looked again for what was still unpaid (an attempt more).
    const run = await server.db.selectFrom('income_runs').selectAll().executeTakeFirstOrThrow();
    expect(run).toMatchObject({
      run_date: today(),
      status: 'completed',
      final: 0,
      trigger: 'admin',
      investments_paid: 1,
      roi_total_cents: 375,
      level_total_cents: 55,
      level_payments: 2,
      attempts: 2,
      error: null,
    });
    await expectBooksBalanced(admin);
  });

  it('pays nothing for a date before the investment was bought', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const owner = await member(server, admin, undefined, { business: '100' });
    await buy(owner, planId, '100');
    const res = await runDate(admin, addDays(today(), -1));
    expect(res.status).toBe(200);
    expect(res.body.run.investments_paid).toBe(0);
    expect(await workingCents(server, owner.id)).toBe(0);
    // Yesterday is the default date.
    const byDefault = await runDate(admin);
    expect(byDefault.body.run).toEqual({
      date: addDays(today(), -1),
      investments_paid: 0,
      roi_total: '0.00',
      level_total: '0.00',
    });
  });

  it('refuses a future or malformed date (400), a member (403) and a visitor (401), and pays nothing', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const owner = await member(server, admin, undefined, { business: '100' });
    await buy(owner, planId, '100');

    const future = await runDate(admin, addDays(today(), 1));
    expect(future.status).toBe(400);
    expect(future.text).toContain(INCOME_MESSAGES.dateFuture);
    for (const date of ['2026-02-30', '25-11-2026', 'yesterday', '']) {
      const bad = await admin.post('/income/run', { date });
      expect(bad.status, date).toBe(400);
      expect(bad.text).toContain(INCOME_MESSAGES.dateInvalid);
    }
    const asMember = await (await signedInMember(server.baseUrl)).client.post('/income/run', {
      date: today(),
    });
    expect(asMember.status).toBe(403);
    const { ApiClient } = await import('../helpers/client.ts');
    const visitor = new ApiClient(server.baseUrl);
    expect((await visitor.post('/income/run', {})).status).toBe(401);
    expect(await count(server, 'roi_payments')).toBe(0);
    expect(await server.db.selectFrom('income_runs').selectAll().execute()).toEqual([]);
  });

  it('skips a blocked owner, an owner with ROI closed, and uplines that are blocked or have level income closed', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '2', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    const paid = await member(server, admin, sponsor, { business: '100' });
    const blocked = await member(server, admin, sponsor, { business: '100' });
    const closed = await member(server, admin, sponsor, { business: '100' });
    for (const m of [paid, blocked, closed]) await buy(m, planId, '100');
    expect((await admin.put(`/users/${blocked.id}`, { status: 'block' })).status).toBe(200);
    expect((await admin.put(`/users/${closed.id}`, { roi_status: 'close' })).status).toBe(200);
    const sponsorBefore = await workingCents(server, sponsor.id);

    const res = await runDate(admin, today());
    expect(res.body.run).toMatchObject({ investments_paid: 1, roi_total: '2.00', level_total: '0.20' });
    expect(await workingCents(server, paid.id)).toBe(200);
    expect(await workingCents(server, blocked.id)).toBe(0);
    expect(await workingCents(server, closed.id)).toBe(0);
    expect((await workingCents(server, sponsor.id)) - sponsorBefore).toBe(20);

    // The next day: the sponsor's level income is closed, so the owner earns and the sponsor does not.
    const second = await member(server, admin, undefined, { business: '100' });
    const secondTopup = await buy(second, planId, '100');
    await backdate(server, secondTopup, 1);
    expect((await admin.put(`/users/${sponsor.id}`, { level_status: 'close' })).status).toBe(200);
    const yesterdayRun = await runDate(admin, addDays(today(), -1));
    expect(yesterdayRun.body.run).toMatchObject({ investments_paid: 1, level_total: '0.00' });
    await expectBooksBalanced(admin);
  });

  it('pays each day of the duration once and stops at the 200% cap, in any order of dates', async () => {
    const { server, admin, owner, short, rich, start } = await shortAndRich(5);

    // Newest date first: the order in which dates are paid does not change what each pays.
    const paid: number[] = [];
    for (let day = 5; day >= 0; day -= 1) {
      const res = await runDate(admin, addDays(start, day));
      expect(res.status).toBe(200);
      paid.push(res.body.run.investments_paid);
    }
    // Rich plan: 6.00 a day on 10.00, capped at 20.00: days 5, 4 and 3 in full and 2.00 on day 2, the
    // first four dates run. Short plan: its two days, the dates of purchase (0) and the day after (1).
    expect(paid).toEqual([1, 1, 1, 1, 1, 1]);
    const byId = await progressOf(server, owner.id);
    expect(byId.get(short)).toMatchObject({ roi_paid_cents: 200, roi_days_paid: 2, status: 'completed' });
    expect(byId.get(rich)).toMatchObject({ roi_paid_cents: 2000, roi_days_paid: 4, status: 'completed' });
    expect(await workingCents(server, owner.id)).toBe(2200);
    await expectBooksBalanced(admin);
  });

  it('stays within the 200% cap and the duration when many dates are run at once', async () => {
    // Found by the money simulator on PostgreSQL (two catch-ups at once paying two dates): each date's
    // run read what an investment had been paid before the other's commit, and both paid a full day.
    const { server, admin, owner, short, rich, start } = await shortAndRich(9);
    const admins: ApiClient[] = [admin];
    for (let i = 1; i < 10; i += 1) admins.push(await signedInAdminClient(server.baseUrl));

    const answers = await Promise.all(admins.map((a, day) => runDate(a, addDays(start, day))));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const byId = await progressOf(server, owner.id);
    // Rich: 6.00 a day on 10.00, capped at 20.00 (three full days and 2.00); short: its two days.
    expect(byId.get(rich)).toMatchObject({ roi_paid_cents: 2000, roi_days_paid: 4 });
    expect(byId.get(short)).toMatchObject({ roi_paid_cents: 200, roi_days_paid: 2 });
    expect(await workingCents(server, owner.id)).toBe(2200);
    await expectBooksBalanced(admin);
  });

  it('rounds each payment down and leaves less than one cent per payment unpaid', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1.37', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    const amounts = ['33.33', '71.09', '10.01', '99.99', '45.67'];
    const owners: Awaited<ReturnType<typeof member>>[] = [];
    for (const amount of amounts) {
      const owner = await member(server, admin, sponsor, { business: amount });
      await buy(owner, planId, amount);
      owners.push(owner);
    }
    const res = await runDate(admin, today());
    // Exact shares in hundredths of a cent: amount x 137 / 10000 cents; level 1 is 10% of the rounded ROI.
    const cents = amounts.map((a) => Math.round(Number(a) * 100));
    const exactRoi = cents.reduce((sum, c) => sum + (c * 137) / 10000, 0);
    const roi = cents.map((c) => Math.floor((c * 137) / 10000));
    const paidRoi = roi.reduce((a, b) => a + b, 0);
    const paidLevel = roi.reduce((sum, r) => sum + Math.floor(r / 10), 0);
    expect(res.body.run.roi_total).toBe((paidRoi / 100).toFixed(2));
    expect(res.body.run.level_total).toBe((paidLevel / 100).toFixed(2));
    const payments = await count(server, 'roi_payments');
    expect(exactRoi - paidRoi).toBeGreaterThanOrEqual(0);
    expect(exactRoi - paidRoi).toBeLessThan(payments);
    const exactLevel = roi.reduce((sum, r) => sum + r / 10, 0);
    expect(exactLevel - paidLevel).toBeLessThan(await count(server, 'level_incomes'));
    for (const [i, owner] of owners.entries()) expect(await workingCents(server, owner.id)).toBe(roi[i]);
  });

  it('pays each investment once when ten admin requests run the same date at once', async () => {
    const { server, admin } = await setUp({ INCOME_CHUNK_SIZE: '3' });
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    const owners = [];
    for (let i = 0; i < 12; i += 1) owners.push(await member(server, admin, sponsor, { business: '100' }));
    for (const owner of owners) await buy(owner, planId, '100');
    const admins: ApiClient[] = [admin];
    for (let i = 1; i < 10; i += 1) admins.push(await signedInAdminClient(server.baseUrl));

    const answers = await Promise.all(admins.map((a) => runDate(a, today())));
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const paid = answers.filter((a) => a.status === 200).map((a) => a.body.run.investments_paid);
    expect(paid.reduce((a, b) => a + b, 0)).toBe(12);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body.message).toBe(INCOME_MESSAGES.runBusy);
    expect(await count(server, 'roi_payments')).toBe(12);
    expect(await count(server, 'level_incomes')).toBe(12);
    for (const owner of owners) expect(await workingCents(server, owner.id)).toBe(100);
    await expectBooksBalanced(admin);
  });

  it('keeps a date open while it lasts: a later run pays an investment bought after the first, with its level income', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    const early = await member(server, admin, sponsor, { business: '100' });
    await buy(early, planId, '100');
    const first = await runDate(admin, today());
    expect(first.body.run).toMatchObject({ investments_paid: 1, roi_total: '1.00', level_total: '0.10' });
    // The admin's run list does not show today as final.
    const listed = await admin.get('/income/runs');
    expect(listed.body.runs.map((r: { date: string; status: string }) => [r.date, r.status])).toEqual([
      [today(), 'open'],
    ]);

    // Bought after the run ("at 13:00"): the next run of the same date pays it and its upline.
    const late = await member(server, admin, sponsor, { business: '100' });
    await buy(late, planId, '100');
    const sponsorBefore = await workingCents(server, sponsor.id);
    const second = await runDate(admin, today());
    expect(second.status, second.text).toBe(200);
    expect(second.body.run).toMatchObject({ investments_paid: 1, roi_total: '1.00', level_total: '0.10' });
    expect(await workingCents(server, late.id)).toBe(100);
    expect(await workingCents(server, early.id)).toBe(100);
    expect((await workingCents(server, sponsor.id)) - sponsorBefore).toBe(10);
    // Each payment once, however often the date is run.
    const third = await runDate(admin, today());
    expect(third.body.run).toMatchObject({ investments_paid: 0, roi_total: '0.00', level_total: '0.00' });
    expect(await count(server, 'roi_payments')).toBe(2);
    expect(await count(server, 'level_incomes')).toBe(2);
    await expectBooksBalanced(admin);
  });

  it('pays a later run of a date by the level percents its first run kept', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    const early = await member(server, admin, sponsor, { business: '100' });
    await buy(early, planId, '100');
    expect((await runDate(admin, today())).body.run).toMatchObject({ level_total: '0.10' });

    // The list changes after today's first run (level 1: 10% -> 50%); an investment is bought.
    const changed = await admin.post('/plans/addinvestlevel', { percents: ['50'] });
    expect(changed.status, changed.text).toBe(200);
    const late = await member(server, admin, sponsor, { business: '200' });
    await buy(late, planId, '100');
    const sponsorBefore = await workingCents(server, sponsor.id);
    const again = await runDate(admin, today());
    // Today is paid by the list it started with: 10% of the 1.00 ROI.
    expect(again.body.run).toMatchObject({ investments_paid: 1, roi_total: '1.00', level_total: '0.10' });
    expect((await workingCents(server, sponsor.id)) - sponsorBefore).toBe(10);

    // A date whose first run starts after the change is paid by the new list.
    const yesterdayTopup = await buy(late, planId, '100');
    await backdate(server, yesterdayTopup, 1);
    const yesterdayRun = await runDate(admin, addDays(today(), -1));
    expect(yesterdayRun.body.run).toMatchObject({
      investments_paid: 1,
      roi_total: '1.00',
      level_total: '0.50',
    });
    await expectBooksBalanced(admin);
  });

  it('pays a whole date by one level list when the list changes between two chunks of its run', async () => {
    // One investment per chunk, and a pause after each: the change lands while the run is under way.
    const { server, admin } = await setUp({ INCOME_CHUNK_SIZE: '1', INCOME_CHUNK_PAUSE_MS: '1500' });
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    for (let i = 0; i < 3; i += 1)
      await buy(await member(server, admin, sponsor, { business: '100' }), planId, '100');
    const sponsorBefore = await workingCents(server, sponsor.id);

    const running = runDate(admin, today());
    const deadline = Date.now() + 30_000;
    for (;;) {
      const run = await server.db
        .selectFrom('income_runs')
        .select('investments_paid')
        .where('run_date', '=', today())
        .executeTakeFirst();
      if (Number(run?.investments_paid ?? 0) >= 1) break;
      if (Date.now() > deadline) throw new Error("the run's first chunk did not commit");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await admin.post('/plans/addinvestlevel', { percents: ['50'] })).status).toBe(200);
    const res = await running;
    expect(res.status, res.text).toBe(200);

    expect(res.body.run).toMatchObject({ investments_paid: 3, roi_total: '3.00', level_total: '0.30' });
    expect((await workingCents(server, sponsor.id)) - sponsorBefore).toBe(30);
    const percents = await server.db.selectFrom('level_incomes').select('percent_bp').distinct().execute();
    expect(percents.map((p) => Number(p.percent_bp))).toEqual([1000]);
    await expectBooksBalanced(admin);
  });

  it('records a failed run with its error, keeps what was paid, and the next attempt completes the date', async () => {
    const { server, admin } = await setUp({ INCOME_CHUNK_SIZE: '1' });
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const topups: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const owner = await member(server, admin, undefined, { business: '100' });
      topups.push(await buy(owner, planId, '100'));
    }
    // A fault in the database on the last chunk's payment (chunks go in investment id order).
    const failing = [...topups].sort().at(-1) ?? '';
    const postgres = process.env.TEST_DIALECT === 'postgres';
    if (postgres) {
      await sql
        .raw(`create function fail_roi() returns trigger language plpgsql as $$ begin
          if new.topup_id = '${failing}' then raise exception 'simulated disk fault'; end if; return new; end $$`)
        .execute(server.db);
      await sql`create trigger fail_roi before insert on roi_payments for each row execute function fail_roi()`.execute(
        server.db,
      );
    } else {
      await sql
        .raw(`create trigger fail_roi before insert on roi_payments when new.topup_id = '${failing}'
          begin select raise(abort, 'simulated disk fault'); end`)
        .execute(server.db);
    }
    const failed = await runDate(admin, today());
    expect(failed.status).toBe(500);
    expect(failed.text).not.toContain('simulated');
    const run = () =>
      server.db
        .selectFrom('income_runs')
        .selectAll()
        .where('run_date', '=', today())
        .executeTakeFirstOrThrow();
    expect(await run()).toMatchObject({ status: 'failed', investments_paid: 2, lease_owner: null });
    expect((await run()).error).toContain('simulated disk fault');
    expect(await count(server, 'roi_payments')).toBe(2);
    await expectBooksBalanced(admin);

    await sql`drop trigger fail_roi ${sql.raw(postgres ? 'on roi_payments' : '')}`.execute(server.db);
    const retried = await runDate(admin, today());
    expect(retried.status).toBe(200);
    expect(retried.body.run).toMatchObject({ investments_paid: 1, roi_total: '1.00' });
    expect(await run()).toMatchObject({
      status: 'completed',
      attempts: 2,
      investments_paid: 3,
      roi_total_cents: 300,
      error: null,
    });
    expect(await count(server, 'roi_payments')).toBe(3);
    await expectBooksBalanced(admin);
  });
});
