import { performance } from 'node:perf_hooks';
import { fundedMember } from '../helpers/client.ts';
import { postgresReachable } from '../helpers/postgres.ts';
import { adminOn, type ServerProcess, sharedDatabase, sleep } from '../helpers/server-process.ts';
import { AMOUNT, balancerState, cleanUp, loadAverage, startBalancer, untilRotation } from './harness.ts';
import { formatStats, type OpenLoopResult, openLoop } from './open-loop.ts';
import { bookKeeper, type Member, transferSender } from './transfer-load.ts';

// npm run bench:rolling: what members feel during a rolling restart (issue 20: "a rolling restart
// behind the proxy shows no such stall; measure it the same way, open loop"). Two server processes on
// one PostgreSQL schema behind the bench's balancer (balancer.ts: readiness checked every
// BENCH_CHECK_MS, one retry on the other server when a connection fails before any answer), and
// member-to-member transfers through it at a fixed rate (open loop, tests/bench/open-loop.ts). During
// a run the bench restarts process A (SIGTERM, waits for its exit, starts a new one on the same port)
// and, BENCH_PAUSE_SECONDS after A is back in rotation, process B the same way. Each round has three
// runs, in turns: no restart, a rolling restart whose new processes warm up (WARM_UP, the default), and
// one whose new processes do not (WARM_UP=off). Per run: latency per second of due time around each
// restart, each restart's seconds merged, the whole run, the requests the balancer retried or failed,
// and the books (every 201 a transfer in the ledger, no more, and the reconciliation balanced).
// Numbers, not pass/fail.

const RATE = Number(process.env.BENCH_RATE ?? 400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Which runs: 'none' (no restart), 'on' (restarted with the warm-up), 'off' (WARM_UP=off). */
const MODES = (process.env.BENCH_MODES ?? 'none,on,off').split(',').map((m) => m.trim());
/** When A gets its SIGTERM, seconds into the load; B gets its own this long after A is back in rotation. */
const RESTART_AT_S = Number(process.env.BENCH_RESTART_AT_SECONDS ?? 10);
const PAUSE_S = Number(process.env.BENCH_PAUSE_SECONDS ?? 5);
/** The balancer's readiness check interval, and the servers' pause after SIGTERM (a few checks' worth). */
const CHECK_MS = Number(process.env.BENCH_CHECK_MS ?? 200);
const SHUTDOWN_DELAY_MS = Number(process.env.BENCH_SHUTDOWN_DELAY_MS ?? 1000);
/** Seconds of load, not reported, before the first run: both processes serve warm from the start. */
const WARM_IN_S = Number(process.env.BENCH_WARM_IN_SECONDS ?? 10);
/** Ports: A, B, then the balancer (BENCH_PORT, +1, +2). */
const FIRST_PORT = Number(process.env.BENCH_PORT ?? 8350);
/** Members sending, n to n+1: fewer means more transfers waiting on the same accounts' row locks. */
const SENDERS = Number(process.env.BENCH_MEMBERS ?? 40);

type Mode = 'none' | 'on' | 'off';
type Event = { atS: number; what: string };

/** One restart: SIGTERM, out of rotation, exit, a new process listening on the port, back in rotation. */
async function restart(
  name: string,
  old: ServerProcess,
  start: () => Promise<ServerProcess>,
  balancerPort: number,
  mark: (what: string) => number,
): Promise<{ server: ServerProcess; fromS: number; toS: number }> {
  const port = Number(new URL(old.url).port);
  const fromS = mark(`${name} SIGTERM`);
  const left = untilRotation(balancerPort, port, false).then(() => mark(`${name} out of rotation`));
  await old.stop();
  mark(`${name} exited`);
  await left;
  const server = await start();
  mark(`${name} listening`);
  await untilRotation(balancerPort, port, true);
  const toS = mark(`${name} in rotation`);
  return { server, fromS, toS };
}

const secondOf = (s: number) => Math.floor(s);

function report(
  title: string,
  result: OpenLoopResult,
  events: Event[],
  restarts: [number, number][],
  check: string,
) {
  console.log(`\n  ${title}`);
  if (events.length) console.log(`    ${events.map((e) => `${e.what} ${e.atS.toFixed(1)} s`).join(', ')}`);
  const line = (label: string, from: number, to: number) =>
    console.log(`    ${formatStats(label, result.range(from, to))}`);
  restarts.forEach(([fromS, toS], i) => {
    // From the second before the SIGTERM to 5 s after the new process joined the rotation.
    const first = Math.max(0, secondOf(fromS) - 1);
    const last = Math.min(result.windows.length - 1, secondOf(toS) + 5);
    if (first > last) return;
    for (let s = first; s <= last; s++) line(`second ${s + 1}`, s, s + 1);
    line(`restart ${i === 0 ? 'A' : 'B'} (${first + 1}-${last + 1})`, first, last + 1);
  });
  const worst = result.windows.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a));
  line(`worst second (${worst.fromS + 1})`, worst.fromS, worst.fromS + 1);
  line('whole run', 0, result.windows.length);
  console.log(
    `    the generator's own send lag p99 ${result.sendLagP99Ms.toFixed(1)} ms, max ${result.sendLagMaxMs.toFixed(1)} ms`,
  );
  console.log(`    ${check}`);
}

