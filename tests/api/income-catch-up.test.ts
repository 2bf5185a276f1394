import { afterEach, describe, expect, it } from 'vitest';
import { catchUpIncome, DEFAULT_INCOME_OPTIONS } from '../../src/server/modules/income/income.service.ts';
import { addDays } from '../../src/shared/dates.ts';
import { signedInAdminClient } from '../helpers/client.ts';
import {
  backdate,
  buy,
  createPlan,
  expectBooksBalanced,
  member,
  today,
  workingCents,
} from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// RULES.md "Daily income" and docs/rules.md: the scheduler pays every date of the last
// INCOME_CATCH_UP_DAYS that was never run (a server that was down at 00:05 for days), from the oldest
// active investment's purchase date on, and then closes the investments whose earning window ended on
// a settled date, whatever they were paid. The scheduler's work is called here with the clock it
// would read (its cron and its retry timer call nothing else).

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function setUp() {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  const admin = await signedInAdminClient(server.baseUrl);
  return { server, admin };
}

const statusOf = async (s: TestServer, topupId: string) =>
  (
    await s.db
      .selectFrom('topups')
      .select(['status', 'roi_days_paid', 'roi_paid_cents'])
      .where('id', '=', topupId)
      .executeTakeFirstOrThrow()
  ).status;

const runsOf = async (s: TestServer) =>
  (
    await s.db
      .selectFrom('income_runs')
      .select(['run_date', 'status', 'trigger'])
      .orderBy('run_date')
      .execute()
  ).map((run) => `${run.run_date} ${run.status} ${run.trigger}`);

