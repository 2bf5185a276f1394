import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type ApiClient, fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { postgresReachable, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { ADMIN } from '../helpers/server.ts';
import {
  AMOUNT,
  benchStorage,
  CONNECTIONS,
  checkLedger,
  cleanUp,
  DURATION_S,
  freshDatabase,
  load,
  median,
  medianRow,
  ms,
  print,
  ROUNDS,
  type Row,
  type Run,
  type Sender,
  startProcess,
  transferBody,
  transferHeaders,
  WARMUP_S,
} from './harness.ts';
import {
  prepareReferenceDatabase,
  REFERENCE_MEMBERS,
  referenceAccount,
  referenceMember,
  type Target,
} from './ledger-write.ts';
import { formatStats, httpSender, type OpenLoopResult, openLoop, type WindowStats } from './open-loop.ts';

// npm run bench: requests per second and latency of the real server (its own process, production
// build, fresh database) over loopback. First the calls every visit makes (SQLite); then, on SQLite
// and on PostgreSQL, member-to-member transfers through POST /api/v1/transfer/touser (signed in, CSRF
// token, a new Idempotency-Key per request) beside two references on a fresh database of their own:
// a bare Fastify route doing the same ledger write in raw SQL (bare-server.ts, the ceiling of this
// architecture) and the write in a loop straight on the database (the storage limit). Then both at
// fixed rates (open loop, open-loop.ts) of 50, 70 and 90% of the maximum each reached in the closed
// runs, latency timed from when each request was due. The load generator runs in this process, so it
// shares the machine's cores but not the server's event loop. Numbers, not pass/fail.

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const BARE_PORT = PORT + 1;
/** Which databases to run the transfers on: 'sqlite,postgres' unless BENCH_DIALECTS says otherwise. */
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
/** BENCH_VISITS=0 leaves out the calls every visit makes (e.g. to profile transfers alone). */
/**
 * BENCH_OPEN_LOOP: 'on' (the default) adds the open-loop runs, 'off' leaves them out, 'only' runs them
 * and the closed runs of 10 senders that give their maximum, without the visit calls, the hot account
 * and the storage loop.
 */
const OPEN_LOOP = process.env.BENCH_OPEN_LOOP ?? 'on';
const VISITS = process.env.BENCH_VISITS !== '0' && OPEN_LOOP !== 'only';
/** The open loop's rates, in percent of the closed-loop maximum. */
const OPEN_SHARES = (process.env.BENCH_OPEN_LOOP_SHARES ?? '50,70,90').split(',').map(Number);
/** Each open-loop run: seconds measured, after whole seconds of warm phase at the same rate. */
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 20);
const OPEN_WARMUP_S = Math.round(Number(process.env.BENCH_OPEN_LOOP_WARMUP_SECONDS ?? 3));
/**
 * BENCH_OPEN_LOOP_BASE: 'own' (the default) runs each at shares of its own closed-loop maximum;
 * 'endpoint' runs the bare route at the endpoint's rates too, to compare the two at the same load.
 */
const OPEN_BASE = process.env.BENCH_OPEN_LOOP_BASE ?? 'own';
/**
 * BENCH_OPEN_LOOP_MAX: the endpoint's and the bare route's maxima (transfers/s, `endpoint,bare`) to
 * take the shares of, in place of those measured: two builds compared at the same rates.
 */
const OPEN_MAX = process.env.BENCH_OPEN_LOOP_MAX?.split(',').map(Number);
/**
 * BENCH_OPEN_LOOP_REPEAT: how many times each rate runs (the endpoint and the bare route in turns each
 * time). The aim's verdict takes the median p99 of the repeats, and shows their range: one run on a
 * shared machine can be ten times another.
 */
const OPEN_REPEAT = Math.max(1, Math.round(Number(process.env.BENCH_OPEN_LOOP_REPEAT ?? 1)));
/** The share of the maximum the latency aim is set at. */
const AIM_SHARE = 70;

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

/** A load to compare: the senders of its connections, at one URL; `health` a path to open connections with. */
type Case = { url: string; senders: Sender[]; health: string };

/** 10 funded members, each sending 0.01 to the next; and one member sending to another (a hot account). */
async function prepareRealEndpoint(base: string) {
  const admin = await signedInAdminClient(base);
  const members: Awaited<ReturnType<typeof fundedMember>>[] = [];
  for (let i = 0; i < REFERENCE_MEMBERS; i++)
    members.push(await fundedMember(base, admin, { business: '1000.00' }));
  const senderOf = (from: number, to: number): Sender => ({
    headers: transferHeaders((members[from] as { client: ApiClient }).client),
    body: transferBody(members[to]?.auth.id),
  });
  const url = `${base}/api/v1/transfer/touser`;
  return {
    many: {
      url,
      senders: members.map((_, i) => senderOf(i, (i + 1) % members.length)),
      health: '/api/v1/health',
    } as Case,
    hot: { url, senders: [senderOf(0, 1)], health: '/api/v1/health' } as Case,
    check: (loads: (autocannon.Result | OpenLoopResult)[]) => checkLedger(admin, loads),
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
      health: '/health',
    } as Case,
    hot: { url, senders: [senderOf(0, 1)], health: '/health' } as Case,
    cpuMs: server.cpuMs,
    stop: () => server.stop().then(drop),
  };
}

