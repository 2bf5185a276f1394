import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../../src/server/db/database.ts';
import { ApiClient } from '../helpers/client.ts';
import { expectBooksBalanced } from '../helpers/income.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { PROCESS_ADMIN, type ServerProcess, sleep, startServerProcess } from '../helpers/server-process.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { accountCents, type Payee, payee, pendingCount, withdrawalCode } from '../helpers/withdrawals.ts';

// RULES.md "Withdrawals" and "Money" (Idempotency-Key) against a server killed with SIGKILL while it
// answers a withdrawal request. Killed after it has held the money but before its transaction
// committed: the hold and the used-up code roll back with the process, and the client's retry with the
// same key and code, on a new process, holds the amount exactly once. Killed after the commit (the
// client never read the answer): the retry answers the stored 201 and holds nothing more.
// The first needs a second session on the database that makes the request wait inside its transaction
// (a table lock), so it runs on PostgreSQL in both projects, as income-processes.test.ts does with its
// PostgreSQL-only suite; the second runs on the project's database.
// Each test starts two server processes: these tests have a budget of their own (not a speed check).
const PROCESS_TEST_MS = 150_000;
const POLL_MS = 20;

const projectDialect = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Polls `read` until it returns something truthy (never a fixed sleep as the synchronisation). */
async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  timeoutMs = 30_000,
  /** What to add to the timeout's message: the state that explains it. */
  explain: () => Promise<string> = async () => '',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${await explain()}`);
    await sleep(POLL_MS);
  }
}

/**
 * A database for server processes (a SQLite file or a PostgreSQL schema), a real SMTP server they
 * mail the codes to, and the test's own handle on the database.
 */
async function sharedDatabase(dialect: 'sqlite' | 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'platform-withdraw-'));
  const schema = `t_wd_${randomBytes(5).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const smtp: TestSmtp = await startSmtp();
  const env: Record<string, string> =
    dialect === 'postgres'
      ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
      : { DATA_DIR: join(dir, 'db') };
  let db: Db | undefined;
  cleanups.push(async () => {
    await db?.destroy();
    await smtp.stop();
    if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (name: string): Promise<ServerProcess> => {
    const instance = await startServerProcess(
      {
        TRUST_PROXY: '127.0.0.1',
        INCOME_SCHEDULE: 'off',
        INCOME_RETRY_MS: '0',
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: '50',
        ...env,
      },
      dialect === 'postgres' ? join(dir, name) : join(dir, 'db'),
    );
    cleanups.push(instance.stop);
    return instance;
  };
  // Opened after the first server migrated the database.
  const handle = () => {
    db ??= createDatabase({
      databaseUrl: env.DATABASE_URL,
      databaseSchema: env.DATABASE_SCHEMA,
      dataDir: join(dir, 'db'),
    }).db;
    return db;
  };
  return { start, handle, smtp, schema };
}

const adminOn = async (url: string) => {
  const admin = new ApiClient(url);
  await admin.signIn(PROCESS_ADMIN, '/auth/adminsignin');
  return admin;
};

/** The same browser (its session and CSRF cookies, kept in the database) talking to another process. */
function sameBrowserOn(url: string, client: ApiClient): ApiClient {
  const moved = new ApiClient(url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

const kill = async (server: ServerProcess) => {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
};

const withdraw = (client: ApiClient, p: Payee, body: Record<string, unknown>, key: string) =>
  client.post('/withdrawalrequest/add', body, { ...p.from, 'Idempotency-Key': key });

/** The ledger transfers a request wrote (net and fee holds, and any settlement of them). */
async function transfersOf(db: Db, withdrawalId: string) {
  const rows = await db
    .selectFrom('ledger_transfers')
    .select(['phase', 'kind', 'amount_cents'])
    .where('reference', '=', `withdrawal:${withdrawalId}`)
    .orderBy('kind')
    .execute();
  return rows.map((r) => ({ phase: r.phase, kind: r.kind, cents: Number(r.amount_cents) }));
}

const HELD_40 = [
  { phase: 'pending', kind: 'withdrawal', cents: 3_800 },
  { phase: 'pending', kind: 'withdrawal_fee', cents: 200 },
];

describe('a withdrawal request whose server is killed with SIGKILL', () => {
  it(
    'PostgreSQL: killed after the hold, before the commit: nothing stays held, and the retry with the same key and code holds once',
    async () => {
      const shared = await sharedDatabase('postgres');
      const first = await shared.start('first');
      const db = shared.handle();
      const admin = await adminOn(first.url);
      const p = await payee({ baseUrl: first.url }, admin, shared.smtp, { working: '100.00' });
      const otp = await withdrawalCode(shared.smtp, p);
      const body = { amount: '40', otp };
      const key = `crash-${p.id}`;

      // Another session locks the table the request writes its key's record to, after the holds
      // (idempotency.service.ts runOnce: work, then insertKey): the request waits inside its transaction.
      const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await locker.connect();
      cleanups.push(() => locker.end());
      await locker.query('begin');
      await locker.query(`lock table ${shared.schema}.idempotency_keys in exclusive mode`);
      // The test watches from a session of its own, outside any transaction: inside the locker's,
      // pg_stat_activity is a snapshot taken at its first read, which never shows a connection the
      // server's pool opens later (the request's, when its pool grows or has closed an idle one).
      const observer = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await observer.connect();
      cleanups.push(() => observer.end());

      let settled: { answered: number; text: string } | { failed: unknown } | undefined;
      const answer = withdraw(p.client, p, body, key).then(
        (res) => (settled = { answered: res.status, text: res.text }),
        (error: unknown) => (settled = { failed: error }),
      );
      const waiting = await waitFor(
        'the request to wait on the key table',
        async () => {
          // An answer here means the request never reached the key table: say what it was.
          if (settled) throw new Error(`the request answered instead of waiting: ${JSON.stringify(settled)}`);
          const { rows } = await observer.query<{ pid: number; mode: string; wait_event_type: string }>(
            `select a.pid, l.mode, a.wait_event_type from pg_locks l
             join pg_class c on c.oid = l.relation
             join pg_namespace n on n.oid = c.relnamespace
             join pg_stat_activity a on a.pid = l.pid
           where n.nspname = $1 and c.relname = 'idempotency_keys' and not l.granted`,
            [shared.schema],
          );
          return rows[0];
        },
        undefined,
        async () => {
          // Every session of the database that waits, and on what: the request may wait elsewhere.
          const { rows } = await observer.query(
            `select pid, state, wait_event_type, wait_event, left(query, 200) as query from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
          );
          return JSON.stringify(rows);
        },
      );
      // pg_locks, not pg_stat_activity's query text: PostgreSQL reports a statement there only after
      // parsing it, and the insert waits for its table lock while being parsed.
      expect(waiting).toMatchObject({ mode: 'RowExclusiveLock', wait_event_type: 'Lock' });
      // It has written the holds, the request row and the used-up code (its write locks on them),
      // none of which another session can see: nothing is committed.
      const { rows: written } = await observer.query<{ relname: string }>(
        `select distinct c.relname from pg_locks l
           join pg_class c on c.oid = l.relation
           join pg_namespace n on n.oid = c.relnamespace
         where l.pid = $1 and l.granted and l.mode = 'RowExclusiveLock' and n.nspname = $2 and c.relkind = 'r'`,
        [waiting.pid, shared.schema],
      );
      expect(written.map((r) => r.relname)).toEqual(
        expect.arrayContaining(['email_codes', 'ledger_accounts', 'ledger_transfers', 'withdrawals']),
      );
      expect(await accountCents(db, `${p.id}:working`)).toEqual({
        balance: 10_000,
        held: 0,
        available: 10_000,
      });

      await kill(first);
      expect(await answer).toHaveProperty('failed');
      await locker.query('rollback');
      // The killed server's database session finds its client gone once it can go on, and rolls back.
      await waitFor('the killed server’s session to end', async () => {
        const { rows } = await observer.query('select 1 from pg_stat_activity where pid = $1', [waiting.pid]);
        return rows.length === 0;
      });
      expect(await accountCents(db, `${p.id}:working`)).toEqual({
        balance: 10_000,
        held: 0,
        available: 10_000,
      });
      expect(await pendingCount(db, p.id)).toBe(0);

      // The browser retries the same request, key and code on a new process.
      const second = await shared.start('second');
      const browser = sameBrowserOn(second.url, p.client);
      const retry = await withdraw(browser, p, body, key);
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body.withdrawal).toMatchObject({ user_id: p.id, amount: '40.00', status: 'pending' });
      const again = await withdraw(browser, p, body, key);
      expect(again.status, again.text).toBe(201);
      expect(again.body).toEqual(retry.body);

      expect(await pendingCount(db, p.id)).toBe(1);
      expect(await accountCents(db, `${p.id}:working`)).toEqual({
        balance: 10_000,
        held: 4_000,
        available: 6_000,
      });
      expect(await transfersOf(db, retry.body.withdrawal.id)).toEqual(HELD_40);
      await expectBooksBalanced(await adminOn(second.url));
    },
    PROCESS_TEST_MS,
  );

  it(
    'killed after the commit, before the client read the answer: the retry with the key answers the stored 201 and holds nothing more',
    async () => {
      const shared = await sharedDatabase(projectDialect);
      const first = await shared.start('first');
      const db = shared.handle();
      const admin = await adminOn(first.url);
      const p = await payee({ baseUrl: first.url }, admin, shared.smtp, { working: '100.00' });
      const otp = await withdrawalCode(shared.smtp, p);
      const body = { amount: '40', otp };
      const key = `lost-answer-${p.id}`;

      // The answer is never read: the process dies as soon as the request is in the database.
      const unread = withdraw(p.client, p, body, key).catch(() => undefined);
      const committed = await waitFor('the request to commit', () =>
        db.selectFrom('withdrawals').select('id').where('user_id', '=', p.id).executeTakeFirst(),
      );
      await kill(first);
      await unread;

      const second = await shared.start('second');
      const browser = sameBrowserOn(second.url, p.client);
      const retry = await withdraw(browser, p, body, key);
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body.withdrawal).toMatchObject({
        id: committed.id,
        user_id: p.id,
        amount: '40.00',
        fee: '2.00',
        net_amount: '38.00',
        status: 'pending',
      });
      const again = await withdraw(browser, p, body, key);
      expect(again.status, again.text).toBe(201);
      expect(again.body).toEqual(retry.body);

      expect(await pendingCount(db, p.id)).toBe(1);
      expect(await accountCents(db, `${p.id}:working`)).toEqual({
        balance: 10_000,
        held: 4_000,
        available: 6_000,
      });
      expect(await transfersOf(db, committed.id)).toEqual(HELD_40);
      await expectBooksBalanced(await adminOn(second.url));
    },
    PROCESS_TEST_MS,
  );
});
