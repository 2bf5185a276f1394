import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { addDays } from '../../src/shared/dates.ts';
import type { ApiClient } from '../helpers/client.ts';
import {
  type Books,
  backdate,
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  runDate,
  today,
  workingCents,
} from '../helpers/income.ts';
import {
  adminOn,
  killServerProcess,
  projectDialect,
  sharedDatabase,
  sleep,
} from '../helpers/server-process.ts';

// RULES.md "Daily income" across processes: a server killed (SIGKILL) in the middle of a run leaves a
// part of the date paid; the date is finished by the next attempt (here the scheduler's retry on a
// fresh process) and pays exactly what one clean run pays. Several processes on one PostgreSQL
// database, their schedulers and their admins all at once, pay each investment once (that suite runs
// on PostgreSQL in both projects: several servers on one database is a PostgreSQL deployment).
// Each test starts two or three server processes: on a busy 2-core machine that alone can take most
// of the default 30 s, so these tests have a budget of their own (not a speed check).
const PROCESS_TEST_MS = 150_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A database for server processes, schedulers off unless a test turns them on. */
const incomeDatabase = (dialect: 'sqlite' | 'postgres') =>
  sharedDatabase(dialect, {
    dirPrefix: 'income',
    schemaPrefix: 'inc',
    env: { TRUST_PROXY: '127.0.0.1', INCOME_SCHEDULE: 'off', INCOME_RETRY_MS: '0' },
    cleanups,
  });

const runOf = (db: Db, date: string) =>
  db.selectFrom('income_runs').selectAll().where('run_date', '=', date).executeTakeFirst();

async function paymentsPerTopup(db: Db, date: string) {
  const rows = await db
    .selectFrom('roi_payments')
    .select(['topup_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('run_date', '=', date)
    .groupBy('topup_id')
    .execute();
  return rows.map((row) => Number(row.n));
}

/** A sponsor and `owners` members under them, each with one 100.00 investment at 1% a day. */
async function investors(books: Books, admin: ApiClient, owners: number) {
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  const sponsor = await member(books, admin, undefined);
  const members: Member[] = [];
  const topups: string[] = [];
  for (let i = 0; i < owners; i += 1) {
    const owner = await member(books, admin, sponsor, { business: '100' });
    topups.push(await buy(owner, planId, '100'));
    members.push(owner);
  }
  return { sponsor, members, topups };
}

describe('the daily income run across server processes', () => {
  it(
    'finishes a date after its server is killed mid-run, paying what one clean run pays',
    async () => {
      const shared = await incomeDatabase(projectDialect);
      const first = await shared.start('first', {
        INCOME_CHUNK_SIZE: '2',
        INCOME_CHUNK_PAUSE_MS: '250',
        INCOME_LEASE_MS: '1500',
      });
      const db = shared.handle();
      const admin = await adminOn(first.url);
      const books = { baseUrl: first.url, db };
      const { sponsor, members } = await investors(books, admin, 10);
      const sponsorBefore = await workingCents(books, sponsor.id);

      const killed = runDate(admin, today()).catch((error: unknown) => error);
      // Kill it once a chunk or more is paid and the run is not finished.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const run = await runOf(db, today());
        if (run && run.investments_paid >= 2) break;
        if (Date.now() > deadline) throw new Error('the run never started paying');
        await sleep(20);
      }
      await killServerProcess(first);
      expect(await killed).toBeInstanceOf(Error);
      const halfway = await runOf(db, today());
      expect(halfway?.status).toBe('running');
      expect(halfway?.investments_paid).toBeGreaterThan(0);
      expect(halfway?.investments_paid).toBeLessThan(10);

      // A new process: its scheduler's retry finds the abandoned run once the lease runs out.
      const second = await shared.start('second', { INCOME_RETRY_MS: '300', INCOME_LEASE_MS: '1500' });
      const finishBy = Date.now() + 60_000;
      while ((await runOf(db, today()))?.status !== 'completed') {
        if (Date.now() > finishBy) throw new Error(`the run was not finished: ${second.output()}`);
        await sleep(100);
      }
      const run = await runOf(db, today());
      expect(run).toMatchObject({
        status: 'completed',
        trigger: 'schedule',
        attempts: 2,
        investments_paid: 10,
        roi_total_cents: 1000,
        level_total_cents: 100,
        level_payments: 10,
        error: null,
      });
      expect(await paymentsPerTopup(db, today())).toEqual(Array(10).fill(1));
      const secondBooks = { baseUrl: second.url, db };
      for (const owner of members) expect(await workingCents(secondBooks, owner.id)).toBe(100);
      expect((await workingCents(secondBooks, sponsor.id)) - sponsorBefore).toBe(100);
      await expectBooksBalanced(await adminOn(second.url));
    },
    PROCESS_TEST_MS,
  );
  it(
    'pays each investment once when two processes on one PostgreSQL, their schedulers and their admins run dates at once',
    async () => {
      const shared = await incomeDatabase('postgres');
      const setup = await shared.start('setup', {});
      const db = shared.handle();
      const admin = await adminOn(setup.url);
      const books = { baseUrl: setup.url, db };
      const { members, topups } = await investors(books, admin, 16);
      // Bought yesterday: the schedulers' date. Both pay yesterday as soon as they start.
      for (const topup of topups) await backdate(books, topup, 1);
      await setup.stop();

      const env = { INCOME_RETRY_MS: '200', INCOME_CHUNK_SIZE: '3' };
      const [one, two] = await Promise.all([shared.start('one', env), shared.start('two', env)]);
      // Admin sign-ins are rate limited per address: one session per process, three requests each.
      const [adminOne, adminTwo] = await Promise.all([adminOn(one.url), adminOn(two.url)]);
      const admins = [adminOne, adminTwo, adminOne, adminTwo, adminOne, adminTwo] as ApiClient[];
      const answers = await Promise.all(admins.map((a) => runDate(a, today())));
      for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
      const yesterday = addDays(today(), -1);
      const finishBy = Date.now() + 60_000;
      while ((await runOf(db, yesterday))?.status !== 'completed') {
        if (Date.now() > finishBy) throw new Error('yesterday was not paid');
        await sleep(100);
      }
      // Today: whichever admin got in first paid it (the 409s were told the date is being paid).
      while ((await runOf(db, today()))?.status !== 'completed') {
        if (Date.now() > finishBy) throw new Error('today was not paid');
        await sleep(100);
      }
      expect(await paymentsPerTopup(db, yesterday)).toEqual(Array(16).fill(1));
      expect(await paymentsPerTopup(db, today())).toEqual(Array(16).fill(1));
      expect(await runOf(db, yesterday)).toMatchObject({ trigger: 'schedule', investments_paid: 16 });
      expect(await runOf(db, today())).toMatchObject({ trigger: 'admin', investments_paid: 16 });
      const oneBooks = { baseUrl: one.url, db };
      for (const owner of members) expect(await workingCents(oneBooks, owner.id)).toBe(200);
      await expectBooksBalanced(adminTwo as ApiClient);
    },
    PROCESS_TEST_MS,
  );
});