/** One load, with the server's CPU time per answered transfer. */
async function measured(target: Case, cpuMs: () => number): Promise<Run> {
  const before = cpuMs();
  const result = await load(target.url, target.senders, DURATION_S);
  return { result, cpuUs: ((cpuMs() - before) * 1000) / Math.max(1, result['2xx']) };
}

/** One open-loop run and what it measured once past its warm phase. */
type OpenRun = {
  name: string;
  /** Percent of `max`, the closed-loop maximum, and the rate that makes. */
  share: number;
  max: number;
  rate: number;
  result: OpenLoopResult;
  warm: WindowStats;
  cpuUs: number;
  /** The load average when the run ended: the machine is shared. */
  load: string;
};

/**
 * `target`'s requests at a fixed `rate` for the warm phase and the measured seconds, sender n % senders,
 * with a new id where autocannon would put one ('[<id>]': the Idempotency-Key). The connections are
 * opened first, as a proxy's pool holds them, so the run measures the server, not its accept queue.
 */
async function openRun(
  name: string,
  target: Case,
  share: number,
  max: number,
  cpuMs: () => number,
): Promise<OpenRun> {
  const rate = Math.max(1, Math.round((max * share) / 100));
  const id = randomBytes(4).toString('hex');
  const sender = httpSender({
    url: target.url,
    request: (index) => {
      const { headers, body } = target.senders[index % target.senders.length] as Sender;
      const fresh = Object.entries(headers).map(([key, value]) => [
        key,
        value.replace('[<id>]', `${id}-${index}`),
      ]);
      return { headers: Object.fromEntries(fresh), body };
    },
  });
  try {
    await sender.preconnect(CONNECTIONS, target.health);
    const before = cpuMs();
    const result = await openLoop({ rate, seconds: OPEN_WARMUP_S + OPEN_SECONDS, send: sender.send });
    const cpuUs = ((cpuMs() - before) * 1000) / Math.max(1, result.statuses['201'] ?? 0);
    const warm = result.range(OPEN_WARMUP_S, result.windows.length);
    return { name, share, max, rate, result, warm, cpuUs, load: loadAverage() };
  } finally {
    sender.close();
  }
}

function printOpenRun(run: OpenRun) {
  const whole = run.result.range(0, run.result.windows.length);
  const failed = whole.non2xx + whole.errors;
  console.log(
    `  ${run.name} at ${run.share}% of ${Math.round(run.max)}/s${run.name === 'bare route' && OPEN_BASE === 'endpoint' ? " (the endpoint's maximum)" : ''}: ${run.rate} due per second (load average ${run.load})`,
  );
  console.log(
    `    ${formatStats(`seconds ${OPEN_WARMUP_S + 1}-${run.result.windows.length}`, { ...run.warm, non2xx: 0, errors: 0 })}  cpu ${Math.round(run.cpuUs)} µs  generator lag p99 ${ms(run.result.sendLagP99Ms)}, max ${ms(run.result.sendLagMaxMs)}  ${failed ? `FAILED: ${whole.non2xx} non-2xx, ${whole.errors} errors` : 'non-2xx 0'}`,
  );
}

/**
 * The real endpoint and the bare route run side by side in rounds (real, bare, real, bare, ...), so a
 * machine that is busy for a while slows both alike; each figure is the median over the rounds.
 */
