import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { LIMITS, SIGN_IN_SLOWDOWN } from '../../src/server/modules/auth/auth.service.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { countOf, type LiveStream, openStream, sleep } from '../fixtures/live-stream.ts';
import { ApiClient, registerMember, signedInMember } from '../helpers/client.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { adminOn, type ServerProcess, sameBrowserOn, sharedDatabase } from '../helpers/server-process.ts';

// Issue 20: two server processes on one PostgreSQL schema answer as one server (DESIGN.md "Scaling
// out"). One pair, started at once on an empty schema, shows here: the migrations apply once and the
// schema is the one a single process makes; a member signed in on one is signed in on the other;
// the rate limits count the attempts on both together; a notification created through one reaches
// the member's live stream on the other.
// Proven beside their own rules, by the same kind of pair on one schema (one place per rule): an
// income run (income-processes.test.ts), a month's salary (salary-processes.test.ts) and a CTO Pay
// (rewards-processes.test.ts, "the CTO across server processes") pressed on both at once pay once,
// checked in the ledger with the books balanced; a settings change through one rules the next
// transfer through the other (settings.test.ts).
// It runs on PostgreSQL in both vitest projects, as income-processes.test.ts does: several servers on
// one database is a PostgreSQL deployment. Starting the pair can take most of a minute on a busy
// 2-core machine: the start and the stop have a budget of their own (not a speed check).
const PROCESS_START_MS = 150_000;

/**
 * Kysely's migration lock on PostgreSQL (PostgresAdapter's LOCK_ID, a session advisory lock): the
 * test holds it while both processes start, so both are at the migrations together, not one after
 * the other by chance. The lock is the whole database's: another suite's server starting in those
 * seconds waits for it too, as it would for a migrating server.
 */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';
const MIGRATIONS = readdirSync(new URL('../../src/server/db/migrations/', import.meta.url))
  .filter((file) => /^\d{4}-[a-z0-9-]+\.ts$/.test(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

const cleanups: (() => Promise<void>)[] = [];
let shared: Awaited<ReturnType<typeof sharedDatabase>>;
let one: ServerProcess;
let two: ServerProcess;
const streams: LiveStream[] = [];

async function pgClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  return client;
}

beforeAll(async () => {
  shared = await sharedDatabase('postgres', {
    dirPrefix: 'cluster',
    schemaPrefix: 'clu',
    env: {
      TRUST_PROXY: '127.0.0.1',
      INCOME_SCHEDULE: 'off',
      INCOME_RETRY_MS: '0',
      SALARY_SCHEDULE: 'off',
      SALARY_RETRY_MS: '0',
    },
    cleanups,
  });
  const locker = await pgClient();
  cleanups.push(() => locker.end());
  await locker.query('select pg_advisory_lock($1)', [KYSELY_MIGRATION_LOCK]);
  // Each process's connections carry a name of its own (PGAPPNAME), so the wait below sees these two
  // and not another suite's server waiting for the same lock.
  const names = { one: `${shared.schema}-one`, two: `${shared.schema}-two` };
  let failed = false;
  const start = (name: 'one' | 'two') =>
    shared.start(name, { PGAPPNAME: names[name] }).catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const starts = [start('one'), start('two')] as const;
  const settled = Promise.allSettled(starts);
  let bothWaited = false;
  try {
    const deadline = Date.now() + 60_000;
    while (!failed && Date.now() < deadline) {
      const { rows } = await locker.query<{ n: number }>(
        `select count(distinct application_name)::int as n from pg_stat_activity
          where application_name = any($1) and wait_event_type = 'Lock' and wait_event = 'advisory'`,
        [[names.one, names.two]],
      );
      bothWaited = rows[0]?.n === 2;
      if (bothWaited) break;
      await sleep(50);
    }
  } finally {
    await locker.query('select pg_advisory_unlock($1)', [KYSELY_MIGRATION_LOCK]);
  }
  // Both settled first: a failed start is thrown once the other has started (and is in the clean-ups).
  await settled;
  [one, two] = await Promise.all(starts);
  if (!bothWaited) throw new Error('the two processes never both waited for the migrations');
}, PROCESS_START_MS);

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, PROCESS_START_MS);

