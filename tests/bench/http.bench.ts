import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { postgresReachable, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import {
  AMOUNT,
  benchStorage,
  CONNECTIONS,
  cleanUp,
  DURATION_S,
  load,
  median,
  medianRow,
  ms,
  print,
  ROUNDS,
  type Row,
  type Run,
  type Sender,
  WARMUP_S,
} from './harness.ts';
import { REFERENCE_MEMBERS, type Target } from './ledger-write.ts';
import { formatStats, httpSender, type OpenLoopResult, openLoop, type WindowStats } from './open-loop.ts';
import {
  type Case,
  measured,
  prepareRealEndpoint,
  startBareRoute,
  startRealServer,
} from './transfer-cases.ts';

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
 * BENCH_OPEN_LOOP_BASE: 'bare' (the default) runs both at shares of the bare route's closed-loop
 * maximum, one arrival rate for both, as the latency aim is judged; 'own' runs each at shares of its
 * own maximum; 'endpoint' runs both at the endpoint's.
 */
const OPEN_BASE = process.env.BENCH_OPEN_LOOP_BASE ?? 'bare';
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

/** Whose closed-loop maximum a run's rate is a share of, when it is not its own. */
const baseNote = (name: string) =>
  name === 'bare route' && OPEN_BASE === 'endpoint'
    ? " (the endpoint's maximum)"
    : name !== 'bare route' && OPEN_BASE === 'bare'
      ? " (the bare route's maximum)"
      : '';

function printOpenRun(run: OpenRun) {
  const whole = run.result.range(0, run.result.windows.length);
  const failed = whole.non2xx + whole.errors;
  console.log(
    `  ${run.name} at ${run.share}% of ${Math.round(run.max)}/s${baseNote(run.name)}: ${run.rate} due per second (load average ${run.load})`,
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
  const server = await startRealServer(dialect, PORT);
  let rows: { real: Row[]; bare: Row[] };
  let check: string;
  const open: OpenRun[] = [];
  try {
    if (withStaticCalls) await benchStaticCalls(server.base);
    console.log(
      `\ntransfers of ${AMOUNT} on ${label}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each after ${WARMUP_S} s warm-up (medians)`,
    );
    const real = await prepareRealEndpoint(server.base);
    const bare = await startBareRoute(dialect, BARE_PORT);
    try {
      const hotRuns = OPEN_LOOP !== 'only';
      const runs = { realMany: [], bareMany: [], realHot: [], bareHot: [] } as Record<
        'realMany' | 'bareMany' | 'realHot' | 'bareHot',
        Run[]
      >;
      const warm = await load(real.many.url, real.many.senders, WARMUP_S);
      await load(bare.many.url, bare.many.senders, WARMUP_S);
      for (let round = 0; round < ROUNDS; round++) {
        runs.realMany.push(await measured(real.many, server.cpuMs, DURATION_S));
        runs.bareMany.push(await measured(bare.many, bare.cpuMs, DURATION_S));
        if (!hotRuns) continue;
        runs.realHot.push(await measured(real.hot, server.cpuMs, DURATION_S));
        runs.bareHot.push(await measured(bare.hot, bare.cpuMs, DURATION_S));
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
      const measuredMax = {
        real: OPEN_MAX?.[0] ?? rows.real[0]?.rate ?? 0,
        bare: OPEN_MAX?.[1] ?? rows.bare[0]?.rate ?? 0,
      };
      const realMax = OPEN_BASE === 'bare' ? measuredMax.bare : measuredMax.real;
      const bareMax = OPEN_BASE === 'endpoint' ? measuredMax.real : measuredMax.bare;
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
      `  aim at ${AIM_SHARE}% of ${OPEN_BASE === 'own' ? "each one's own" : OPEN_BASE === 'bare' ? "the bare route's" : "the endpoint's"} maximum: the endpoint's ${of}p99 ${ms(realAt)}${spread(realP99s)}, the bare route's ${ms(bareAt)}${spread(bareP99s)}:${under50} within 1.5x (${times.toFixed(2)}x) ${times <= 1.5 ? 'met' : 'NOT met'}`,
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