async function main() {
  const cleanups: (() => Promise<void>)[] = [];
  const [portA, portB, balancerPort] = [FIRST_PORT, FIRST_PORT + 1, FIRST_PORT + 2];
  try {
    const database = await sharedDatabase('postgres', {
      dirPrefix: 'rolling-bench',
      schemaPrefix: 'rollb',
      env: {
        INCOME_SCHEDULE: 'off',
        SALARY_SCHEDULE: 'off',
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        // The balancer appends the client's address to X-Forwarded-For, as nginx would.
        TRUST_PROXY: '127.0.0.1',
      },
      cleanups,
    });
    let starts = 0;
    const startOn = (port: number, warmUp: 'on' | 'off') => () =>
      database.start(`p${port}-${starts++}`, { PORT: String(port), WARM_UP: warmUp });
    const servers = { A: await startOn(portA, 'on')(), B: await startOn(portB, 'on')() };
    const admin = await adminOn(servers.A.url);
    const members: Member[] = [];
    for (let i = 0; i < SENDERS; i++) {
      // Each from an address of its own (198.18.0.0/15, the benchmarking range): sign-ups are limited per address.
      const from = { 'x-forwarded-for': `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}` };
      members.push(await fundedMember(servers.A.url, admin, { business: '1000.00' }, {}, from));
    }
    const balancer = await startBalancer(balancerPort, [portA, portB], {
      BALANCER_CHECK_MS: String(CHECK_MS),
    });
    await untilRotation(balancerPort, portA, true);
    await untilRotation(balancerPort, portB, true);
    const url = `http://127.0.0.1:${balancerPort}`;
    const checkBooks = bookKeeper();
    console.log(
      `PostgreSQL, 2 server processes behind the balancer (readiness checked every ${CHECK_MS} ms, SHUTDOWN_DELAY_MS=${SHUTDOWN_DELAY_MS}): transfers of ${AMOUNT} by ${SENDERS} members at ${RATE}/s, open loop for ${SECONDS} s (latency from each request's due time); load average ${loadAverage()}`,
    );
    if (WARM_IN_S > 0) {
      const sender = transferSender(url, members);
      const result = await openLoop({ rate: RATE, seconds: WARM_IN_S, send: sender.send });
      sender.close();
      console.log(
        `  warm-in, ${WARM_IN_S} s: ${formatStats('whole', result.range(0, result.windows.length))}`,
      );
      console.log(`    ${await checkBooks(servers.A.url, result)}`);
    }

    for (let round = 0; round < ROUNDS; round++) {
      const order = MODES.map((_, i) => MODES[(i + round) % MODES.length] as Mode);
      for (const mode of order) {
        const loadBefore = loadAverage();
        const before = await balancerState(balancerPort);
        const sender = transferSender(url, members);
        const events: Event[] = [];
        const t0 = performance.now();
        const mark = (what: string) => {
          const atS = (performance.now() - t0) / 1000;
          events.push({ atS, what });
          return atS;
        };
        const load = openLoop({ rate: RATE, seconds: SECONDS, send: sender.send });
        const restarts: [number, number][] = [];
        if (mode !== 'none') {
          await sleep(RESTART_AT_S * 1000);
          const a = await restart('A', servers.A, startOn(portA, mode), balancerPort, mark);
          servers.A = a.server;
          restarts.push([a.fromS, a.toS]);
          await sleep(PAUSE_S * 1000);
          const b = await restart('B', servers.B, startOn(portB, mode), balancerPort, mark);
          servers.B = b.server;
          restarts.push([b.fromS, b.toS]);
          if (b.toS > SECONDS) console.log(`  (B was back in rotation only after the load had ended)`);
        }
        const result = await load;
        sender.close();
        const after = await balancerState(balancerPort);
        const check = await checkBooks(servers.A.url, result);
        const title = mode === 'none' ? 'no restart' : `rolling restart, new processes with WARM_UP=${mode}`;
        report(
          `${title}, round ${round + 1}; load average ${loadBefore} before, ${loadAverage()} after`,
          result,
          events,
          restarts,
          `${check}; the balancer retried ${after.retried - before.retried} requests on the other server, answered ${after.failed - before.failed} itself (502), sent ${after.panicked - before.panicked} while no server was in rotation`,
        );
      }
    }
    await balancer.stop();
  } finally {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e) => console.error(e));
    await cleanUp();
  }
}

if (!(await postgresReachable())) throw new Error('PostgreSQL does not answer: the rolling bench needs it');
await main();
