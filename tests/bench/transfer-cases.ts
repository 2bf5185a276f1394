import type autocannon from 'autocannon';
import { type ApiClient, fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { ADMIN } from '../helpers/server.ts';
import {
  checkLedger,
  freshDatabase,
  load,
  type Run,
  type Sender,
  startProcess,
  transferBody,
  transferHeaders,
} from './harness.ts';
import {
  prepareReferenceDatabase,
  REFERENCE_MEMBERS,
  referenceAccount,
  referenceMember,
  type Target,
} from './ledger-write.ts';
import type { OpenLoopResult } from './open-loop.ts';

// The transfer loads the bench (http.bench.ts) and the cost guard (tests/api/transfer-cost.test.ts)
// compare: the real server's POST /api/v1/transfer/touser as the app calls it, and the bare route
// (bare-server.ts) doing the same ledger write in raw SQL, each in a process of its own on a fresh
// database, measured by the process's CPU time per answered transfer (/proc).

/** The real server on a fresh database, with the test suites' admin; stop() also drops the database. */
export async function startRealServer(
  dialect: Target['dialect'],
  port: number,
  env: Record<string, string> = {},
) {
  const database = await freshDatabase(dialect);
  const base = `http://127.0.0.1:${port}`;
  try {
    const server = await startProcess(
      'src/server/main.ts',
      {
        ...database.env,
        PORT: String(port),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...env,
      },
      `${base}/api/v1/health`,
    );
    return { base, cpuMs: server.cpuMs, stop: () => server.stop().then(database.drop) };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** A load to compare: the senders of its connections, at one URL; `health` a path to open connections with. */
export type Case = { url: string; senders: Sender[]; health: string };

/** 10 funded members, each sending 0.01 to the next; and one member sending to another (a hot account). */
export async function prepareRealEndpoint(base: string) {
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
export async function startBareRoute(dialect: Target['dialect'], port: number) {
  const { target, env, drop } = await freshDatabase(dialect);
  await prepareReferenceDatabase(target);
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    'tests/bench/bare-server.ts',
    { ...env, PORT: String(port) },
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
export async function measured(target: Case, cpuMs: () => number, seconds: number): Promise<Run> {
  const before = cpuMs();
  const result = await load(target.url, target.senders, seconds);
  return { result, cpuUs: ((cpuMs() - before) * 1000) / Math.max(1, result['2xx']) };
}
