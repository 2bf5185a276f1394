import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type autocannon from 'autocannon';
import { fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { adminQuery, postgresReachable, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { ADMIN } from '../helpers/server.ts';
import { freePort } from '../helpers/server-process.ts';
import {
  benchStorage,
  CONNECTIONS,
  type CpuSample,
  checkLedger,
  cleanUp,
  cpuSpentMs,
  DURATION_S,
  failuresOf,
  freshDatabase,
  loadAverage,
  loadEach,
  median,
  ms,
  postgresBackendsCpu,
  print,
  ROUNDS,
  type Sender,
  startBalancer,
  startProcess,
  transferBody,
  transferHeaders,
  untilRotation,
  WARMUP_S,
} from './harness.ts';
import { cpuMsOf } from './process-cpu.ts';

// npm run bench:cluster: the real server (production build, its own processes) on PostgreSQL behind
// a round-robin load balancer (balancer.ts, a process of its own), with 1 and then 2 server processes
// on one fresh schema, and the 1-process run also without the balancer, so the balancer's own cost is
// visible. Three loads each: transfers between 100 funded members (random pairs), transfers by one
// member (a hot account) to random others, and members reading their balance (GET /wallet/balance).
// The three set-ups run in turns, round after round, each round starting with the next one (the
// second server started for its turn and stopped after it), so a machine that is busy for a while
// slows them alike; figures are medians.
// Beside each: the CPU per answered request of the load generator (this process), the balancer, the
// server processes and PostgreSQL's backends for this schema, all from /proc, and the machine's busy
// time, then the ledger write in a loop straight on the database (ledger-write.ts). After every load
// the ledger is checked (every 201 in the ledger, the books reconcile, the members' money adds up to
// what they were given); a mismatch stops the bench with an error.

/** Funded members; each registers from an address of its own (198.18.0.0/15, the benchmarking range). */
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100);
const FUNDS = '10000.00';
const FUNDS_CENTS = 1_000_000;

/** The machine's busy CPU time so far, ms, all cores (Linux /proc/stat; NaN elsewhere). */
const machineBusyMs = () => {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
  } catch {
    return Number.NaN;
  }
};

type Proc = Awaited<ReturnType<typeof startProcess>>;
const cpuOf = (procs: Proc[]): CpuSample => new Map(procs.map((p) => [p.pid, cpuMsOf(p.pid)] as const));

/** One way in: straight to the first server, or through a balancer to 1 or 2 servers. */
type Setup = { name: string; base: string; servers: () => Proc[]; balancer?: () => Proc };
type Workload = {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  transfers: boolean;
  next: () => Sender;
};

/**
 * CPU per answered request, µs, of each part; the cores the busiest server process and PostgreSQL's
 * backends kept busy; and the machine's busy cores, all and not ours.
 */
type Cost = {
  loadGen: number;
  balancer: number;
  servers: number;
  postgres: number;
  busiestServer: number;
  postgresCores: number;
  busy: number;
  others: number;
};
type Measured = { result: autocannon.Result; cost: Cost };

const ceilingOf = (cost: Cost) => {
  const ours = cost.loadGen + cost.balancer + cost.servers + cost.postgres;
  return { ours, ceiling: (cpus().length * 1e6) / ours };
};

