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
const CONNECTIONS = 50;
const PORT = Number(process.env.BENCH_PORT ?? 8199);
const BARE_PORT = PORT + 1;
/** 0.01 a transfer: far below the review threshold, and 2.5 million of them fit one member's daily limit. */
const AMOUNT = '0.01';
/** Extra Node flags for the server processes, e.g. '--cpu-prof --cpu-prof-dir=prof' to profile them. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

const children = new Set<ChildProcess>();

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
      if ((await fetch(healthUrl)).ok) return { stop };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${script} did not start`);
}

/** Drops of the databases still in use, run at the end whatever happens. */
const pendingDrops = new Set<() => Promise<void>>();

/**
 * A fresh database for one process: a temporary folder, or a PostgreSQL schema. drop() removes it
 * as soon as its runs are over: Kysely's migrator looks for its tables in every schema of the
 * database, so a second schema migrated while another still holds them would fail.
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

type Row = { name: string; rate: number; unit: string; p50: number; p99: number; failed?: string };

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
  const outcome = row.unit === 'writes/s' ? '' : row.failed ? `FAILED: ${row.failed}` : 'non-2xx 0';
  const rate = `${Math.round(row.rate)}`.padStart(6);
  console.log(
    `  ${row.name.padEnd(46)} ${rate} ${row.unit.padEnd(11)}  p50 ${ms(row.p50).padStart(7)}  p99 ${ms(row.p99).padStart(8)}  ${outcome}`,
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
    return { base, stop: () => server.stop().then(database.drop) };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** 10 funded members, each sending 0.01 to the next; then one member sending to another. */
async function benchRealEndpoint(base: string) {
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
  const ring = members.map((_, i) => senderOf(i, (i + 1) % members.length));
  const url = `${base}/api/v1/transfer/touser`;
  const warm = await load(url, ring, WARMUP_S);
  const many = await load(url, ring, DURATION_S);
  const hot = await load(url, [senderOf(0, 1)], DURATION_S);

  // Every answered transfer is in the ledger, and the ledger still balances. A run stops with up to
  // 50 requests in flight: the server completes them, nobody reads the answers.
  const answered = warm['2xx'] + many['2xx'] + hot['2xx'];
  const listed = await admin.get('/transfer/list?limit=1');
  const books = await admin.get('/ledger/reconciliation');
  const total = Number(listed.body?.total);
  const consistent =
    total >= answered && total <= answered + 3 * CONNECTIONS && books.body?.balanced === true;
  return {
    rows: [
      rowOf(`transfer/touser, ${REFERENCE_MEMBERS} senders`, many),
      rowOf('transfer/touser, 1 sender (hot account)', hot),
    ],
    check: `${consistent ? 'checked' : 'MISMATCH'}: ${answered} answered 201, ${total} transfers in the ledger, reconciliation ${books.body?.balanced ? 'balanced' : JSON.stringify(books.body)}`,
  };
}

/** The same write behind a bare Fastify route, on a fresh database. */
async function benchBareRoute(dialect: Target['dialect']) {
  const { target, env, drop } = await freshDatabase(dialect);
  await prepareReferenceDatabase(target);
  const base = `http://127.0.0.1:${BARE_PORT}`;
  const server = await startProcess(
    'tests/bench/bare-server.ts',
    { ...env, PORT: String(BARE_PORT) },
    `${base}/health`,
  );
  try {
    const senderOf = (from: number, to: number): Sender => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        from: referenceAccount(from),
        to: referenceAccount(to),
        amount_cents: 1,
        by: referenceMember(from),
      }),
    });
    const ring = Array.from({ length: REFERENCE_MEMBERS }, (_, i) =>
      senderOf(i, (i + 1) % REFERENCE_MEMBERS),
    );
    const url = `${base}/transfer`;
    await load(url, ring, WARMUP_S);
    const many = await load(url, ring, DURATION_S);
    const hot = await load(url, [senderOf(0, 1)], DURATION_S);
    return [
      rowOf(`bare route, raw SQL, ${REFERENCE_MEMBERS} senders`, many),
      rowOf('bare route, raw SQL, 1 sender (hot account)', hot),
    ];
  } finally {
    await server.stop();
    await drop();
  }
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

async function benchTransfers(dialect: Target['dialect'], withStaticCalls = false) {
  const label =
    dialect === 'sqlite'
      ? 'SQLite (WAL, synchronous=FULL)'
      : `PostgreSQL at ${new URL(TEST_DATABASE_URL).host} (pool of 10)`;
  const server = await startRealServer(dialect);
  let real: Awaited<ReturnType<typeof benchRealEndpoint>>;
  try {
    if (withStaticCalls) await benchStaticCalls(server.base);
    console.log(
      `\ntransfers of ${AMOUNT} on ${label}: ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up`,
    );
    real = await benchRealEndpoint(server.base);
  } finally {
    await server.stop();
  }
  for (const row of real.rows) print(row);
  const bare = await benchBareRoute(dialect);
  for (const row of bare) print(row);
  for (const row of await benchStorage(dialect)) print(row);
  console.log(`  ${real.check}`);
  const verdict = (i: number) => {
    const [r, b] = [real.rows[i], bare[i]] as [Row, Row];
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
  const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<
    string,
    { file: string }
  >;
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
  await benchTransfers('sqlite', true);
  if (await postgresReachable()) await benchTransfers('postgres');
  else
    console.log(
      `\nPostgreSQL at ${new URL(TEST_DATABASE_URL).host} does not answer: its transfer runs are left out.`,
    );
} finally {
  for (const child of children) child.kill('SIGTERM');
  for (const drop of pendingDrops) await drop().catch((error) => console.error(error));
}