describe('the scheduler catches up', () => {
  it('pays every missed date since the oldest active investment, then closes the windows that ended', async () => {
    const { server, admin } = await setUp();
    const threeDays = await createPlan(admin, { roi_percent: '1', duration_days: 3 });
    const a = await member(server, admin, undefined, { business: '100' });
    const b = await member(server, admin, undefined, { business: '100' });
    const c = await member(server, admin, undefined, { business: '100' });
    // a: earns from 5 days ago to 3 days ago; b: from 2 days ago to today; c: 3 days ago to yesterday,
    // with its ROI closed, so it earns nothing.
    const topupA = await buy(a, threeDays, '100');
    const topupB = await buy(b, threeDays, '100');
    const topupC = await buy(c, threeDays, '100');
    await backdate(server, topupA, 5);
    await backdate(server, topupB, 2);
    await backdate(server, topupC, 3);
    expect((await admin.put(`/users/${c.id}`, { roi_status: 'close' })).status).toBe(200);

    const options = { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 30 };
    const first = await catchUpIncome(server.db, options);
    const d = (days: number) => addDays(today(), -days);
    expect(first.runs.map((run) => `${run.date} ${run.kind}`)).toEqual(
      [5, 4, 3, 2, 1].map((days) => `${d(days)} paid`),
    );
    expect(await runsOf(server)).toEqual([5, 4, 3, 2, 1].map((days) => `${d(days)} completed schedule`));
    expect(await workingCents(server, a.id)).toBe(300);
    expect(await workingCents(server, b.id)).toBe(200);
    expect(await workingCents(server, c.id)).toBe(0);
    // a finished by being paid its three days; c's window ended yesterday, a settled date: closed
    // unpaid. b still earns today.
    expect(first.closed).toBe(1);
    expect(await statusOf(server, topupA)).toBe('completed');
    expect(await statusOf(server, topupC)).toBe('completed');
    expect(await statusOf(server, topupB)).toBe('active');

    // The next check has nothing left to do.
    const second = await catchUpIncome(server.db, options);
    expect(second.runs.map((run) => `${run.date} ${run.kind}`)).toEqual([`${d(1)} completed`]);
    expect(second.closed).toBe(0);
    expect(await workingCents(server, b.id)).toBe(200);

    // Tomorrow: today is paid to b, whose window then ends and who is finished by its payment.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const third = await catchUpIncome(server.db, options, tomorrow);
    expect(third.runs.map((run) => `${run.date} ${run.kind}`)).toEqual([`${today()} paid`]);
    expect(await workingCents(server, b.id)).toBe(300);
    expect(await statusOf(server, topupB)).toBe('completed');
    await expectBooksBalanced(admin);
  });

  it('pays the rest of a date an admin ran before it ended at the run after midnight, which makes it final', async () => {
    const { server, admin } = await setUp();
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const sponsor = await member(server, admin, undefined);
    const early = await member(server, admin, sponsor, { business: '100' });
    await buy(early, planId, '100');
    expect((await admin.post('/income/run', { date: today() })).status).toBe(200);
    // Bought after the admin's run of today ("at 13:00").
    const late = await member(server, admin, sponsor, { business: '100' });
    await buy(late, planId, '100');
    const sponsorBefore = await workingCents(server, sponsor.id);
    // The scheduler before midnight looks only up to yesterday: today is left open.
    await catchUpIncome(server.db, { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 30 });
    expect(await workingCents(server, late.id)).toBe(0);

    // The scheduler's 00:05 run of yesterday, tomorrow.
    const midnight = Date.parse(`${addDays(today(), 1)}T00:05:00.000Z`);
    const outcome = await catchUpIncome(
      server.db,
      { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 30 },
      new Date(midnight),
    );
    expect(outcome.runs.map((run) => `${run.date} ${run.kind}`)).toEqual([`${today()} paid`]);
    expect(await workingCents(server, late.id)).toBe(100);
    expect(await workingCents(server, early.id)).toBe(100);
    expect((await workingCents(server, sponsor.id)) - sponsorBefore).toBe(10);
    const listed = await admin.get('/income/runs');
    const runOfToday = listed.body.runs.find((r: { date: string }) => r.date === today());
    expect(runOfToday).toMatchObject({ status: 'completed', attempts: 2 });

    // Final now: a purchase "after midnight" dated today is never paid for it.
    const after = await member(server, admin, sponsor, { business: '100' });
    await buy(after, planId, '100');
    const again = await catchUpIncome(
      server.db,
      { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 30 },
      new Date(midnight),
    );
    expect(again.runs.map((run) => `${run.date} ${run.kind}`)).toEqual([`${today()} completed`]);
    expect((await admin.post('/income/run', { date: today() })).body.run).toMatchObject({
      investments_paid: 0,
    });
    expect(await workingCents(server, after.id)).toBe(0);
    await expectBooksBalanced(admin);
  });

  it('goes back INCOME_CATCH_UP_DAYS at most: older dates stay unpaid and ended windows are closed', async () => {
    const { server, admin } = await setUp();
    const long = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const short = await createPlan(admin, { roi_percent: '1', duration_days: 3 });
    const owner = await member(server, admin, undefined, { business: '200' });
    const stillEarning = await buy(owner, long, '100');
    const ended = await buy(owner, short, '100');
    await backdate(server, stillEarning, 10);
    await backdate(server, ended, 10);

    const outcome = await catchUpIncome(server.db, { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 3 });
    const d = (days: number) => addDays(today(), -days);
    expect(await runsOf(server)).toEqual([3, 2, 1].map((days) => `${d(days)} completed schedule`));
    expect(await workingCents(server, owner.id)).toBe(300);
    expect(outcome.closed).toBe(1);
    expect(await statusOf(server, ended)).toBe('completed');
    expect(await statusOf(server, stillEarning)).toBe('active');
    await expectBooksBalanced(admin);
  });

  it('closes nothing past a date that is not paid yet', async () => {
    const { server, admin } = await setUp();
    const threeDays = await createPlan(admin, { roi_percent: '1', duration_days: 3 });
    const owner = await member(server, admin, undefined, { business: '100' });
    const topup = await buy(owner, threeDays, '100');
    await backdate(server, topup, 4);
    expect((await admin.put(`/users/${owner.id}`, { roi_status: 'close' })).status).toBe(200);
    // Another server holds the date three days ago (a live lease): it is not settled yet, so the
    // investment, whose window ended two days ago, stays open for that date's payment.
    const held = addDays(today(), -3);
    await server.db
      .insertInto('income_runs')
      .values({
        run_date: held,
        status: 'running',
        trigger: 'admin',
        started_by: null,
        started_at: new Date().toISOString(),
        finished_at: null,
        lease_owner: 'another-server',
        lease_until_ms: Date.now() + 600_000,
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

    const outcome = await catchUpIncome(server.db, { ...DEFAULT_INCOME_OPTIONS, catchUpDays: 30 });
    const d = (days: number) => addDays(today(), -days);
    expect(outcome.runs.map((run) => `${run.date} ${run.kind}`)).toEqual(
      [4, 2, 1].map((days) => `${d(days)} paid`),
    );
    expect(outcome.closed).toBe(0);
    expect(await statusOf(server, topup)).toBe('active');
  });
});
