import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type Db } from '../../src/server/db/database.ts';
import { ApiClient } from './client.ts';
import { adminQuery, TEST_DATABASE_URL } from './postgres.ts';
import { adminTwoFactorOffForTests } from './test-settings.ts';

// A real server process (src/server/main.ts), for what a server inside the test's own process cannot
// show: several instances on one database, a process killed with SIGKILL and started again.

export const PROCESS_ADMIN = { email: 'process-admin@example.com', password: 'Process-Admin-Pass-2026' };

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A graceful stop (SIGTERM), and SIGKILL if the process has not exited 10 s later: a cleanup must never
 * wait on a process that is stuck.
 */
export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Starts an instance and waits for its health check. `env` names the database (DATABASE_URL and
 * DATABASE_SCHEMA, or DATA_DIR for SQLite); `dataDir` holds what else the instance keeps.
 */
export async function startServerProcess(
  env: Record<string, string>,
  dataDir: string,
  /** Node's own flags for the process (e.g. --cpu-prof, which NODE_OPTIONS does not take). */
  nodeFlags: string[] = [],
): Promise<ServerProcess> {
  // A PORT in `env` keeps the address across a restart (a browser's page stays on one origin).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR: join(dataDir, 'no-client'),
      ADMIN_EMAIL: PROCESS_ADMIN.email,
      ADMIN_PASSWORD: PROCESS_ADMIN.password,
      LOG_LEVEL: 'warn',
      PAYMENT_SWEEP_MS: '0',
      // A SIGTERM stops at once (no pause for a load balancer there is not), and no warm-up, which
      // would only hold each start's pool connections and CPU: tests that are about them turn them on.
      SHUTDOWN_DELAY_MS: '0',
      WARM_UP: 'off',
      // Argon2id at its least (the production cost is pinned by passwords.test.ts).
      PASSWORD_HASH_COST: 'test',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child);
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server process exited: ${output}`);
    const ok = await fetch(`${url}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      await withDatabaseOf(env, dataDir, adminTwoFactorOffForTests);
      return { url, child, output: () => output, stop };
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`server process did not start: ${output}`);
}

/** The instance's database (as `env` and `dataDir` name it, once it has migrated it), opened for `use` and closed. */
async function withDatabaseOf(env: Record<string, string>, dataDir: string, use: (db: Db) => Promise<void>) {
  const { db } = createDatabase({
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.DATABASE_SCHEMA,
    dataDir: env.DATA_DIR ?? dataDir,
  });
  try {
    await use(db);
  } finally {
    await db.destroy();
  }
}

/** Stops an instance with SIGKILL (a crash: no cleanup of its own) and waits until it has exited. */
export async function killServerProcess(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

/** The same browser (its session and CSRF cookies, kept in the database) talking to another instance. */
export function sameBrowserOn(url: string, client: ApiClient): ApiClient {
  const moved = new ApiClient(url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

/** An admin session (PROCESS_ADMIN) on the instance at `url`. */
export async function adminOn(url: string): Promise<ApiClient> {
  const admin = new ApiClient(url);
  await admin.signIn(PROCESS_ADMIN, '/auth/adminsignin');
  return admin;
}

/** The suite's database, by its vitest project (TEST_DIALECT). */
export const projectDialect: 'sqlite' | 'postgres' =
  process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

export type SharedDatabaseOptions = {
  /** Names the temporary directory and the PostgreSQL schema (e.g. 'income', 'inc'). */
  dirPrefix: string;
  schemaPrefix: string;
  /** What every instance started on it gets, before `env` and each start's own. */
  env: Record<string, string>;
  /** The test file's clean-ups (run after each test, last first): the instances, the handle, the database. */
  cleanups: (() => Promise<void>)[];
};

/**
 * A database for server processes (a SQLite file or a PostgreSQL schema) and the test's own handle on it.
 * `start(name)` starts an instance on it (on PostgreSQL with its own data directory, `name`); `handle()`
 * opens the test's handle once the first instance has migrated the database.
 */
export async function sharedDatabase(dialect: 'sqlite' | 'postgres', options: SharedDatabaseOptions) {
  const { cleanups } = options;
  const dir = mkdtempSync(join(tmpdir(), `platform-${options.dirPrefix}-`));
  const schema = `t_${options.schemaPrefix}_${randomBytes(5).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const env: Record<string, string> =
    dialect === 'postgres'
      ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
      : { DATA_DIR: join(dir, 'db') };
  let db: Db | undefined;
  cleanups.push(async () => {
    await db?.destroy();
    if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (
    name: string,
    extra: Record<string, string> = {},
    nodeFlags: string[] = [],
  ): Promise<ServerProcess> => {
    const instance = await startServerProcess(
      { ...options.env, ...env, ...extra },
      dialect === 'postgres' ? join(dir, name) : join(dir, 'db'),
      nodeFlags,
    );
    cleanups.push(instance.stop);
    return instance;
  };
  const handle = () => {
    db ??= createDatabase({
      databaseUrl: env.DATABASE_URL,
      databaseSchema: env.DATABASE_SCHEMA,
      dataDir: join(dir, 'db'),
    }).db;
    return db;
  };
  return { start, handle, schema };
}

/** The process's exit code once it has exited (call it before signalling the process). */
export const exitCodeOf = (server: ServerProcess) =>
  new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null) resolve(server.child.exitCode);
    else server.child.once('exit', (code) => resolve(code));
  });

/** Whether the instance accepts a new TCP connection (a fresh one, not a kept-alive one of a pool). */
export const acceptsConnections = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Polls `read` until it returns something truthy (never a fixed sleep as the synchronisation). */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
