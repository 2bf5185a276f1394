import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createDatabase } from '../../src/server/db/database.ts';
import type { ApiClient } from '../helpers/client.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { adminTwoFactorOffForTests } from '../helpers/test-settings.ts';
import { openReferenceWriter, prepareReferenceDatabase, type Target, writeLoop } from './ledger-write.ts';
import type { OpenLoopResult } from './open-loop.ts';
import { cpuMsOf } from './process-cpu.ts';

// What the HTTP benches share (http.bench.ts, cluster.bench.ts, rolling.bench.ts): server processes started and
// measured from /proc, fresh databases dropped at the end, autocannon loads, their rows and medians,
// the storage reference, and the ledger check every transfer run ends with.

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** Rounds of each load taken in turn; medians are reported. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = 50;
/** 0.01 a transfer: far below the review threshold, and 2.5 million of them fit one member's daily limit. */
export const AMOUNT = '0.01';
/** Extra Node flags for the server processes, e.g. '--cpu-prof --cpu-prof-dir=prof' to profile them. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

const children = new Set<ChildProcess>();

/** Load averages over 1, 5 and 15 minutes (Linux), to say how busy the machine was. */
export const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};

/** CPU ms used so far by each of a set of processes, by pid. */
export type CpuSample = Map<number, number>;

/** The CPU the processes of `after` used since `before`; a process not in `before` started since. */
export function cpuSpentMs(before: CpuSample, after: CpuSample): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/**
 * The CPU of the PostgreSQL backends serving one fresh database's connections (freshDatabase names
 * them after its schema), when PostgreSQL runs on this machine; empty otherwise. Backends come and go
 * with the pools' connections: compare two samples with cpuSpentMs.
 */
export async function postgresBackendsCpu(applicationName: string): Promise<CpuSample> {
  const rows = await adminQuery<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1',
    [applicationName],
  );
  return new Map(rows.map(({ pid }) => [pid, cpuMsOf(pid)] as const).filter(([, ms]) => !Number.isNaN(ms)));
}

/** Starts `script` in a Node process of its own and waits until `healthUrl` answers. */
export async function startProcess(script: string, env: Record<string, string>, healthUrl: string) {
  const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', script], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    children.delete(child);
  };
  for (let attempt = 0; attempt < 150; attempt++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(healthUrl)).ok) {
        // A server with the bench's admin: the admin signs in with the password, as on every test server.
        if (env.ADMIN_EMAIL) await adminTwoFactorOff(env);
        return { pid: child.pid as number, stop, cpuMs: () => cpuMsOf(child.pid) };
      }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${script} did not start`);
}

/** The setting off on the database `env` names (freshDatabase's env), through a handle opened and closed here. */
async function adminTwoFactorOff(env: Record<string, string>): Promise<void> {
  const { db } = createDatabase({
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    dataDir: env.DATA_DIR ?? '',
  });
  try {
    await adminTwoFactorOffForTests(db);
  } finally {
    await db.destroy();
  }
}

/**
 * The bench's load balancer (balancer.ts) on `port` in front of the servers on `serverPorts`, once it
 * answers; `env` sets its BALANCER_* options.
 */
export const startBalancer = (port: number, serverPorts: number[], env: Record<string, string> = {}) =>
  startProcess(
    'tests/bench/balancer.ts',
    { PORT: String(port), BALANCER_TARGETS: serverPorts.map((p) => `127.0.0.1:${p}`).join(','), ...env },
    `http://127.0.0.1:${port}/api/v1/health`,
  );

export type BalancerState = {
  targets: { host: string; port: number; inRotation: boolean }[];
  /** Requests sent again to another server after a connection failure, and those answered 502. */
  retried: number;
  failed: number;
  /** Requests sent while no server was in rotation (to any server). */
  panicked: number;
};

export const balancerState = async (port: number): Promise<BalancerState> =>
  (await fetch(`http://127.0.0.1:${port}/.balancer`)).json() as Promise<BalancerState>;

/** Whether the balancer on `port` sends to the server on `serverPort` now. */
export const inRotation = async (port: number, serverPort: number) =>
  (await balancerState(port)).targets.some((t) => t.port === serverPort && t.inRotation);