async function benchTransfers(dialect: Target['dialect'], withStaticCalls = false) {
  const label =
    dialect === 'sqlite'
      ? 'SQLite (WAL, synchronous=NORMAL, the WAL flushed before each answer)'
      : `PostgreSQL at ${new URL(TEST_DATABASE_URL).host} (pool of 10)`;
  const server = await startRealServer(dialect);
  let rows: { real: Row[]; bare: Row[] };
  let check: string;
  const open: OpenRun[] = [];
  try {
    if (withStaticCalls) await benchStaticCalls(server.base);
    console.log(
      `\ntransfers of ${AMOUNT} on ${label}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each after ${WARMUP_S} s warm-up (medians)`,
    );
    const real = await prepareRealEndpoint(server.base);
    const bare = await startBareRoute(dialect);
    try {
      const hotRuns = OPEN_LOOP !== 'only';
      const runs = { realMany: [], bareMany: [], realHot: [], bareHot: [] } as Record<
        'realMany' | 'bareMany' | 'realHot' | 'bareHot',
        Run[]
      >;
      const warm = await load(real.many.url, real.many.senders, WARMUP_S);
      await load(bare.many.url, bare.many.senders, WARMUP_S);
      for (let round = 0; round < ROUNDS; round++) {
        runs.realMany.push(await measured(real.many, server.cpuMs));
        runs.bareMany.push(await measured(bare.many, bare.cpuMs));
        if (!hotRuns) continue;
        runs.realHot.push(await measured(real.hot, server.cpuMs));
        runs.bareHot.push(await measured(bare.hot, bare.cpuMs));
      }
      rows = {
        real: [
          medianRow(`transfer/touser, ${REFERENCE_MEMBERS} senders`, runs.realMany),
          ...(hotRuns ? [medianRow('transfer/touser, 1 sender (hot account)', runs.realHot)] : []),
        ],
        bare: [
          medianRow(`bare route, raw SQL, ${REFERENCE_MEMBERS} senders`, runs.bareMany),
          ...(hotRuns ? [medianRow('bare route, raw SQL, 1 sender (hot account)', runs.bareHot)] : []),
        ],
      };
      // Open loop at shares of each one's own maximum, the endpoint and the bare route in turns.
      const realMax = OPEN_MAX?.[0] ?? rows.real[0]?.rate ?? 0;
      const bareMax = OPEN_BASE === 'endpoint' ? realMax : (OPEN_MAX?.[1] ?? rows.bare[0]?.rate ?? 0);
      if (OPEN_LOOP !== 'off')
        for (const share of OPEN_SHARES)
          for (let repeat = 0; repeat < OPEN_REPEAT; repeat++) {
            open.push(await openRun('transfer/touser', real.many, share, realMax, server.cpuMs));
            open.push(await openRun('bare route', bare.many, share, bareMax, bare.cpuMs));
          }
      check = await real.check([
        warm,
        ...[...runs.realMany, ...runs.realHot].map((r) => r.result),
        ...open.filter((r) => r.name === 'transfer/touser').map((r) => r.result),
      ]);
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
  for (const row of [...rows.real, ...rows.bare]) print(row);
  if (OPEN_LOOP !== 'only') for (const row of await benchStorage(dialect)) print(row);
  if (open.length) {
    console.log(
      `\n  open loop, ${REFERENCE_MEMBERS} senders: requests due at a fixed rate, ${OPEN_SECONDS} s measured after ${OPEN_WARMUP_S} s at the same rate, latency from each request's due time`,
    );
    for (const run of open) printOpenRun(run);
  }
  console.log(`  ${check}`);
  const verdict = (i: number) => {
    const [r, b] = [rows.real[i], rows.bare[i]] as [Row, Row];
    const share = Math.round((100 * r.rate) / b.rate);
    return `${share}% of the bare route, p99 ${ms(r.p99)}: ${share >= 60 && r.p99 < 50 ? 'met' : 'NOT met'}`;
  };
  console.log(
    `  aim (at least 60% of the bare route, p99 under 50 ms), ${REFERENCE_MEMBERS} senders: ${verdict(0)}`,
  );
  if (rows.real[1]) console.log(`  aim, 1 sender: ${verdict(1)}`);
  const p99sAtAim = (name: string) =>
    open.filter((r) => r.name === name && r.share === AIM_SHARE).map((r) => r.warm.p99Ms);
  const [realP99s, bareP99s] = [p99sAtAim('transfer/touser'), p99sAtAim('bare route')];
  if (realP99s.length && bareP99s.length) {
    const [realAt, bareAt] = [median(realP99s), median(bareP99s)];
    const times = realAt / bareAt;
    const under50 = dialect === 'sqlite' ? ` under 50 ms ${realAt < 50 ? 'met' : 'NOT met'},` : '';
    const of = realP99s.length > 1 ? `median of ${realP99s.length} ` : '';
    console.log(
      `  aim at ${AIM_SHARE}% of the maximum: the endpoint's ${of}p99 ${ms(realAt)}${spread(realP99s)}, the bare route's ${ms(bareAt)}${spread(bareP99s)}:${under50} within 1.5x (${times.toFixed(2)}x) ${times <= 1.5 ? 'met' : 'NOT met'}`,
    );
  }
}

/** The range of repeated figures, when there are several. */
const spread = (values: number[]) =>
  values.length > 1 ? ` (${ms(Math.min(...values))} to ${ms(Math.max(...values))})` : '';

/** The machine's load average over the last minute, read when a figure is printed (a shared machine shows here). */
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';

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
  await cleanUp();
}
