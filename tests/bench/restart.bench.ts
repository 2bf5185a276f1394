import { fundedMember } from '../helpers/client.ts';
import { postgresReachable } from '../helpers/postgres.ts';
import { adminOn, type ServerProcess, sharedDatabase, sleep } from '../helpers/server-process.ts';
import { AMOUNT } from './harness.ts';
import { formatStats, type OpenLoopResult, openLoop } from './open-loop.ts';
import { cpuMsOf } from './process-cpu.ts';
import { bookKeeper, type Member, transferSender } from './transfer-load.ts';

// npm run bench:restart: what members feel in the first seconds after a server process starts. A
// fresh process is started on a database that already holds funded, signed-in members; the bench
// waits for GET /api/v1/health/ready to answer 200, as a load balancer would before sending it
// anything, and then sends member-to-member transfers at a fixed rate (open loop, tests/bench/open-loop.ts):
// latency per second of due time for the first seconds, and once warm. Each round starts one process
// with the warm-up (WARM_UP, the default) and one without (WARM_UP=off), in turns, so a busy moment of
// the machine hurts both alike. After each run every answered transfer must be in the ledger and the
// ledger must reconcile. Numbers, not pass/fail.

/** Requests due per second; several, comma-separated, run one after the other. */
const RATES = (process.env.BENCH_RATES ?? '1500').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Windows reported one by one from the start; from WARM_FROM_S on they are merged as "warm". */
const FIRST_SECONDS = Number(process.env.BENCH_FIRST_SECONDS ?? 5);
const WARM_FROM_S = Number(process.env.BENCH_WARM_FROM_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
/** Which starts to measure: 'on,off' (default), 'on' or 'off'. */
const WARM_UPS = (process.env.BENCH_WARM_UPS ?? 'on,off').split(',').map((w) => w.trim());
/**
 * Kept-alive connections opened to the fresh process before the load (BENCH_PRECONNECT=256), as a
 * proxy's pool holds them after its first seconds; by default (0) they open as requests need them.
 */
const PRECONNECT = Number(process.env.BENCH_PRECONNECT ?? 0);
/** How often the bench asks for readiness, like a load balancer's health check (ms). */
const READY_POLL_MS = Number(process.env.BENCH_READY_POLL_MS ?? 100);
/** Node flags for the measured processes, e.g. '--cpu-prof --cpu-prof-dir=prof' to profile them. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const SENDERS = 10;

async function waitUntilReady(server: ServerProcess): Promise<void> {
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
    const ready = await fetch(`${server.url}/api/v1/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await sleep(READY_POLL_MS);
  }
}

/** The server's CPU per answered transfer over the load's first seconds and its last ones. */
type CpuSample = { cpuMs: number; answered: number };
const cpuPerTransfer = (samples: CpuSample[], from: number, to: number) => {
  const [a, b] = [samples[from], samples[Math.min(to, samples.length - 1)]];
  if (!a || !b || b.answered <= a.answered) return 'n/a';
  return `${Math.round(((b.cpuMs - a.cpuMs) * 1000) / (b.answered - a.answered))} µs`;
};

function report(title: string, readyMs: number, result: OpenLoopResult, cpu: CpuSample[], check: string) {
  console.log(`\n  ${title}: ready ${(readyMs / 1000).toFixed(1)} s after the start`);
  result.windows.slice(0, FIRST_SECONDS).forEach((w, i) => {
    console.log(`    ${formatStats(`second ${i + 1}`, w)}`);
  });
  const warmFrom = Math.min(WARM_FROM_S, result.windows.length - 1);
  console.log(
    `    ${formatStats(`seconds ${warmFrom + 1}-${result.windows.length}`, result.range(warmFrom, result.windows.length))}`,
  );
  console.log(
    `    ${formatStats('whole run', result.range(0, result.windows.length))}; the generator's own send lag p99 ${result.sendLagP99Ms.toFixed(1)} ms, max ${result.sendLagMaxMs.toFixed(1)} ms`,
  );
  console.log(
    `    server CPU per answered transfer: first 2 s ${cpuPerTransfer(cpu, 0, 2)}, from second ${warmFrom + 1} ${cpuPerTransfer(cpu, warmFrom, cpu.length - 1)}`,
  );
  console.log(`    ${check}`);
}

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const cleanups: (() => Promise<void>)[] = [];
  const checkBooks = bookKeeper();
  try {
    const database = await sharedDatabase(dialect, {
      dirPrefix: 'restart-bench',
      schemaPrefix: 'rbench',
      env: { INCOME_SCHEDULE: 'off', SALARY_SCHEDULE: 'off', SHUTDOWN_DELAY_MS: '0' },
      cleanups,
    });
    // The members are made by a first process, which is stopped: every measured process starts cold
    // on a database that already holds them (sessions and CSRF secret live in the database).
    const first = await database.start('prepare');
    const admin = await adminOn(first.url);
    const members: Member[] = [];
    for (let i = 0; i < SENDERS; i++)
      members.push(await fundedMember(first.url, admin, { business: '1000.00' }));
    await first.stop();
    console.log(
      `\n${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: transfers of ${AMOUNT} by ${SENDERS} members, open loop for ${SECONDS} s from the first ready answer (latency from each request's due time)`,
    );

    for (const rate of RATES) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const warm of WARM_UPS) {
          const started = Date.now();
          const server = await database.start(`run-${rate}-${round}-${warm}`, { WARM_UP: warm }, NODE_FLAGS);
          await waitUntilReady(server);
          const readyMs = Date.now() - started;
          const sender = transferSender(server.url, members);
          if (PRECONNECT > 0) await sender.preconnect(PRECONNECT, '/api/v1/health');
          // Each second of wall time: the server's CPU so far and the transfers answered so far.
          let answered = 0;
          const cpu: CpuSample[] = [{ cpuMs: cpuMsOf(server.child.pid), answered }];
          const sampler = setInterval(() => cpu.push({ cpuMs: cpuMsOf(server.child.pid), answered }), 1000);
          const result = await openLoop({
            rate,
            seconds: SECONDS,
            send: (index) =>
              sender.send(index).finally(() => {
                answered += 1;
              }),
          });
          clearInterval(sampler);
          sender.close();
          const check = await checkBooks(server.url, result);
          await server.stop();
          report(
            `${rate}/s, warm-up ${warm === 'off' ? 'off' : 'on'}, round ${round + 1}`,
            readyMs,
            result,
            cpu,
            check,
          );
        }
      }
    }
  } finally {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e) => console.error(e));
  }
}

for (const dialect of DIALECTS) {
  if (dialect === 'postgres' && !(await postgresReachable())) {
    console.log('\nPostgreSQL does not answer: its runs are left out.');
    continue;
  }
  await benchDialect(dialect as 'sqlite' | 'postgres');
}
