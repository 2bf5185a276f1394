import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type ApiClient, fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { adminQuery, postgresReachable, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { ADMIN } from '../helpers/server.ts';
import {
  openReferenceWriter,
  prepareReferenceDatabase,
  REFERENCE_MEMBERS,
  referenceAccount,
  referenceMember,
  type Target,
  writeLoop,
} from './ledger-write.ts';

// npm run bench: requests per second and latency of the real server (its own process, production
// build, fresh database) over loopback. First the calls every visit makes (SQLite); then, on SQLite
// and on PostgreSQL, member-to-member transfers through POST /api/v1/transfer/touser (signed in, CSRF
// token, a new Idempotency-Key per request) beside two references on a fresh database of their own:
// a bare Fastify route doing the same ledger write in raw SQL (bare-server.ts, the ceiling of this
// architecture) and the write in a loop straight on the database (the storage limit). The load
// generator runs in this process, so it shares the machine's cores but not the server's event loop.
// Numbers, not pass/fail.

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** Rounds of the real endpoint and the bare route taken in turn; medians are reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const PORT = Number(process.env.BENCH_PORT ?? 8199);
const BARE_PORT = PORT + 1;
/** 0.01 a transfer: far below the review threshold, and 2.5 million of them fit one member's daily limit. */
const AMOUNT = '0.01';
/** Extra Node flags for the server processes, e.g. '--cpu-prof --cpu-prof-dir=prof' to profile them. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** Which databases to run the transfers on: 'sqlite,postgres' unless BENCH_DIALECTS says otherwise. */
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
/** BENCH_VISITS=0 leaves out the calls every visit makes (e.g. to profile transfers alone). */
const VISITS = process.env.BENCH_VISITS !== '0';

const children = new Set<ChildProcess>();

/**
 * CPU time (user + system) a process has used so far, in ms, from Linux's /proc (utime and stime in
 * clock ticks of 10 ms); NaN elsewhere. Per transfer, it shows the server's own cost whatever else the
 * machine is doing, which throughput on a busy machine does not.
 */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Starts `script` in a Node process of its own and waits until `healthUrl` answers. */
async function startProcess(script: string, env: Record<string, string>, healthUrl: string) {
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
      if ((await fetch(healthUrl)).ok) return { stop, cpuMs: () => cpuMsOf(child.pid) };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${script} did not start`);
}

/** Drops of the databases still in use, run at the end whatever happens. */
const pendingDrops = new Set<() => Promise<void>>();

/**
 * A fresh database for one process: a temporary folder, or a PostgreSQL schema (its migration tables
 * inside it, so two can live side by side). drop() removes it as soon as its runs are over.
 */
async function freshDatabase(dialect: Target['dialect']) {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const drop = async () => {
    if (!pendingDrops.delete(drop)) return;
    rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
  };
  pendingDrops.add(drop);
  const target: Target =
    dialect === 'sqlite' ? { dialect, dataDir } : { dialect, url: TEST_DATABASE_URL, schema };
  const env =
    dialect === 'sqlite'
      ? { DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_SCHEMA: '' }
      : { DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
  return { target, env, drop };
}

type Sender = { headers: Record<string, string>; body: string };

/** POSTs for `seconds` on 50 connections; connection n sends as senders[n % senders.length]. */
function load(url: string, senders: Sender[], seconds: number) {
  let next = 0;
  return autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    // Replaces [<id>] in every request with a new unique id: one Idempotency-Key per request.
    idReplacement: true,
    setupClient: (client) => {
      const sender = senders[next++ % senders.length] as Sender;
      client.setHeadersAndBody(sender.headers, sender.body);
    },
  });
}

type Row = {
  name: string;
  rate: number;
  unit: string;
  p50: number;
  p99: number;
  failed?: string;
  /** The server process's CPU time per answered transfer, µs. */
  cpuUs?: number;
};

function rowOf(name: string, result: autocannon.Result): Row {
  const failures = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, stat]) => `${stat.count ?? 0} x ${status}`);
  if (result.errors) failures.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  return {
    name,
    rate: result['2xx'] / result.duration,
    unit: 'transfers/s',
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: failures.length ? failures.join(', ') : undefined,
  };
}

const ms = (value: number) => `${Math.round(value * 10) / 10} ms`;

function print(row: Row) {
  const cpu = row.cpuUs === undefined || Number.isNaN(row.cpuUs) ? '' : `cpu ${Math.round(row.cpuUs)} µs  `;
  const outcome = row.unit === 'writes/s' ? '' : row.failed ? `FAILED: ${row.failed}` : 'non-2xx 0';
  const rate = `${Math.round(row.rate)}`.padStart(6);
  console.log(
    `  ${row.name.padEnd(46)} ${rate} ${row.unit.padEnd(11)}  p50 ${ms(row.p50).padStart(7)}  p99 ${ms(row.p99).padStart(8)}  ${cpu}${outcome}`,
  );
}

/** The real server on a fresh database, with the test suites' admin; stop() also drops the database. */
async function startRealServer(dialect: Target['dialect']) {
  const database = await freshDatabase(dialect);
  const base = `http://127.0.0.1:${PORT}`;
  try {
    const server = await startProcess(
      'src/server/main.ts',
      { ...database.env, PORT: String(PORT), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
      `${base}/api/v1/health`,
    );
    return { base, cpuMs: server.cpuMs, stop: () => server.stop().then(database.drop) };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** A load to compare: the senders of its connections, at one URL. */
type Case = { url: string; senders: Sender[] };

/** 10 funded members, each sending 0.01 to the next; and one member sending to another (a hot account). */
async function prepareRealEndpoint(base: string) {
  const admin = await signedInAdminClient(base);
  const members: Awaited<ReturnType<typeof fundedMember>>[] = [];
  for (let i = 0; i < REFERENCE_MEMBERS; i++)
    members.push(await fundedMember(base, admin, { business: '1000.00' }));
  const senderOf = (from: number, to: number): Sender => {
    const { client } = members[from] as { client: ApiClient };
    return {
      headers: {
        'content-type': 'application/json',
        cookie: client.cookieHeader(),
        'x-xsrf-token': client.csrfToken ?? '',
        'idempotency-key': 'bench-[<id>]',
      },
      body: JSON.stringify({
        userto_id: members[to]?.auth.id,
        amount: AMOUNT,
        from: 'business',
        to: 'business',
      }),
    };
  };
  const url = `${base}/api/v1/transfer/touser`;
  return {
    many: { url, senders: members.map((_, i) => senderOf(i, (i + 1) % members.length)) } as Case,
    hot: { url, senders: [senderOf(0, 1)] } as Case,
    /**
     * Every answered transfer is in the ledger, and the ledger still balances. A run stops with up to
     * 50 requests in flight: the server completes them, nobody reads the answers.
     */
    check: async (answered: number, runs: number) => {
      const listed = await admin.get('/transfer/list?limit=1');
      const books = await admin.get('/ledger/reconciliation');
      const total = Number(listed.body?.total);
      const consistent =
        total >= answered && total <= answered + runs * CONNECTIONS && books.body?.balanced === true;
      return `${consistent ? 'checked' : 'MISMATCH'}: ${answered} answered 201, ${total} transfers in the ledger, reconciliation ${books.body?.balanced ? 'balanced' : JSON.stringify(books.body)}`;
    },
  };
}

/** The same write behind a bare Fastify route, on a fresh database of its own. */
async function startBareRoute(dialect: Target['dialect']) {
  const { target, env, drop } = await freshDatabase(dialect);
  await prepareReferenceDatabase(target);
  const base = `http://127.0.0.1:${BARE_PORT}`;
  const server = await startProcess(
    'tests/bench/bare-server.ts',
    { ...env, PORT: String(BARE_PORT) },
    `${base}/health`,
  ).catch(async (error) => {
    await drop();
    throw error;
  });
  const senderOf = (from: number, to: number): Sender => ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      from: referenceAccount(from),
      to: referenceAccount(to),
      amount_cents: 1,
      by: referenceMember(from),
    }),
  });
  const url = `${base}/transfer`;
  return {
    many: {
      url,
      senders: Array.from({ length: REFERENCE_MEMBERS }, (_, i) => senderOf(i, (i + 1) % REFERENCE_MEMBERS)),
    } as Case,
    hot: { url, senders: [senderOf(0, 1)] } as Case,
    cpuMs: server.cpuMs,
    stop: () => server.stop().then(drop),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

type Run = { result: autocannon.Result; cpuUs: number };

/** One load, with the server's CPU time per answered transfer. */
async function measured(target: Case, cpuMs: () => number): Promise<Run> {
  const before = cpuMs();
  const result = await load(target.url, target.senders, DURATION_S);
  return { result, cpuUs: ((cpuMs() - before) * 1000) / Math.max(1, result['2xx']) };
}

/** The median of each figure over the rounds; a failure in any round is reported. */
function medianRow(name: string, runs: Run[]): Row {
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

/** The same write in a loop on the database: one at a time, and on PostgreSQL also 10 at once. */
async function benchStorage(dialect: Target['dialect']) {
  const { target, drop } = await freshDatabase(dialect);
  await prepareReferenceDatabase(target);
  const rows: Row[] = [];
  for (const concurrency of dialect === 'sqlite' ? [1] : [1, 10]) {
    const writer = openReferenceWriter(target, concurrency);
    try {
      await writeLoop(writer, Math.min(1, WARMUP_S), concurrency);
      const result = await writeLoop(writer, DURATION_S, concurrency);
      rows.push({
        name: `write loop on the database, ${concurrency === 1 ? '1 at a time' : `${concurrency} clients`}`,
        rate: result.perSecond,
        unit: 'writes/s',
        p50: result.p50,
        p99: result.p99,
      });
    } finally {
      await writer.close();
    }
  }
  await drop();
  return rows;
}

/**
 * The real endpoint and the bare route run side by side in rounds (real, bare, real, bare, ...), so a
 * machine that is busy for a while slows both alike; each figure is the median over the rounds.
 */
async function benchTransfers(dialect: Target['dialect'], withStaticCalls = false) {
  const label =
    dialect === 'sqlite'
      ? 'SQLite (WAL, synchronous=FULL)'
      : `PostgreSQL at ${new URL(TEST_DATABASE_URL).host} (pool of 10)`;
  const server = await startRealServer(dialect);
  let rows: { real: Row[]; bare: Row[] };
  let check: string;
  try {
    if (withStaticCalls) await benchStaticCalls(server.base);
    console.log(
      `\ntransfers of ${AMOUNT} on ${label}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each after ${WARMUP_S} s warm-up (medians)`,
    );
    const real = await prepareRealEndpoint(server.base);
    const bare = await startBareRoute(dialect);
    try {
      const runs = { realMany: [], bareMany: [], realHot: [], bareHot: [] } as Record<
        'realMany' | 'bareMany' | 'realHot' | 'bareHot',
        Run[]
      >;
      const warm = await load(real.many.url, real.many.senders, WARMUP_S);
      await load(bare.many.url, bare.many.senders, WARMUP_S);
      for (let round = 0; round < ROUNDS; round++) {
        runs.realMany.push(await measured(real.many, server.cpuMs));
        runs.bareMany.push(await measured(bare.many, bare.cpuMs));
        runs.realHot.push(await measured(real.hot, server.cpuMs));
        runs.bareHot.push(await measured(bare.hot, bare.cpuMs));
      }
      const answered = [warm, ...[...runs.realMany, ...runs.realHot].map((r) => r.result)].reduce(
        (sum, r) => sum + r['2xx'],
        0,
      );
      check = await real.check(answered, 1 + 2 * ROUNDS);
      rows = {
        real: [
          medianRow(`transfer/touser, ${REFERENCE_MEMBERS} senders`, runs.realMany),
          medianRow('transfer/touser, 1 sender (hot account)', runs.realHot),
        ],
        bare: [
          medianRow(`bare route, raw SQL, ${REFERENCE_MEMBERS} senders`, runs.bareMany),
          medianRow('bare route, raw SQL, 1 sender (hot account)', runs.bareHot),
        ],
      };
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
  for (const row of [...rows.real, ...rows.bare]) print(row);
  for (const row of await benchStorage(dialect)) print(row);
  console.log(`  ${check}`);
  const verdict = (i: number) => {
    const [r, b] = [rows.real[i], rows.bare[i]] as [Row, Row];
    const share = Math.round((100 * r.rate) / b.rate);
    return `${share}% of the bare route, p99 ${ms(r.p99)}: ${share >= 60 && r.p99 < 50 ? 'met' : 'NOT met'}`;
  };
  console.log(
    `  aim (at least 60% of the bare route, p99 under 50 ms), ${REFERENCE_MEMBERS} senders: ${verdict(0)}`,
  );
  console.log(`  aim, 1 sender: ${verdict(1)}`);
}

async function benchStaticCalls(base: string) {
  // The build's manifest names the app shell's entry chunk, whatever the bundler called it.
  const manifest = JSON.parse(
    readFileSync(join(process.env.CLIENT_DIR ?? 'dist', '.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  const mainBundle = manifest['index.html']?.file;
  const cases: { name: string; path: string; headers: Record<string, string> }[] = [
    { name: 'GET /api/v1/health (database round trip)', path: '/api/v1/health', headers: {} },
    { name: 'GET /login (app shell, nonce per response)', path: '/login', headers: { accept: 'text/html' } },
    ...(mainBundle
      ? [
          {
            name: 'GET main bundle (precompressed brotli)',
            path: `/${mainBundle}`,
            headers: { 'accept-encoding': 'br' },
          },
        ]
      : []),
  ];
  console.log(`${DURATION_S} s each, ${CONNECTIONS} connections, loopback, server in its own process\n`);
  for (const c of cases) {
    const result = await autocannon({
      url: `${base}${c.path}`,
      headers: c.headers,
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    const failed = result.non2xx + result.errors;
    console.log(
      `${c.name.padEnd(46)} ${String(Math.round(result.requests.average)).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${failed ? `  (${failed} failed)` : ''}`,
    );
  }
}

try {
  // On SQLite, the same server answers the static calls first.
  if (DIALECTS.includes('sqlite')) await benchTransfers('sqlite', VISITS);
  if (DIALECTS.includes('postgres')) {
    if (await postgresReachable()) await benchTransfers('postgres');
    else
      console.log(
        `\nPostgreSQL at ${new URL(TEST_DATABASE_URL).host} does not answer: its transfer runs are left out.`,
      );
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  for (const drop of pendingDrops) await drop().catch((error) => console.error(error));
}