/** The schema's tables, columns, constraints, indexes, sequences, triggers and functions, its name left out. */
async function catalogOf(schema: string) {
  const client = await pgClient();
  try {
    const read = async (text: string) => {
      const { rows } = await client.query(text, [schema]);
      return JSON.parse(JSON.stringify(rows).replaceAll(schema, '<schema>'));
    };
    return {
      relations: await read(
        `select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 order by 1`,
      ),
      columns: await read(
        `select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
           from information_schema.columns where table_schema = $1 order by 1, 3`,
      ),
      constraints: await read(
        `select c.relname, con.conname, pg_get_constraintdef(con.oid) as definition
           from pg_constraint con join pg_class c on c.oid = con.conrelid
           join pg_namespace n on n.oid = con.connamespace where n.nspname = $1 order by 1, 2`,
      ),
      indexes: await read(
        'select tablename, indexname, indexdef from pg_indexes where schemaname = $1 order by 1, 2',
      ),
      triggers: await read(
        `select event_object_table, trigger_name, event_manipulation, action_timing, action_statement
           from information_schema.triggers where trigger_schema = $1 order by 1, 2, 3`,
      ),
      functions: await read(
        `select p.proname, pg_get_functiondef(p.oid) as definition from pg_proc p
           join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1 and p.prokind = 'f' order by 1`,
      ),
    };
  } finally {
    await client.end();
  }
}

/** What one process alone makes of an empty schema: the migrations run once, by themselves. */
async function catalogMigratedAlone() {
  const schema = `t_cluref_${randomBytes(5).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  const { db } = createDatabase({
    databaseUrl: TEST_DATABASE_URL,
    databaseSchema: schema,
    dataDir: tmpdir(),
  });
  try {
    await migrateToLatest(db, schema);
    return await catalogOf(schema);
  } finally {
    await db.destroy();
    await adminQuery(`drop schema ${schema} cascade`);
  }
}

describe('two server processes started at once on an empty PostgreSQL schema', () => {
  it('both become healthy, each migration is applied once, and the schema is what one process alone makes', async () => {
    for (const server of [one, two]) {
      const ready = await fetch(`${server.url}/api/v1/health/ready`);
      expect(ready.status).toBe(200);
    }
    const db = shared.handle();
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((row) => row.name)).toEqual(MIGRATIONS);
    const raced = await catalogOf(shared.schema);
    expect(raced.relations.length).toBeGreaterThan(MIGRATIONS.length);
    expect(raced).toEqual(await catalogMigratedAlone());
    // Both made the first admin if there was none: there is one, and it signs in on either process.
    const admins = await db.selectFrom('users').select('email').where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
    for (const server of [one, two]) expect((await adminOn(server.url)).sid).toBeTruthy();
  });
});

describe('a session made on one process', () => {
  it('is signed in on the other: the same cookie answers there, and its CSRF token is accepted', async () => {
    const { client, auth, expireAt } = await signedInMember(one.url);
    const onTwo = sameBrowserOn(two.url, client);
    const session = await onTwo.get('/auth/session');
    expect(session.status, session.text).toBe(200);
    expect(session.body).toEqual({ auth, expireAt });
    const changed = await onTwo.put('/profile', { fullname: 'Across Processes' });
    expect(changed.status, changed.text).toBe(200);
    expect((await client.get('/auth/session')).body.auth.fullname).toBe('Across Processes');
  });

  it('ends on both when the member signs out on the other', async () => {
    const { client } = await signedInMember(one.url);
    const onTwo = sameBrowserOn(two.url, client);
    const out = await onTwo.post('/auth/signout');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: AUTH.signedOut });
    // The old cookie, replayed on the process that made it.
    const replay = await client.get('/auth/session');
    expect([replay.status, replay.body]).toEqual([401, { message: GENERIC.notSignedIn }]);
  });

  it('ends on both when an admin on the other blocks the member', async () => {
    const { client, auth } = await signedInMember(two.url);
    const adminOne = await adminOn(one.url);
    const block = await adminOne.put(`/users/${auth.id}`, {
      status: 'block',
      updated_at: new Date().toISOString(),
    });
    expect(block.status, block.text).toBe(200);
    expect((await client.get('/wallet/balance')).status).toBe(401);
  });
});

let nextAddress = 0;
/** A fresh documentation address (TEST-NET-3) per call: a client of its own, as far as the servers see. */
const freshAddress = () => {
  nextAddress += 1;
  return `203.0.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};

const signInOn = (url: string, body: { email: string; password: string }, forwardedFor: string) =>
  new ApiClient(url).post('/auth/signin', body, { 'x-forwarded-for': forwardedFor });

const statuses = (answers: { status: number }[]) => answers.map((res) => res.status).sort();