/** Waits (polling every 20 ms, up to 2 minutes) until the balancer's rotation does or does not hold a server. */
export async function untilRotation(port: number, serverPort: number, wanted: boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await inRotation(port, serverPort)) !== wanted) {
    if (Date.now() > deadline)
      throw new Error(`the server on ${serverPort} did not ${wanted ? 'join' : 'leave'} the rotation`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Drops of the databases still in use, run at the end whatever happens. */
const pendingDrops = new Set<() => Promise<void>>();

/**
 * A fresh database for one process: a temporary folder, or a PostgreSQL schema (its migration tables
 * inside it, so two can live side by side) whose connections carry the schema's name as their
 * application_name (postgresBackendsCpu finds them by it). drop() removes it as soon as its runs are over.
 */
export async function freshDatabase(dialect: Target['dialect']) {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const drop = async () => {
    if (!pendingDrops.delete(drop)) return;
    rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
  };
  pendingDrops.add(drop);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('application_name', schema);
  const target: Target =
    dialect === 'sqlite' ? { dialect, dataDir } : { dialect, url: url.toString(), schema };
  const env =
    dialect === 'sqlite'
      ? { DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_SCHEMA: '' }
      : { DATA_DIR: dataDir, DATABASE_URL: url.toString(), DATABASE_SCHEMA: schema };
  return { target, env, drop, applicationName: schema };
}

/** Stops every process still running and drops every database still there: the end of a bench, whatever happened. */
export async function cleanUp(): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  for (const drop of pendingDrops) await drop().catch((error) => console.error(error));
}

export type Sender = { headers: Record<string, string>; body?: string };

/** The headers of a transfer by a signed-in member, as the app sends it: CSRF token, a new Idempotency-Key each time. */
export const transferHeaders = (client: ApiClient): Record<string, string> => ({
  'content-type': 'application/json',
  cookie: client.cookieHeader(),
  'x-xsrf-token': client.csrfToken ?? '',
  // autocannon replaces [<id>] with a new unique id in every request (idReplacement).
  'idempotency-key': 'bench-[<id>]',
});

/** The body of POST /api/v1/transfer/touser: AMOUNT from business to the recipient's business wallet. */
export const transferBody = (recipientId: string) =>
  JSON.stringify({ userto_id: recipientId, amount: AMOUNT, from: 'business', to: 'business' });

/** POSTs for `seconds` on CONNECTIONS connections; connection n sends as senders[n % senders.length]. */
export function load(url: string, senders: Sender[], seconds: number) {
  let next = 0;
  return autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    idReplacement: true,
    setupClient: (client) => {
      const sender = senders[next++ % senders.length] as Sender;
      client.setHeadersAndBody(sender.headers, sender.body);
    },
  });
}

/** Requests for `seconds` on CONNECTIONS connections, each request as `next()` says (who sends, what). */
export function loadEach(url: string, method: 'GET' | 'POST', next: () => Sender, seconds: number) {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    idReplacement: true,
    requests: [
      {
        method,
        setupRequest: (request) => {
          const { headers, body } = next();
          return { ...request, headers: { ...request.headers, ...headers }, body };
        },
      },
    ],
  });
}

/** The answers that were not 2xx, and the errors, in words; undefined when there were none. */
export function failuresOf(result: autocannon.Result): string | undefined {
  const failures = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, stat]) => `${stat.count ?? 0} x ${status}`);
  if (result.errors) failures.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  return failures.length ? failures.join(', ') : undefined;
}

export type Row = {
  name: string;
  rate: number;
  unit: string;
  p50: number;
  p99: number;
  failed?: string;
  /** The server process's CPU time per answered request, µs. */
  cpuUs?: number;
  /** PostgreSQL's backends' CPU time per answered request or write, µs. */
  pgCpuUs?: number;
};

export function rowOf(name: string, result: autocannon.Result, unit = 'transfers/s'): Row {
  return {
    name,
    rate: result['2xx'] / result.duration,
    unit,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: failuresOf(result),
  };
}

export const ms = (value: number) => `${Math.round(value * 10) / 10} ms`;

