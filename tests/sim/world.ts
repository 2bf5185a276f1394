import { randomBytes } from 'node:crypto';
import { existsSync, fsyncSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import * as v from 'valibot';
import { loadConfig } from '../../src/server/config.ts';
import { createDatabase, type Db, type Dialect } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { UserTable } from '../../src/server/db/schema.ts';
import { AppError } from '../../src/server/http/errors.ts';
import type { SessionUser } from '../../src/server/http/session.ts';
import { hashToken } from '../../src/server/http/tokens.ts';
import { register, resolveSession, startSession } from '../../src/server/modules/auth/auth.service.ts';
import type { Outcome } from '../../src/server/modules/idempotency/idempotency.service.ts';
import { createAdmin } from '../../src/server/modules/users/admins.service.ts';
import { updateMember } from '../../src/server/modules/users/users.service.ts';
import { memberEditSchema } from '../../src/shared/member-edit.ts';
import { WALLETS } from '../../src/shared/wallets.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { type Defect, type FaultPlan, FaultPlugin, InjectedFault } from './fault-plugin.ts';
import { type Rng, rng } from './prng.ts';

// What every part of the money simulator shares (docs/simulator.md): the world a run happens in (a
// fresh database, its admin and members), the model of what the services answered, the shape of an
// operation and of an answer, and the contract of a domain: the operations of one money path (the
// ledger's transfers, crypto payments, ...), how a seed makes them, how a client sends them, what
// their answers teach the model, and the domain's own checks after every step.

export const DAY_MS = 86_400_000;
export const START = Date.UTC(2026, 0, 5, 9, 0, 0);

export type WalletName = (typeof WALLETS)[number];

/**
 * A crash before statement k (1-based): the operation fails, or with `reopen` the whole process is
 * dropped there and the database opened again; or an answer lost after the work committed.
 */
export type Fault = { failBefore: number; reopen?: boolean } | { lostAnswer: true } | undefined;

/** What every operation carries besides its kind and inputs. */
export type OpBase = {
  /** Runs in the same step as the operation before it (concurrently). */
  join: boolean;
  /** Event-loop turns to wait before sending, so concurrent operations interleave as the seed says. */
  delay: number;
  /** Simulated milliseconds that pass before the step. */
  advanceMs: number;
  key: string | undefined;
  fault: Fault;
};

export type Answer = {
  status: number;
  body?: unknown;
  replayed?: boolean;
  crashed?: boolean;
  /** Domain-specific facts seen during the call (e.g. what a provider answered the service). */
  seen?: unknown;
};

export type SimOptions = {
  seed: number;
  ops: number;
  dialect: Dialect;
  /** Operations in flight at once, at most (1: one at a time). */
  maxConcurrency?: number;
  members?: number;
  /** A deliberate defect to find (fault-plugin.ts DEFECTS); none in a normal run. */
  defect?: Defect;
  /** Whether a planned crash may drop the whole process and reopen the database (default true). */
  reopen?: boolean;
  /** Called every `progressEveryMs` (10 s) of a run with the operations run so far (a long run's report). */
  progress?: (done: { ops: number; steps: number; checks: number; statements: number }) => void;
  progressEveryMs?: number;
};

export type Member = { id: string; token: string };

/**
 * The world a run happens in. `db` and `plugin` belong to the current process: when a fault drops it,
 * they are replaced by the reopened database's (read them from the world at each call, never keep them).
 */
export type World = {
  db: Db;
  dialect: Dialect;
  plugin: FaultPlugin;
  /** Processes dropped so far (each followed by a reopened database). */
  reopened: number;
  /** Settles once the database dropped last is open again (at once when none was). */
  reopening: Promise<void>;
  admin: Member;
  members: Member[];
  labels: Map<string, string>;
  /** The server's data directory (uploads are stored under it). */
  dataDir: string;
  close: () => Promise<void>;
};

/** What the services answered, in integer cents: the books must agree with it after every step. */
export class Model {
  balance = new Map<string, number>();
  held = new Map<string, number>();
  /** Ledger rows the answered operations wrote. */
  rows = 0;
  /** Ledger transfer ids answered in the current step, to find in the ledger exactly once. */
  fresh: string[] = [];
  /** Accounts whose expected balance or held amount changed in the current step. */
  touched = new Set<string>();
  /** (owner, key) -> the first successful answer's request and the id it named. */
  keys = new Map<string, { request: string; id: string }>();
  /** Each domain's own state, by domain name. */
  readonly states = new Map<string, unknown>();

  add(map: Map<string, number>, account: string, cents: number) {
    map.set(account, (map.get(account) ?? 0) + cents);
    this.touched.add(account);
  }

  /** A ledger transfer from `from` to `to` the answers say happened (not held). */
  move(from: string, to: string, cents: number, id?: string) {
    this.rows += 1;
    if (id) this.fresh.push(id);
    this.add(this.balance, from, -cents);
    this.add(this.balance, to, cents);
  }

  /**
   * One Idempotency-Key, one outcome: the same key and request must never name two different results.
   * Returns the broken rule, if any.
   */
  sameKeyOnce(ownerKey: string | undefined, request: string, id: string): string | undefined {
    if (!ownerKey) return undefined;
    const first = this.keys.get(ownerKey);
    if (first && first.request === request && first.id !== id)
      return `the key ${ownerKey} was answered with two different results (${first.id}, ${id})`;
    if (!first) this.keys.set(ownerKey, { request, id });
    return undefined;
  }
}

/** What a domain's functions get: the world, the model, and the domain's own state. */
export type Ctx<S> = { world: World; model: Model; state: S };

/** What a seed's generator offers a domain for one operation. */
export type GenContext = { members: number; key: string | undefined };

/**
 * One money path's operations. `O` is the domain's operation shape (its `kind` and raw inputs), `S` its
 * state in the model. Nothing `generate` returns may depend on answers: a list replays as is.
 */
export type Domain<O extends { kind: string }, S> = {
  name: string;
  /** The operation kinds it sends (each kind belongs to one domain). */
  kinds: readonly O['kind'][];
  /** The share of generated operations that are this domain's, relative to the other domains. */
  weight: number;
  generate(r: Rng, g: GenContext): O & { key: string | undefined };
  state(): S;
  /** Runs once on a fresh world before the first operation (plans, tiers, settings...). */
  setup?(c: Ctx<S>, admin: SessionUser): Promise<void>;
  /** Who owns the operation's Idempotency-Key (the signed-in person who sends it). */
  owner(world: World, op: OpBase & O): string;
  /**
   * Whether a client sends the operation again without an Idempotency-Key after it failed, as a
   * provider resends a notification until it is answered and a page polls again (an operation that is
   * safe to repeat by its content). Without a key, only these are sent again.
   */
  resends?(op: OpBase & O): boolean;
  /** Called once before the first send of an operation (not before its retry). */
  prepare?(c: Ctx<S>, op: OpBase & O): void;
  /**
   * What the client does before the step's operations are sent, one operation at a time (work that
   * leaves the event loop, such as an upload, and would otherwise finish in real time among them).
   */
  beforeStep?(c: Ctx<S>, op: OpBase & O): Promise<void>;
  /** Sends the operation once, as the client would, with `plan` deciding its injected fault. */
  send(c: Ctx<S>, op: OpBase & O, plan: FaultPlan): Promise<Answer>;
  /**
   * What an answer teaches the model; returns a broken rule, if any. Learned at the step's end, in the
   * order of `learnRank` (lower first), then in the order sent.
   */
  learn(c: Ctx<S>, op: OpBase & O, answer: Answer, ownerKey: string | undefined): string | undefined;
  learnRank?(op: OpBase & O): number;
  /** The id a retry's replay must name again (default: the answer's `transfer.id`). */
  resultId?(answer: Answer): string | undefined;
  /** The domain's own counts for the run's summary (e.g. payments credited). */
  summary?(state: S): Record<string, number>;
  /**
   * The domain's own invariants over the database, after every step. `full`: check everything (the
   * runner asks for it at some steps and at the end); otherwise it may check only what the step could
   * have changed, so that a long run does not slow down as its tables grow.
   */
  check?(c: Ctx<S>, full: boolean): Promise<string | undefined>;
};

/** A number of cents in a shape the route may or may not accept. */
export function amountInput(r: Rng): unknown {
  const roll = r.next();
  if (roll < 0.45) return (r.int(1, 20_000) / 100).toFixed(2); // up to $200
  if (roll < 0.6) return String(r.int(1, 99)); // whole dollars
  if (roll < 0.72) return (r.int(1_000, 10_000) / 1).toFixed(2); // around the review threshold and the daily limit
  if (roll < 0.8) return r.int(1, 5_000); // a JSON number
  return r.pick(['0', '-5.00', '1.234', 'abc', '', '   ', '1e3', '99999999999.99', null, '0.01', '10.5']);
}

export const walletInput = (r: Rng): unknown =>
  r.chance(0.95) ? r.pick(WALLETS) : r.pick(['savings', '', 42]);

/** A route's body check, then the service: the answer a client would get. */
export async function answerOf(work: () => Promise<Outcome>): Promise<Answer> {
  try {
    const outcome = await work();
    return { status: outcome.statusCode, body: outcome.body, replayed: outcome.replayed === true };
  } catch (error) {
    if (error instanceof AppError) return { status: error.statusCode, body: error.message };
    if (error instanceof InjectedFault) return { status: 0, crashed: true };
    if (error instanceof v.ValiError) return { status: 400, body: error.message };
    // The error handler would answer 500; the simulator treats it as a finding (see invariants).
    return { status: 500, body: String(error) };
  }
}

/** The work under the operation's fault plan, answered as a client would see it. */
export const faulty = (world: World, plan: FaultPlan, work: () => Promise<Outcome>) => {
  const { db, plugin } = world;
  return answerOf(() =>
    plugin.run(plan, async () => {
      let outcome: Outcome;
      try {
        outcome = await work();
      } catch (error) {
        throw plugin.crashOf(plan, error);
      }
      const crash = plugin.crashOf(plan, undefined);
      if (crash) throw crash;
      return (await plugin.afterWork(db, plan)) ?? outcome;
    }),
  );
};

/**
 * A read the simulator makes to observe what a call did (not part of the call): on the database open
 * now, after a dropped process's database is open again, and again if it was dropped during the read.
 */
export async function observe<T>(world: World, read: (db: Db) => Promise<T>): Promise<T> {
  for (;;) {
    await world.reopening;
    const process = world.plugin;
    try {
      return await read(world.db);
    } catch (error) {
      if (!(error instanceof InjectedFault) && !process.dropped) throw error;
    }
  }
}

/** The signed-in person as a request would find them; a client whose session ended signs in again. */
export async function sessionOf(world: World, who: Member): Promise<SessionUser> {
  const found = await resolveSession(world.db, hashToken(who.token));
  if (found) return found;
  const user = await world.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', who.id)
    .executeTakeFirstOrThrow();
  const session = await startSession(world.db, user, user.role, { ip: '10.8.0.1', userAgent: 'simulator' });
  who.token = session.token;
  return (await resolveSession(world.db, session.sessionId)) as SessionUser;
}

export const memberAt = (world: World, index: number) => world.members[index] as Member;

/**
 * PostgreSQL has no rowid: the simulator's own column numbers each ledger row as it is inserted, so a
 * step check reads the rows since the last step through an index (this run's database alone; the product
 * never reads it). A number is taken at insert, not at commit, but no operation is in flight between
 * two steps, so every row written since has a higher number than every row read before. (The
 * writing transaction's id, xmin, served before; no index covers it, and each step scanned the
 * ledger: a 10,000-operation run slowed down as its ledger grew.)
 */
async function markLedgerRows(db: Db) {
  await sql`alter table ledger_transfers add column if not exists sim_mark bigserial`.execute(db);
  await sql`create index if not exists ledger_transfers_sim_mark on ledger_transfers (sim_mark)`.execute(db);
}

/**
 * Indexes for the simulator's own step checks, made after the migrations (the product never reads by
 * these columns): a step reads the rows written or changed at its instant of the simulated clock, and
 * without an index each such read scanned a table that grows all run long, so that a step cost three
 * times as much after 100,000 operations as at the start.
 */
const SIM_INDEXES = [
  ['roi_payments', 'created_at'],
  ['level_incomes', 'created_at'],
  ['withdrawals', 'status, created_at'],
  ['manual_deposits', 'created_at'],
  ['manual_deposits', 'decided_at'],
  ['web3_deposits', 'created_at'],
  ['web3_deposits', 'updated_at'],
  ['ledger_transfers', 'reference'],
  ['crypto_payments', 'provider_payment_id'],
  ['payment_credits', 'provider_payment_id'],
] as const;

async function indexForChecks(db: Db) {
  for (const [table, columns] of SIM_INDEXES)
    await sql`create index if not exists ${sql.raw(`sim_${table}_${columns.replace(/\W+/g, '_')}`)} on ${sql.table(table)} (${sql.raw(columns)})`.execute(
      db,
    );
}

/**
 * The URL of a run's own database (`name`), its commits not waiting for the disk
 * (`synchronous_commit = off`), as SQLite's file lives in memory: a commit is as atomic and as visible
 * to the next statement, only not flushed before it is answered, and the simulator tests the books,
 * not the disk (waiting for the WAL's flush was about a fifth of a run here).
 *
 * A database, not a schema of the test database: each has catalogs of its own (pg_class and the
 * rest), and the income run's work tables, emptied by TRUNCATE a few thousand times a run, leave dead
 * catalog rows behind, as do the suites' schemas. Where nothing vacuums them (the test server here
 * runs without autovacuum) a schema of a long-used test database made each TRUNCATE up to ten times
 * dearer (seed 101: 62.9 s in the test database after a few runs, 50.9 s in a database of its own).
 */
function runUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  url.searchParams.set('options', '-c synchronous_commit=off');
  return url.toString();
}