describe('rate limits on two processes', () => {
  it('count the failed sign-ins from one address on both together: the attempt after the limit is refused wherever it lands', async () => {
    const member = await registerMember(one.url);
    const address = freshAddress();
    const { max } = LIMITS.signInFailuresPerIpAndEmail;
    const urls = [one.url, two.url];
    for (let i = 0; i < max; i++) {
      const wrong = await signInOn(
        urls[i % 2] as string,
        { email: member.email, password: `guess-${i}-x` },
        address,
      );
      expect(wrong.status, wrong.text).toBe(401);
    }
    // Counted on one process alone, each would still allow more; together they are done, even for
    // the right password.
    for (const url of urls) {
      const refused = await signInOn(url, member, address);
      expect([refused.status, refused.body]).toEqual([429, { message: GENERIC.tooManyRequests }]);
    }
    // Another address is another client, on either process.
    expect((await signInOn(two.url, member, freshAddress())).status).toBe(200);
  });

  it('let exactly as many of 40 parallel wrong passwords from one address reach the check, spread over both, as one process does', async () => {
    const member = await registerMember(two.url);
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signInOn(i % 2 ? two.url : one.url, { email: member.email, password: `guess-${i}-x` }, address),
      ),
    );
    const { max } = LIMITS.signInFailuresPerIpAndEmail;
    expect(statuses(answers)).toEqual([...Array(max).fill(401), ...Array(40 - max).fill(429)]);
  });

  it('slow down guesses at one account from many addresses on both together', async () => {
    const member = await registerMember(one.url);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        signInOn(
          i % 2 ? two.url : one.url,
          { email: member.email, password: `guess-${i}-x` },
          freshAddress(),
        ),
      ),
    );
    // As in auth-signin-limits.test.ts: `free` pass at once, then one more each time a wait is over
    // while the burst is still arriving. Counted per process, each would let `free` through.
    const elapsedMs = Date.now() - started;
    const { free, delaysMs } = SIGN_IN_SLOWDOWN;
    let waitsOver = 0;
    for (let i = 0, end = delaysMs[0] as number; end <= elapsedMs; i++, end += delaysMs[i] as number)
      waitsOver += 1;
    const passed = answers.filter((res) => res.status === 401).length;
    expect(passed).toBeGreaterThanOrEqual(free);
    expect(passed).toBeLessThanOrEqual(free + waitsOver);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(24 - passed);
  });
});

const open = async (baseUrl: string, client: ApiClient) => {
  const stream = await openStream(baseUrl, client.cookieHeader());
  expect(stream.status).toBe(200);
  streams.push(stream);
  await stream.waitFor((m) => m.some((x) => x.topic === 'ready'));
  return stream;
};
const notifications = (s: LiveStream) => countOf(s.messages, 'notifications');

describe('live delivery across the two processes (LISTEN/NOTIFY)', () => {
  it('delivers a notification made on one process to the member’s streams open on both', async () => {
    const a = await signedInMember(one.url);
    const b = await signedInMember(two.url);
    const bystander = await signedInMember(one.url);
    const aOnOne = await open(one.url, a.client);
    const aOnTwo = await open(two.url, a.client);
    const bOnTwo = await open(two.url, b.client);
    const bystanderOnTwo = await open(two.url, bystander.client);

    const adminOne = await adminOn(one.url);
    const created = await adminOne.post('/notifications', {
      title: 'Across processes',
      message: 'Hello from process one',
      users: false,
      recipients: [a.auth.id, b.auth.id],
    });
    expect(created.status, created.text).toBe(201);
    for (const s of [aOnOne, aOnTwo, bOnTwo]) await s.waitFor(() => notifications(s) === 1);

    // The other way round: an admin on process two, a stream on process one.
    const adminTwo = await adminOn(two.url);
    const all = await adminTwo.post('/notifications', { title: 'Everyone', message: 'From two' });
    expect(all.status, all.text).toBe(201);
    for (const s of [aOnOne, aOnTwo, bOnTwo]) await s.waitFor(() => notifications(s) === 2);
    await bystanderOnTwo.waitFor(() => notifications(bystanderOnTwo) === 1);
    await sleep(300);
    // Exactly once per stream, and nothing for a member a notification was not for.
    expect([aOnOne, aOnTwo, bOnTwo, bystanderOnTwo].map(notifications)).toEqual([2, 2, 2, 1]);

    // Both processes read the same notifications.
    const listOnTwo = await sameBrowserOn(two.url, a.client).get(`/notifications/user/${a.auth.id}`);
    expect(listOnTwo.body.notifications.map((n: { title: string }) => n.title)).toEqual([
      'Everyone',
      'Across processes',
    ]);
  });

  it('keeps delivering after the database drops the listening connections (each stream is told to refetch)', async () => {
    const a = await signedInMember(two.url);
    const stream = await open(two.url, a.client);
    await adminQuery(
      `select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN "live_${shared.schema}"'`,
    );
    // The listener reconnects and, having perhaps missed something, asks every stream to refetch.
    await stream.waitFor((m) => m.some((x) => x.topic === '*'), 15_000);

    const created = await (await adminOn(one.url)).post('/notifications', {
      title: 'After the drop',
      message: 'Still live',
      users: false,
      recipients: [a.auth.id],
    });
    expect(created.status, created.text).toBe(201);
    await stream.waitFor(() => notifications(stream) === 1);
  });
});