const µs = (label: string, value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '' : `${label} ${Math.round(value)} µs  `;

export function print(row: Row) {
  const cpu = `${µs('cpu', row.cpuUs)}${µs('postgres cpu', row.pgCpuUs)}`;
  const outcome = row.unit === 'writes/s' ? '' : row.failed ? `FAILED: ${row.failed}` : 'non-2xx 0';
  const rate = `${Math.round(row.rate)}`.padStart(6);
  console.log(
    `  ${row.name.padEnd(46)} ${rate} ${row.unit.padEnd(11)}  p50 ${ms(row.p50).padStart(7)}  p99 ${ms(row.p99).padStart(8)}  ${cpu}${outcome}`,
  );
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

export type Run = { result: autocannon.Result; cpuUs: number };

/** The median of each figure over the rounds; a failure in any round is reported. */
export function medianRow(name: string, runs: Run[]): Row {
  const rows = runs.map(({ result, cpuUs }) => ({ ...rowOf(name, result), cpuUs }));
  return {
    name,
    rate: median(rows.map((r) => r.rate)),
    unit: 'transfers/s',
    p50: median(rows.map((r) => r.p50)),
    p99: median(rows.map((r) => r.p99)),
    failed: rows.find((r) => r.failed)?.failed,
    cpuUs: median(rows.map((r) => r.cpuUs)),
  };
}

/**
 * The same write in a loop on the database (ledger-write.ts): one at a time, and on PostgreSQL also
 * 10 at once, with PostgreSQL's own CPU per write.
 */
export async function benchStorage(dialect: Target['dialect']) {
  const { target, drop, applicationName } = await freshDatabase(dialect);
  await prepareReferenceDatabase(target);
  const rows: Row[] = [];
  for (const concurrency of dialect === 'sqlite' ? [1] : [1, 10]) {
    const writer = openReferenceWriter(target, concurrency);
    try {
      await writeLoop(writer, Math.min(1, WARMUP_S), concurrency);
      const before = dialect === 'postgres' ? await postgresBackendsCpu(applicationName) : undefined;
      const result = await writeLoop(writer, DURATION_S, concurrency);
      const pgCpuUs = before
        ? (cpuSpentMs(before, await postgresBackendsCpu(applicationName)) * 1000) / Math.max(1, result.writes)
        : undefined;
      rows.push({
        name: `write loop on the database, ${concurrency === 1 ? '1 at a time' : `${concurrency} clients`}`,
        rate: result.perSecond,
        unit: 'writes/s',
        p50: result.p50,
        p99: result.p99,
        pgCpuUs,
      });
    } finally {
      await writer.close();
    }
  }
  await drop();
  return rows;
}

/**
 * A load of transfers, closed (autocannon) or open (openLoop): the transfers answered 201, and the
 * requests whose answer nobody read, which the server may still have made. A closed load stops with
 * requests in flight; an open one waits for every answer, so only its network errors and time-outs are
 * unknown.
 */
function transfersOf(load: autocannon.Result | OpenLoopResult) {
  if ('windows' in load) return { answered: load.statuses['201'] ?? 0, unanswered: load.errors };
  return {
    answered: load.statusCodeStats?.['201']?.count ?? 0,
    unanswered: load.requests.sent - load.requests.total,
  };
}

/**
 * After `loads` of transfers (every one since the database was made): every transfer answered 201 is
 * in the ledger, nothing beyond what was asked is (the ledger may hold up to the unanswered ones
 * more), and the ledger reconciles (it sums to zero and every balance equals its entries); throws
 * otherwise, so a bench that lost or made money fails loudly. The check waits until the ledger stops
 * growing, so the unanswered requests the server was still completing are in it.
 */
export async function checkLedger(
  admin: ApiClient,
  loads: (autocannon.Result | OpenLoopResult)[],
): Promise<string> {
  const answered = loads.reduce((sum, load) => sum + transfersOf(load).answered, 0);
  const unanswered = loads.reduce((sum, load) => sum + transfersOf(load).unanswered, 0);
  const transfers = async () => {
    const listed = await admin.get('/transfer/list?limit=1');
    if (listed.status !== 200) throw new Error(`the transfer list answered ${listed.status}: ${listed.text}`);
    return Number(listed.body.total);
  };
  let total = await transfers();
  for (let settled = false; !settled; ) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await transfers();
    settled = now === total;
    total = now;
  }
  const books = await admin.get('/ledger/reconciliation');
  const consistent = total >= answered && total <= answered + unanswered && books.body?.balanced === true;
  const text = `${answered} answered 201, ${total - answered} of ${unanswered} left unanswered done, ${total} transfers in the ledger, reconciliation ${books.body?.balanced ? 'balanced' : JSON.stringify(books.body)}`;
  if (!consistent) throw new Error(`MISMATCH: ${text}`);
  return `checked: ${text}`;
}