/**
 * Drops a run's database once its connections are gone. A pool's end() resolves when it has asked
 * each connection to close, not when they have: a forced drop at once ended some of them from the
 * server's side, and the error came back to a client nobody listened to any more.
 */
async function dropDatabase(name: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await adminQuery(`drop database ${name}${tries >= 100 ? ' with (force)' : ''}`);
      return;
    } catch (error) {
      // 55006: the database is still in use.
      if ((error as { code?: string }).code !== '55006' || tries >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * A fresh database with an admin and `members` members in a random sponsor tree, most of them active;
 * then each domain's set-up.
 */
export async function openWorld(
  options: SimOptions,
  setups: ((world: World, admin: SessionUser) => Promise<void>)[],
): Promise<World> {
  const { seed, dialect } = options;
  const memberCount = options.members ?? 6;
  // In memory where Linux offers it: every step commits, and the disk's fsync would be most of the run's
  // time; the simulator tests the books, not the disk.
  const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'platform-sim-'));
  const database = `sim_${randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create database ${database} template template0`);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(dialect === 'postgres' ? { DATABASE_URL: runUrl(database) } : {}),
  });
  // A process: the database opened as the server's start opens it (migrations included), with the
  // fault plugin in front. Whatever else the services keep in memory is kept per Kysely instance
  // (WeakMaps keyed by it: settings, disclosure and push caches, live buses), so a new instance starts
  // as empty as a new process would.
  let world: World | undefined;
  let closed = false;
  const open = async (statements: number) => {
    // SQLite's WAL is flushed where its COMMIT ran, not on the thread pool: a step's answers then come
    // in the order the seed says, not as the disk's threads finish (the file lives in memory anyway);
    // and SQLite checkpoints in the COMMIT that fills the WAL, not on a thread of its own.
    const created = createDatabase(config, {
      checkpoints: 'inline',
      walFsync: (fd) => {
        fsyncSync(fd);
        return undefined;
      },
    });
    await migrateToLatest(created.db);
    if (dialect === 'postgres') await markLedgerRows(created.db);
    await indexForChecks(created.db);
    const plugin = new FaultPlugin(options.defect, {
      sqlite: dialect === 'sqlite',
      statements,
      onDrop: () => {
        if (world && !closed) world.reopening = reopen(world, created.db, plugin);
      },
    });
    return { created, plugin, db: created.db.withPlugin(plugin) };
  };
  /**
   * The dropped process's database is closed (on SQLite after its open batch was rolled back by the
   * crash, or committed when the crash came between statements of no batch; on PostgreSQL its
   * connections end, and every transaction still open fails at its next statement and rolls back), and
   * the database is opened again, on the same file or database.
   */
  const reopen = async (w: World, old: Db, oldPlugin: FaultPlugin) => {
    await w.reopening;
    await old.destroy();
    const next = await open(oldPlugin.statements);
    w.db = next.db;
    w.plugin = next.plugin;
    oldPlugin.retire();
    w.reopened += 1;
    current = next.created.db;
  };
  const first = await open(0);
  let current = first.created.db;
  const { db, plugin } = first;
  const close = async () => {
    closed = true;
    await world?.reopening;
    (world?.plugin ?? first.plugin).retire();
    await current.destroy();
    if (dialect === 'postgres') await dropDatabase(database);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ctx = (n: number) => ({
      ip: `10.9.${Math.floor(n / 250)}.${(n % 250) + 1}`,
      userAgent: 'simulator',
    });
    const { admin: adminRow } = await createAdmin(db, {
      email: 'sim-admin@example.com',
      password: 'Sim-Admin-Pass-2026',
      username: 'sim_admin',
    });
    const adminSession = await startSession(db, adminRow, 'admin', ctx(0));
    const adminUser = (await resolveSession(db, adminSession.sessionId)) as SessionUser;
    const labels = new Map<string, string>([[adminRow.id, 'admin']]);
    // A random sponsor tree: each member joins under the admin or an earlier member, as the seed says.
    const r = rng(seed ^ 0x5eed);
    const rows: UserTable[] = [];
    const members: Member[] = [];
    for (let i = 0; i < memberCount; i++) {
      const sponsor = rows.length > 0 && r.chance(0.8) ? r.int(0, rows.length - 1) : undefined;
      const row = await register(
        db,
        {
          fullname: `Sim Member ${i}`,
          username: `sim_m${i}`,
          email: `sim-m${i}@example.com`,
          phone: `+1555000${String(i).padStart(4, '0')}`,
          password: `Sim-Member-Pass-${i}-2026`,
          reffer_by: sponsor === undefined ? undefined : rows[sponsor]?.refferal_code,
        } as Parameters<typeof register>[1],
        ctx(i + 1),
      );
      rows.push(row);
      // Most members are active (they may send); a few are not, and are refused as senders.
      if (r.chance(0.85))
        await updateMember(db, adminUser, row.id, v.parse(memberEditSchema, { is_active: 'active' }));
      const session = await startSession(db, row, 'user', ctx(i + 1));
      members.push({ id: row.id, token: session.token });
      labels.set(row.id, `m${i}`);
    }
    world = {
      db,
      dialect,
      plugin,
      reopened: 0,
      reopening: Promise.resolve(),
      admin: { id: adminRow.id, token: adminSession.token },
      members,
      labels,
      dataDir,
      close,
    };
    for (const setup of setups) await setup(world, adminUser);
    return world;
  } catch (error) {
    await close();
    throw error;
  }
}
