import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { CTO_MESSAGES } from '../../src/shared/cto.ts';
import { REWARD_MESSAGES } from '../../src/shared/rewards.ts';
import type { ApiClient, ApiResponse } from '../helpers/client.ts';
import {
  type Books,
  buy,
  createPlan,
  expectBooksBalanced,
  type Member,
  member,
  workingCents,
} from '../helpers/income.ts';
import { TEST_DATABASE_URL } from '../helpers/postgres.ts';
import {
  adminOn,
  killServerProcess as kill,
  projectDialect,
  sameBrowserOn,
  sharedDatabase,
  sleep,
} from '../helpers/server-process.ts';

// The team issue's "must": reward claims and the CTO pay exactly once, by a unique key in the database
// (reward_claims' unique (member, reward); cto_payments' primary key, the month), under concurrency
// and after a crash. Tests as in income-processes.test.ts: real server processes on one database,
// requests through both at once, a process killed with SIGKILL and the request retried on a new one.
//
// What a kill can and cannot interrupt: a claim, and a month's CTO with all its payouts, is one
// database transaction (the claim or month row, the ledger transfers, the Idempotency-Key's record and
// the stored answer commit together). A SIGKILL lands before that transaction commits, and then the
// database rolls all of it back (the server's session ends with it), or after, and then all of it
// stays, answered or not; it cannot leave a claim without its money, a month half paid, or money
// without the key's record. The tests check both sides: on PostgreSQL a request is held inside its
// transaction (its writes made, not committed) and killed there; in a loop of attempts, on the
// project's database, requests are killed at growing delays after sending, whichever side each lands.
// The several-servers-at-once tests run on PostgreSQL in both projects, as income-processes does:
// several servers on one database is a PostgreSQL deployment.
// Each test starts two or more server processes: these tests have a budget of their own (not a speed check).
const PROCESS_TEST_MS = 150_000;
const POLL_MS = 20;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Polls `read` until it returns something truthy (never a fixed sleep as the synchronisation). */
async function waitFor<T>(what: string, read: () => Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

/** A database for server processes, the income scheduler off. */
const rewardsDatabase = (dialect: 'sqlite' | 'postgres') =>
  sharedDatabase(dialect, {
    dirPrefix: 'rewards',
    schemaPrefix: 'rwd',
    env: { TRUST_PROXY: '127.0.0.1', INCOME_SCHEDULE: 'off', INCOME_RETRY_MS: '0' },
    cleanups,
  });

async function addReward(admin: ApiClient, rank: string, business_needed: string, amount: string) {
  const res = await admin.post('/rewards', { rank, business_needed, amount });
  expect(res.status, res.text).toBe(201);
  return res.body.reward.id as string;
}

const claim = (client: ApiClient, m: Member, rewardId: string, key?: string) =>
  client.post(`/rewards/user/claim/${m.id}`, { reward_id: rewardId }, key ? { 'Idempotency-Key': key } : {});

const pay = (admin: ApiClient, month: string, key?: string) =>
  admin.post('/cto/pay', { month }, key ? { 'Idempotency-Key': key } : {});

/** A month `back` months before this one (YYYY-MM): a month that has ended. */
function monthsAgo(back: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
}

/**
 * An approved manual deposit of `amount`, moved into `month` (the API approves deposits now only, and
 * only ended months are paid): the CTO's pool for that month is 1% of it.
 */
async function depositIn(books: Books, admin: ApiClient, month: string, amount: string) {
  const payer = await member(books, admin, undefined, { active: false });
  const added = await payer.client.post('/deposite/add', {
    amount,
    tx_hash: `0x${randomBytes(32).toString('hex')}`,
  });
  expect(added.status, added.text).toBe(201);
  const id = added.body.deposit.id as string;
  const approved = await admin.put(`/deposite/${id}`, { status: 'approved', amount, user_id: payer.id });
  expect(approved.status, approved.text).toBe(200);
  const moved = await books.db
    .updateTable('ledger_transfers')
    .set({ created_at: `${month}-15T12:00:00.000Z` })
    .where('reference', '=', `manual-deposit:${id}`)
    .executeTakeFirst();
  expect(Number(moved.numUpdatedRows)).toBe(1);
}

/**
 * `holders` members in a chain (each sponsors the next) above one member who invests 100.00: each of
 * the chain has a team business of 100.00 (every level counts), so each holds the ladder's ranks up
 * to 100.00. Highest in the chain first.
 */
async function chainOfHolders(books: Books, admin: ApiClient, holders: number): Promise<Member[]> {
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  const chain: Member[] = [];
  for (let i = 0; i < holders; i += 1) chain.push(await member(books, admin, chain.at(-1)));
  const investor = await member(books, admin, chain.at(-1), { business: '100' });
  await buy(investor, planId, '100');
  return chain;
}

async function claimsOf(db: Db, userId: string, rewardId: string) {
  return db
    .selectFrom('reward_claims')
    .select(['id', 'amount_cents'])
    .where('user_id', '=', userId)
    .where('reward_id', '=', rewardId)
    .execute();
}

/** The reward transfers into a member's Income Working, by their reference (reward:{claim id}). */
async function rewardTransfers(db: Db, userId: string) {
  const rows = await db
    .selectFrom('ledger_transfers')
    .select(['reference', 'amount_cents', 'phase'])
    .where('kind', '=', 'reward')
    .where('credit_account_id', '=', `${userId}:working`)
    .orderBy('reference')
    .execute();
  return rows.map((r) => ({ reference: r.reference, cents: Number(r.amount_cents), phase: r.phase }));
}

/** How many CTO transfers of `month` each Income Working account received. */
async function ctoTransfersPerAccount(db: Db, month: string) {
  const rows = await db
    .selectFrom('ledger_transfers')
    .select([
      'credit_account_id',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('amount_cents').as('cents'),
    ])
    .where('kind', '=', 'cto')
    .where('reference', '=', `cto:${month}`)
    .groupBy('credit_account_id')
    .execute();
  return Object.fromEntries(
    rows.map((r) => [r.credit_account_id, { n: Number(r.n), cents: Number(r.cents) }]),
  );
}

const ctoPaymentsOf = (db: Db, month: string) =>
  db.selectFrom('cto_payments').selectAll().where('month', '=', month).execute();

const ctoPayoutsOf = (db: Db, month: string) =>
  db.selectFrom('cto_payouts').select(['user_id', 'amount_cents']).where('month', '=', month).execute();

/** Exactly one payment of `month`: one row, one payout and one transfer of `perMember` to each holder. */
async function expectPaidOnce(db: Db, month: string, holders: Member[], perMember: number) {
  expect(await ctoPaymentsOf(db, month)).toHaveLength(1);
  const payouts = await ctoPayoutsOf(db, month);
  expect(payouts.map((p) => p.user_id).sort()).toEqual(holders.map((h) => h.id).sort());
  for (const p of payouts) expect(Number(p.amount_cents)).toBe(perMember);
  expect(await ctoTransfersPerAccount(db, month)).toEqual(
    Object.fromEntries(holders.map((h) => [`${h.id}:working`, { n: 1, cents: perMember }])),
  );
}

/** A claim's and a month's rows and transfers, read in one statement: one snapshot of the database. */
async function snapshot(db: Db, userId: string, rewardId: string, month: string) {
  const { rows } = await sql<{
    claims: number;
    reward_transfers: number;
    payments: number;
    cto_transfers: number;
  }>`
    select
      (select count(*) from reward_claims where user_id = ${userId} and reward_id = ${rewardId}) as claims,
      (select count(*) from ledger_transfers where kind = 'reward' and credit_account_id = ${`${userId}:working`}) as reward_transfers,
      (select count(*) from cto_payments where month = ${month}) as payments,
      (select count(*) from ledger_transfers where kind = 'cto' and reference = ${`cto:${month}`}) as cto_transfers`.execute(
    db,
  );
  const row = rows[0];
  return {
    claims: Number(row?.claims),
    rewardTransfers: Number(row?.reward_transfers),
    payments: Number(row?.payments),
    ctoTransfers: Number(row?.cto_transfers),
  };
}

const workingOf = (books: Books, members: Member[]) =>
  Promise.all(members.map((m) => workingCents(books, m.id)));

describe('reward claims across server processes', () => {
  it(
    'PostgreSQL: the same claim through two processes at once, with and without one Idempotency-Key, pays once',
    async () => {
      const shared = await rewardsDatabase('postgres');
      const [one, two] = await Promise.all([shared.start('one'), shared.start('two')]);
      const db = shared.handle();
      const admin = await adminOn(one.url);
      const books = { baseUrl: one.url, db };
      const [top] = await chainOfHolders(books, admin, 1);
      if (!top) throw new Error('no member');
      const rewards = {
        noKey: await addReward(admin, 'Bronze', '10', '5.01'),
        sameKey: await addReward(admin, 'Silver', '20', '7.02'),
        ownKeys: await addReward(admin, 'Gold', '30', '11.03'),
      };
      const browsers = [top.client, sameBrowserOn(two.url, top.client)];
      const before = await workingCents(books, top.id);

      // Ten of each through each process, all at once, interleaved.
      const burst = (send: (client: ApiClient, i: number) => Promise<ApiResponse>) =>
        Promise.all(Array.from({ length: 20 }, (_, i) => send(browsers[i % 2] as ApiClient, i)));
      const [noKey, sameKey, ownKeys] = await Promise.all([
        burst((c) => claim(c, top, rewards.noKey)),
        burst((c) => claim(c, top, rewards.sameKey, `same-${top.id}`)),
        burst((c, i) => claim(c, top, rewards.ownKeys, `own-${i}-${top.id}`)),
      ]);

      // Without a key, or each with a key of its own: one 201, and nineteen 409s that paid nothing.
      for (const answers of [noKey, ownKeys]) {
        expect(answers.filter((a) => a.status === 201).map((a) => a.body)).toEqual([
          { message: REWARD_MESSAGES.claimed },
        ]);
        const refused = answers.filter((a) => a.status !== 201);
        expect(refused.map((a) => [a.status, a.body.message])).toEqual(
          Array(19).fill([409, REWARD_MESSAGES.alreadyClaimed]),
        );
      }
      // With one key: the first request's answer, nineteen times more (stored with the claim).
      for (const answer of sameKey) {
        expect(answer.status, answer.text).toBe(201);
        expect(answer.body).toEqual({ message: REWARD_MESSAGES.claimed });
      }

      // One claim row and one reward transfer per reward, and the working balance moved by the three amounts.
      const claimIds: string[] = [];
      for (const [rewardId, cents] of [
        [rewards.noKey, 501],
        [rewards.sameKey, 702],
        [rewards.ownKeys, 1103],
      ] as const) {
        const rows = await claimsOf(db, top.id, rewardId);
        expect(rows.map((r) => Number(r.amount_cents))).toEqual([cents]);
        claimIds.push(rows[0]?.id as string);
      }
      expect(await rewardTransfers(db, top.id)).toEqual(
        [
          { reference: `reward:${claimIds[0]}`, cents: 501, phase: 'single' },
          { reference: `reward:${claimIds[1]}`, cents: 702, phase: 'single' },
          { reference: `reward:${claimIds[2]}`, cents: 1103, phase: 'single' },
        ].sort((a, b) => (a.reference < b.reference ? -1 : 1)),
      );
      expect((await workingCents(books, top.id)) - before).toBe(501 + 702 + 1103);

      // Later repeats: the key's stored answer on either process; a 409 without it; nothing moves.
      const repeat = await claim(browsers[1] as ApiClient, top, rewards.sameKey, `same-${top.id}`);
      expect([repeat.status, repeat.body]).toEqual([201, { message: REWARD_MESSAGES.claimed }]);
      expect((await claim(browsers[0] as ApiClient, top, rewards.noKey)).status).toBe(409);
      expect((await workingCents(books, top.id)) - before).toBe(501 + 702 + 1103);
      await expectBooksBalanced(await adminOn(two.url));
    },
    PROCESS_TEST_MS,
  );
});

describe('the CTO across server processes', () => {
  it(
    'PostgreSQL: Pay for one ended month pressed on two processes at once pays it once, one payment per rank holder',
    async () => {
      const shared = await rewardsDatabase('postgres');
      const [one, two] = await Promise.all([shared.start('one'), shared.start('two')]);
      const db = shared.handle();
      const adminOne = await adminOn(one.url);
      const adminTwo = await adminOn(two.url);
      const books = { baseUrl: one.url, db };
      // The top two ranks: Star (100.00) and Crown (50.00); the whole chain holds Star.
      await addReward(adminOne, 'Crown', '50', '1');
      await addReward(adminOne, 'Star', '100', '1');
      const holders = await chainOfHolders(books, adminOne, 8);
      const month = monthsAgo(1);
      await depositIn(books, adminOne, month, '1000'); // a pool of 10.00: 1.25 each
      const before = await workingOf(books, holders);

      // The same admin with a session on each process; on each, five Pays without a key and five
      // with one key (the same key on both: the same admin's retries).
      const key = `cto-${month}`;
      const presses = Array.from({ length: 20 }, (_, i) => {
        const admin = i % 2 ? adminTwo : adminOne;
        return i % 4 < 2
          ? { keyed: false, answer: pay(admin, month) }
          : { keyed: true, answer: pay(admin, month, key) };
      });
      const answers = await Promise.all(presses.map(async (p) => ({ keyed: p.keyed, res: await p.answer })));
      for (const { res } of answers) expect([201, 409], res.text).toContain(res.status);
      const paid = answers.filter((a) => a.res.status === 201);
      expect(paid.length).toBeGreaterThan(0);
      // One Pay paid: every 201 is its answer (the keyed ones the stored answer), every other a 409.
      for (const a of paid) expect(a.res.body).toEqual(paid[0]?.res.body);
      expect(paid[0]?.res.body).toMatchObject({
        message: CTO_MESSAGES.paid,
        payment: { month, members: 8, pool: '10.00', per_member: '1.25' },
      });
      const unkeyedPaid = paid.filter((a) => !a.keyed).length;
      if (unkeyedPaid > 0) expect(paid).toHaveLength(1);
      else expect(paid).toHaveLength(10);
      for (const a of answers.filter((x) => x.res.status === 409))
        expect(a.res.body.message).toBe(CTO_MESSAGES.alreadyPaid);

      await expectPaidOnce(db, month, holders, 125);
      const after = await workingOf(books, holders);
      expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual(Array(8).fill(125));
      // A Pay after it all, on either process: the month stays paid once.
      const again = await pay(adminTwo, month);
      expect([again.status, again.body.message]).toEqual([409, CTO_MESSAGES.alreadyPaid]);
      await expectPaidOnce(db, month, holders, 125);
      await expectBooksBalanced(adminTwo);
    },
    PROCESS_TEST_MS,
  );
});

describe('a claim and a CTO pay whose server is killed with SIGKILL', () => {
  it(
    'PostgreSQL: killed inside their transactions, before the commit: nothing stays, and the retries with the same keys pay once',
    async () => {
      const shared = await rewardsDatabase('postgres');
      let server = await shared.start('first');
      const db = shared.handle();
      const admin = await adminOn(server.url);
      const books = { baseUrl: server.url, db };
      await addReward(admin, 'Crown', '50', '1');
      const star = await addReward(admin, 'Star', '100', '12.34');
      const holders = await chainOfHolders(books, admin, 4);
      const top = holders[0] as Member;
      const month = monthsAgo(1);
      await depositIn(books, admin, month, '1000'); // 2.50 each
      const before = await workingOf(books, holders);
      const claimKey = `claim-crash-${top.id}`;
      const payKey = `cto-crash-${month}`;
      let memberBrowser = top.client;
      let adminBrowser = admin;
      let restarts = 0;

      const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await locker.connect();
      cleanups.push(() => locker.end());
      /**
       * Sends a request while another session locks the table it writes its key's record to after its
       * work (idempotency.service.ts runOnce: work, then insertKey): it waits inside its transaction,
       * its writes made and not committed. Then the server is killed there. One request at a time: a
       * claim and a Pay both debit the platform's income account, and the second would wait on that
       * row instead.
       */
      const heldAndKilled = async (send: () => Promise<ApiResponse>, writes: string[]) => {
        await locker.query('begin');
        await locker.query(`lock table ${shared.schema}.idempotency_keys in exclusive mode`);
        const answer = send().then(
          (res) => ({ answered: res.status }),
          (error: unknown) => ({ failed: error }),
        );
        const waiting = await waitFor('the request to wait on the key table', async () => {
          const { rows } = await locker.query<{ pid: number }>(
            `select l.pid from pg_locks l
               join pg_class c on c.oid = l.relation
               join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = $1 and c.relname = 'idempotency_keys' and not l.granted`,
            [shared.schema],
          );
          return rows[0]?.pid;
        });
        const { rows: written } = await locker.query<{ relname: string }>(
          `select distinct c.relname from pg_locks l
             join pg_class c on c.oid = l.relation
             join pg_namespace n on n.oid = c.relnamespace
           where l.pid = $1 and l.granted and l.mode = 'RowExclusiveLock' and n.nspname = $2 and c.relkind = 'r'`,
          [waiting, shared.schema],
        );
        expect(written.map((r) => r.relname)).toEqual(expect.arrayContaining(writes));
        await kill(server);
        expect(await answer).toHaveProperty('failed');
        await locker.query('rollback');
        // The killed server's session finds its client gone once it can go on, and rolls back.
        await waitFor('the killed server’s session to end', async () => {
          const { rows } = await locker.query('select 1 from pg_stat_activity where pid = $1', [waiting]);
          return rows.length === 0;
        });
        restarts += 1;
        server = await shared.start(`restart-${restarts}`);
        memberBrowser = sameBrowserOn(server.url, memberBrowser);
        adminBrowser = sameBrowserOn(server.url, adminBrowser);
      };

      // The claim, killed after writing its claim row and its transfer.
      await heldAndKilled(
        () => claim(memberBrowser, top, star, claimKey),
        ['reward_claims', 'ledger_accounts', 'ledger_transfers'],
      );
      expect(await claimsOf(db, top.id, star)).toEqual([]);
      expect(await rewardTransfers(db, top.id)).toEqual([]);
      // The Pay, killed after writing the month's row, every payout and every transfer.
      await heldAndKilled(
        () => pay(adminBrowser, month, payKey),
        ['cto_payments', 'cto_payouts', 'ledger_accounts', 'ledger_transfers', 'audit_log'],
      );
      expect(await ctoPaymentsOf(db, month)).toEqual([]);
      expect(await ctoPayoutsOf(db, month)).toEqual([]);
      expect(await ctoTransfersPerAccount(db, month)).toEqual({});
      expect(await workingOf(books, holders)).toEqual(before);

      // The member's and the admin's browsers retry, same keys, on the new process: paid once each.
      const retried = await claim(memberBrowser, top, star, claimKey);
      expect([retried.status, retried.body]).toEqual([201, { message: REWARD_MESSAGES.claimed }]);
      const repaid = await pay(adminBrowser, month, payKey);
      expect(repaid.status, repaid.text).toBe(201);
      expect(repaid.body.payment).toMatchObject({ month, members: 4, per_member: '2.50' });
      // And again: the stored answers, nothing more.
      expect(await claim(memberBrowser, top, star, claimKey)).toMatchObject({
        status: 201,
        body: retried.body,
      });
      expect(await pay(adminBrowser, month, payKey)).toMatchObject({ status: 201, body: repaid.body });

      const rows = await claimsOf(db, top.id, star);
      expect(rows).toHaveLength(1);
      expect(await rewardTransfers(db, top.id)).toEqual([
        { reference: `reward:${rows[0]?.id}`, cents: 1234, phase: 'single' },
      ]);
      await expectPaidOnce(db, month, holders, 250);
      const after = await workingOf(books, holders);
      expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual([250 + 1234, 250, 250, 250]);
      await expectBooksBalanced(await adminOn(server.url));
    },
    PROCESS_TEST_MS,
  );

  it(
    'killed at once or a little later, attempt after attempt: the retry with the same key on a new process pays exactly once',
    async () => {
      const shared = await rewardsDatabase(projectDialect);
      let server = await shared.start('start');
      const db = shared.handle();
      const admin = await adminOn(server.url);
      const books = { baseUrl: server.url, db };
      // Enough rank holders for a month's CTO to take a measurable time to pay.
      const HOLDERS = 20;
      const ATTEMPTS = 5;
      await addReward(admin, 'Crown', '50', '1');
      await addReward(admin, 'Star', '100', '1');
      const holders = await chainOfHolders(books, admin, HOLDERS);
      const top = holders[0] as Member;
      const attempts = [];
      for (let i = 0; i < ATTEMPTS; i += 1) {
        const month = monthsAgo(i + 1);
        await depositIn(books, admin, month, '900'); // 9.00 over 20: 0.45 each
        attempts.push({
          month,
          reward: await addReward(admin, `Rung ${i}`, String(i + 1), `1.0${i}`),
          cents: 100 + i,
        });
      }
      const before = await workingOf(books, holders);
      let memberBrowser = top.client;
      let adminBrowser = admin;

      for (const [i, attempt] of attempts.entries()) {
        const claimKey = `claim-kill-${i}-${top.id}`;
        const payKey = `cto-kill-${attempt.month}`;
        // Sent together; the process dies 0, 20, 50 or 120 ms later, before or after either commit
        // (wherever it lands), and in the last attempt once both have committed, answered or not.
        const claimed = claim(memberBrowser, top, attempt.reward, claimKey).catch(() => undefined);
        const paid = pay(adminBrowser, attempt.month, payKey).catch(() => undefined);
        if (i < ATTEMPTS - 1) await sleep([0, 20, 50, 120][i] ?? 0);
        else
          await waitFor('the claim and the Pay to commit', async () => {
            const [claims, payments] = await Promise.all([
              claimsOf(db, top.id, attempt.reward),
              ctoPaymentsOf(db, attempt.month),
            ]);
            return claims.length > 0 && payments.length > 0;
          });
        await kill(server);
        const [claimAnswer, payAnswer] = await Promise.all([claimed, paid]);
        // Whatever the kill interrupted: a claim with its transfer or neither, a month paid whole or
        // not at all. Read in one statement (one snapshot): on PostgreSQL the killed server's session
        // can outlive it for a moment, and a COMMIT it had sent may land between two reads.
        const seen = await snapshot(db, top.id, attempt.reward, attempt.month);
        expect(seen.claims).toBeLessThanOrEqual(1);
        expect(seen.rewardTransfers).toBe(i + seen.claims);
        expect(seen.payments).toBeLessThanOrEqual(1);
        expect(seen.ctoTransfers).toBe(seen.payments * HOLDERS);
        // An answer read before the kill was a success, and then it is in the database.
        if (claimAnswer) {
          expect(claimAnswer.status, claimAnswer.text).toBe(201);
          expect(seen.claims).toBe(1);
        }
        if (payAnswer) {
          expect(payAnswer.status, payAnswer.text).toBe(201);
          expect(seen.payments).toBe(1);
        }
        const claimRows = await claimsOf(db, top.id, attempt.reward);
        const payments = await ctoPaymentsOf(db, attempt.month);

        // The browsers retry on a new process with the same keys: a 201 (the stored one if there was one).
        server = await shared.start(`after-${i}`);
        memberBrowser = sameBrowserOn(server.url, memberBrowser);
        adminBrowser = sameBrowserOn(server.url, adminBrowser);
        const retried = await claim(memberBrowser, top, attempt.reward, claimKey);
        expect([retried.status, retried.body]).toEqual([201, { message: REWARD_MESSAGES.claimed }]);
        const repaid = await pay(adminBrowser, attempt.month, payKey);
        expect(repaid.status, repaid.text).toBe(201);
        expect(repaid.body.payment).toMatchObject({
          month: attempt.month,
          members: HOLDERS,
          per_member: '0.45',
        });
        if (payAnswer) expect(repaid.body).toEqual(payAnswer.body);
        if (payments.length) expect(repaid.body.payment.paid_at).toBe(payments[0]?.paid_at);
        expect(await pay(adminBrowser, attempt.month, payKey)).toMatchObject({
          status: 201,
          body: repaid.body,
        });

        const rows = await claimsOf(db, top.id, attempt.reward);
        expect(rows.map((r) => Number(r.amount_cents))).toEqual([attempt.cents]);
        if (claimRows.length) expect(rows[0]?.id).toBe(claimRows[0]?.id);
        await expectPaidOnce(db, attempt.month, holders, 45);
      }

      // Over all attempts: each reward once into the member's Income Working, each month once to each holder.
      const rewardCents = attempts.reduce((sum, a) => sum + a.cents, 0);
      expect((await rewardTransfers(db, top.id)).map((t) => t.cents).sort()).toEqual(
        attempts.map((a) => a.cents).sort(),
      );
      const after = await workingOf({ baseUrl: server.url, db }, holders);
      expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual(
        holders.map((_, i) => ATTEMPTS * 45 + (i === 0 ? rewardCents : 0)),
      );
      await expectBooksBalanced(await adminOn(server.url));
    },
    PROCESS_TEST_MS,
  );
});
