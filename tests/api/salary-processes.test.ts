import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { monthBefore } from '../../src/shared/salary.ts';
import type { ApiClient } from '../helpers/client.ts';
import {
  type Books,
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  workingCents,
} from '../helpers/income.ts';
import { moveIntoMonth } from '../helpers/salary.ts';
import {
  adminOn,
  killServerProcess,
  projectDialect,
  sharedDatabase,
  sleep,
} from '../helpers/server-process.ts';

// Salary across processes (docs/rules.md "Salary"): a server killed (SIGKILL) in the middle of a month's
// run leaves part of the month paid; the next attempt (the scheduler's retry on a fresh process) pays
// the rest, and each member exactly once. Two processes on one PostgreSQL database, their schedulers
// and their admins running the same month at once, pay each member once (that test runs on
// PostgreSQL in both projects: several servers on one database is a PostgreSQL deployment).
const PROCESS_TEST_MS = 150_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const lastMonth = () => monthBefore(new Date());

/** A database for server processes, schedulers off unless a test turns them on. */
const salaryDatabase = (dialect: 'sqlite' | 'postgres') =>
  sharedDatabase(dialect, {
    dirPrefix: 'salary',
    schemaPrefix: 'sal',
    env: {
      TRUST_PROXY: '127.0.0.1',
      INCOME_SCHEDULE: 'off',
      INCOME_RETRY_MS: '0',
      SALARY_SCHEDULE: 'off',
      SALARY_RETRY_MS: '0',
    },
    cleanups,
  });

const runOf = (db: Db, month: string) =>
  db.selectFrom('salary_runs').selectAll().where('month', '=', month).executeTakeFirst();

async function paymentsPerMember(db: Db, month: string) {
  const rows = await db
    .selectFrom('salary_payments')
    .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('month', '=', month)
    .groupBy('user_id')
    .execute();
  return rows.map((row) => Number(row.n));
}

/**
 * One tier (25.00 for 100.00 of new business and one active direct), existing since last month, and
 * `leaders` members each with one direct who invested 100.00 last month.
 */
async function leaders(books: Books, admin: ApiClient, count: number) {
  const tier = await admin.post('/salary/tiers', {
    name: 'Starter',
    min_business: '100',
    min_active_directs: 1,
    amount: '25',
  });
  expect(tier.status, tier.text).toBe(201);
  await books.db
    .updateTable('salary_tiers')
    .set({ created_at: `${lastMonth()}-01T00:00:00.000Z` })
    .execute();
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  const found: { leader: Member; before: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const leader = await member(books, admin, undefined);
    const direct = await member(books, admin, leader, { business: '100' });
    await moveIntoMonth(books, await buy(direct, planId, '100'), lastMonth());
    // What the leader earned before any salary (activation income on the direct's first top-up).
    found.push({ leader, before: await workingCents(books, leader.id) });
  }
  return found;
}

describe('the monthly salary across server processes', () => {
  it(
    'finishes a month after its server is killed mid-run, paying each member once',
    async () => {
      const shared = await salaryDatabase(projectDialect);
      const first = await shared.start('first', { SALARY_PAY_PAUSE_MS: '250', SALARY_LEASE_MS: '1500' });
      const db = shared.handle();
      const admin = await adminOn(first.url);
      const books = { baseUrl: first.url, db };
      const members = await leaders(books, admin, 10);

      const killed = admin.post('/salary/run', { month: lastMonth() }).catch((error: unknown) => error);
      const deadline = Date.now() + 60_000;
      while ((await paymentsPerMember(db, lastMonth())).length < 2) {
        if (Date.now() > deadline) throw new Error('the run never started paying');
        await sleep(20);
      }
      await killServerProcess(first);
      expect(await killed).toBeInstanceOf(Error);
      const halfway = await paymentsPerMember(db, lastMonth());
      expect(halfway.length).toBeGreaterThan(0);
      expect(halfway.length).toBeLessThan(10);
      expect((await runOf(db, lastMonth()))?.status).toBe('running');

      // A new process: its scheduler's retry finds the abandoned run once the lease runs out.
      const second = await shared.start('second', { SALARY_RETRY_MS: '300', SALARY_LEASE_MS: '1500' });
      const finishBy = Date.now() + 60_000;
      while ((await runOf(db, lastMonth()))?.status !== 'completed') {
        if (Date.now() > finishBy) throw new Error(`the run was not finished: ${second.output()}`);
        await sleep(100);
      }
      expect(await runOf(db, lastMonth())).toMatchObject({
        status: 'completed',
        trigger: 'schedule',
        attempts: 2,
        members_paid: 10,
        total_cents: 25_000,
        error: null,
      });
      expect(await paymentsPerMember(db, lastMonth())).toEqual(Array(10).fill(1));
      const secondBooks = { baseUrl: second.url, db };
      for (const { leader, before } of members)
        expect((await workingCents(secondBooks, leader.id)) - before).toBe(2500);
      // An admin's rerun pays nothing more.
      const secondAdmin = await adminOn(second.url);
      const rerun = await secondAdmin.post('/salary/run', { month: lastMonth() });
      expect(rerun.body.run).toEqual({ month: lastMonth(), members_paid: 0, total: '0.00' });
      await expectBooksBalanced(secondAdmin);
    },
    PROCESS_TEST_MS,
  );

  it(
    'pays each member once when two processes on one PostgreSQL, their schedulers and their admins run the month at once',
    async () => {
      const shared = await salaryDatabase('postgres');
      const setup = await shared.start('setup', {});
      const db = shared.handle();
      const admin = await adminOn(setup.url);
      const books = { baseUrl: setup.url, db };
      const members = await leaders(books, admin, 12);
      await setup.stop();

      const env = { SALARY_RETRY_MS: '200' };
      const [one, two] = await Promise.all([shared.start('one', env), shared.start('two', env)]);
      const [adminOne, adminTwo] = await Promise.all([adminOn(one.url), adminOn(two.url)]);
      const admins = [adminOne, adminTwo, adminOne, adminTwo, adminOne, adminTwo];
      const answers = await Promise.all(admins.map((a) => a.post('/salary/run', { month: lastMonth() })));
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const finishBy = Date.now() + 60_000;
      while ((await runOf(db, lastMonth()))?.status !== 'completed') {
        if (Date.now() > finishBy) throw new Error('the month was not paid');
        await sleep(100);
      }
      expect(await paymentsPerMember(db, lastMonth())).toEqual(Array(12).fill(1));
      expect(answers.reduce((sum, a) => sum + a.body.run.members_paid, 0)).toBeLessThanOrEqual(12);
      const oneBooks = { baseUrl: one.url, db };
      for (const { leader, before } of members)
        expect((await workingCents(oneBooks, leader.id)) - before).toBe(2500);
      await expectBooksBalanced(adminTwo);
    },
    PROCESS_TEST_MS,
  );
});