async function main() {
  console.log(
    `cluster bench: ${cpus().length} cores, load average ${loadAverage()} at the start, PostgreSQL at ${new URL(TEST_DATABASE_URL).host}`,
  );
  if (!(await postgresReachable()))
    throw new Error(
      `PostgreSQL at ${new URL(TEST_DATABASE_URL).host} does not answer: the cluster bench needs it`,
    );
  const database = await freshDatabase('postgres');
  const schema = database.target.dialect === 'postgres' ? database.target.schema : '';
  const [firstPort, secondPort, balancer1Port, balancer2Port] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ] as [number, number, number, number];
  const startServer = (port: number) =>
    startProcess(
      'src/server/main.ts',
      {
        ...database.env,
        PORT: String(port),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // The balancer appends the client's address to X-Forwarded-For, as nginx would.
        TRUST_PROXY: '127.0.0.1',
      },
      `http://127.0.0.1:${port}/api/v1/health`,
    );

  const first = await startServer(firstPort);
  const direct = `http://127.0.0.1:${firstPort}`;
  const admin = await signedInAdminClient(direct);
  const members: Awaited<ReturnType<typeof fundedMember>>[] = [];
  const setupStart = performance.now();
  for (let i = 0; i < MEMBERS; i++) {
    const from = { 'x-forwarded-for': `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}` };
    members.push(await fundedMember(direct, admin, { business: FUNDS }, {}, from));
  }
  const memberIds = members.map((m) => m.auth.id as string);
  const senders = members.map((m) => transferHeaders(m.client));
  const bodies = memberIds.map(transferBody);
  const readers = members.map((m) => ({ cookie: m.client.cookieHeader() }));
  const pick = (n: number) => Math.floor(Math.random() * n);
  const workloads: Workload[] = [
    {
      name: `transfers, ${MEMBERS} members, random pairs`,
      path: '/api/v1/transfer/touser',
      method: 'POST',
      transfers: true,
      next: () => {
        const from = pick(MEMBERS);
        const to = (from + 1 + pick(MEMBERS - 1)) % MEMBERS;
        return { headers: senders[from] as Sender['headers'], body: bodies[to] };
      },
    },
    {
      name: 'transfers, 1 sender (hot account)',
      path: '/api/v1/transfer/touser',
      method: 'POST',
      transfers: true,
      next: () => ({ headers: senders[0] as Sender['headers'], body: bodies[1 + pick(MEMBERS - 1)] }),
    },
    {
      name: `balance reads, ${MEMBERS} members`,
      path: '/api/v1/wallet/balance',
      method: 'GET',
      transfers: false,
      next: () => ({ headers: readers[pick(MEMBERS)] as Sender['headers'] }),
    },
  ];

  const transferLoads: autocannon.Result[] = [];
  /** The ledger after a load: checkLedger, and the members' money still what they were given. */
  const check = async () => {
    const text = await checkLedger(admin, transferLoads);
    const [sum] = await adminQuery<{ cents: string }>(
      `select coalesce(sum(balance_cents), 0)::text as cents from ${schema}.ledger_accounts where user_id = any($1)`,
      [memberIds],
    );
    if (Number(sum?.cents) !== MEMBERS * FUNDS_CENTS)
      throw new Error(
        `MISMATCH: the members hold ${sum?.cents} cents, they were given ${MEMBERS * FUNDS_CENTS}`,
      );
    return `${text}, members' money unchanged`;
  };

  const sample = async (setup: Setup) => ({
    at: performance.now(),
    loadGen: process.cpuUsage(),
    balancer: cpuOf(setup.balancer ? [setup.balancer()] : []),
    servers: cpuOf(setup.servers()),
    postgres: await postgresBackendsCpu(database.applicationName),
    machine: machineBusyMs(),
  });
  const run = async (setup: Setup, workload: Workload, seconds: number): Promise<Measured> => {
    const before = await sample(setup);
    const result = await loadEach(`${setup.base}${workload.path}`, workload.method, workload.next, seconds);
    const after = await sample(setup);
    if (workload.transfers) transferLoads.push(result);
    await check();
    const done = Math.max(1, result['2xx']);
    const perRequest = (spentMs: number) => (spentMs * 1000) / done;
    const wallMs = after.at - before.at;
    const loadGenUs = process.cpuUsage(before.loadGen);
    const perServer = [...after.servers].map(([pid, ms]) => ms - (before.servers.get(pid) ?? 0));
    const cost = {
      loadGen: (loadGenUs.user + loadGenUs.system) / done,
      balancer: perRequest(cpuSpentMs(before.balancer, after.balancer)),
      servers: perRequest(cpuSpentMs(before.servers, after.servers)),
      postgres: perRequest(cpuSpentMs(before.postgres, after.postgres)),
      busiestServer: Math.max(...perServer) / wallMs,
      postgresCores: cpuSpentMs(before.postgres, after.postgres) / wallMs,
      busy: (after.machine - before.machine) / wallMs,
      others: 0,
    };
    const oursMs = (ceilingOf(cost).ours * done) / 1000;
    cost.others = (after.machine - before.machine - oursMs) / wallMs;
    return { result, cost };
  };

  let second: Proc | undefined;
  let balancer2: Proc | undefined;
  const balancer1 = await startBalancer(balancer1Port, [firstPort]);
  const setups: Setup[] = [
    { name: '1 process, no balancer', base: direct, servers: () => [first] },
    {
      name: '1 process, balancer',
      base: `http://127.0.0.1:${balancer1Port}`,
      servers: () => [first],
      balancer: () => balancer1,
    },
    {
      name: '2 processes, balancer',
      base: `http://127.0.0.1:${balancer2Port}`,
      servers: () => [first, second as Proc],
      balancer: () => balancer2 as Proc,
    },
  ];
  const runs = new Map<string, Measured[]>();
  const keyOf = (setup: Setup, workload: Workload) => `${setup.name}: ${workload.name}`;

  console.log(
    `${MEMBERS} funded members (${Math.round((performance.now() - setupStart) / 1000)} s); ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per load after ${WARMUP_S} s warm-up (medians)`,
  );
  for (const setup of setups.slice(0, 2)) for (const w of workloads) await run(setup, w, WARMUP_S);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with the next set-up, so none always runs right after the second server stopped.
    const order = setups.map((_, i) => setups[(i + round) % setups.length] as Setup);
    for (const setup of order) {
      if (setup === setups[2]) {
        second = await startServer(secondPort);
        balancer2 ??= await startBalancer(balancer2Port, [firstPort, secondPort]);
        // The balancer sends to a server once its readiness answers 200 (after its warm-up).
        await untilRotation(balancer2Port, secondPort, true);
        for (const w of workloads) await run(setup, w, WARMUP_S);
      }
      for (const w of workloads) {
        const measured = await run(setup, w, DURATION_S);
        runs.set(keyOf(setup, w), [...(runs.get(keyOf(setup, w)) ?? []), measured]);
      }
      if (setup === setups[2]) {
        await second?.stop();
        second = undefined;
      }
    }
    console.log(`  round ${round + 1} of ${ROUNDS} done, ${await check()}`);
  }

  let failed = false;
  const rateOf = (setup: Setup, w: Workload) =>
    median((runs.get(keyOf(setup, w)) ?? []).map((m) => m.result['2xx'] / m.result.duration));
  const medians = (setup: Setup, w: Workload) => {
    const measured = runs.get(keyOf(setup, w)) ?? [];
    const at = (f: (m: Measured) => number) => median(measured.map(f));
    const cost: Cost = {
      loadGen: at((m) => m.cost.loadGen),
      balancer: at((m) => m.cost.balancer),
      servers: at((m) => m.cost.servers),
      postgres: at((m) => m.cost.postgres),
      busiestServer: at((m) => m.cost.busiestServer),
      postgresCores: at((m) => m.cost.postgresCores),
      busy: at((m) => m.cost.busy),
      others: at((m) => m.cost.others),
    };
    return { at, cost, failures: measured.map((m) => failuresOf(m.result)).find(Boolean) };
  };
  const name = (setup: Setup, w: Workload) => keyOf(setup, w).padEnd(62);
  const cores = (v: number) => v.toFixed(2).padStart(5);
  console.log(
    `\n${''.padEnd(62)} ${'req/s'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}   cores busy: busiest server process, postgres, machine (not ours)`,
  );
  for (const setup of setups) {
    for (const w of workloads) {
      const { at, cost, failures } = medians(setup, w);
      failed ||= Boolean(failures);
      console.log(
        `${name(setup, w)} ${`${Math.round(rateOf(setup, w))}`.padStart(6)} ${ms(at((m) => m.result.latency.p50)).padStart(8)} ${ms(at((m) => m.result.latency.p99)).padStart(8)}   ${cores(cost.busiestServer)} ${cores(cost.postgresCores)} ${cores(cost.busy)} (${cost.others.toFixed(2)})${failures ? `  FAILED: ${failures}` : ''}`,
      );
    }
  }
  console.log(
    `\n${'CPU µs per answered request'.padEnd(62)} load gen balancer  servers postgres     ours -> ceiling at ${cpus().length} cores`,
  );
  for (const setup of setups) {
    for (const w of workloads) {
      const { cost } = medians(setup, w);
      const { ours, ceiling } = ceilingOf(cost);
      const us = (v: number) => `${Math.round(v)}`.padStart(8);
      console.log(
        `${name(setup, w)} ${us(cost.loadGen)} ${us(cost.balancer)} ${us(cost.servers)} ${us(cost.postgres)} ${us(ours)} -> ${`${Math.round(ceiling)}`.padStart(5)}/s`,
      );
    }
  }

  const [alone, balanced, two] = setups as [Setup, Setup, Setup];
  console.log('');
  for (const w of workloads) {
    const share = (a: Setup, b: Setup) => `${Math.round((100 * rateOf(a, w)) / rateOf(b, w))}%`;
    console.log(
      `${w.name}: through the balancer ${share(balanced, alone)} of the rate without it; 2 processes ${share(two, balanced)} of 1 (both through the balancer)`,
    );
  }

  for (const proc of [balancer1, balancer2, first]) await proc?.stop();
  await database.drop();
  console.log('\nthe same ledger write in a loop straight on PostgreSQL (ledger-write.ts):');
  for (const row of await benchStorage('postgres')) print(row);
  console.log(`\nload average ${loadAverage()} at the end`);
  if (failed) throw new Error('some requests were not answered 2xx (see FAILED above)');
}

try {
  await main();
} finally {
  await cleanUp();
}
