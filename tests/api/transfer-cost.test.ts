import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, type Run } from '../bench/harness.ts';
import { measured, prepareRealEndpoint, startBareRoute, startRealServer } from '../bench/transfer-cases.ts';
import { postgresReachable } from '../helpers/postgres.ts';
import { freePort } from '../helpers/server-process.ts';

// The transfer endpoint's cost, guarded (docs/performance.md "The transfer endpoint's cost"). The real
// server and the bare route (the same ledger write in raw SQL behind a bare Fastify route), each in a
// process of its own on a fresh database, take the same short transfer load in turns, and each
// process's CPU time per answered transfer is read from /proc: CPU time, not wall time, so a machine
// busy with other tests slows both without failing this. The endpoint may cost at most LIMIT times
// what the bare route costs, each taken at its cheapest round: noise (a garbage collection, a
// checkpoint, a neighbour on the core) only ever adds CPU, so the cheapest round is the steadiest
// measure of a process's own cost. A change that makes every transfer do much more work (more
// statements, a slower hook) fails here, where a benchmark would only show it.

/**
 * The most the endpoint may cost per transfer, in bare-route transfers: the ratio measured on the
 * 2-core test machine (SQLite 2.2 to 2.6, PostgreSQL 2.5 to 3.2, docs/performance.md), with room for
 * the noise of a machine running other test files beside this one.
 */
const LIMIT = { sqlite: 3.0, postgres: 3.7 } as const;
const ROUNDS = 3;
const SECONDS = 1.5;

const dialects: ('sqlite' | 'postgres')[] =
  process.env.CI === 'true' || (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];

afterAll(cleanUp);

describe.each(dialects)('the transfer endpoint on %s', (dialect) => {
  it(`costs at most ${LIMIT[dialect]} times the bare route's CPU per transfer`, async () => {
    // Stopped at once: no load balancer waits to take it out of rotation.
    const server = await startRealServer(dialect, await freePort(), { SHUTDOWN_DELAY_MS: '0' });
    try {
      const real = await prepareRealEndpoint(server.base);
      const bare = await startBareRoute(dialect, await freePort());
      const costs = { endpoint: [] as number[], bare: [] as number[] };
      const rounds: string[] = [];
      const loads: Run['result'][] = [];
      try {
        // An unmeasured round each: new connections, and the bare route's code not yet optimised (the
        // server warms itself before it answers as ready; the bare route does not).
        loads.push((await measured(real.many, server.cpuMs, 2)).result);
        await measured(bare.many, bare.cpuMs, 2);
        for (let round = 0; round < ROUNDS; round++) {
          const endpoint = await measured(real.many, server.cpuMs, SECONDS);
          loads.push(endpoint.result);
          const reference = await measured(bare.many, bare.cpuMs, SECONDS);
          for (const run of [endpoint, reference]) {
            expect(run.result.non2xx, 'every transfer answered 201').toBe(0);
            expect(run.result['2xx']).toBeGreaterThan(100);
          }
          costs.endpoint.push(endpoint.cpuUs);
          costs.bare.push(reference.cpuUs);
          rounds.push(`${Math.round(endpoint.cpuUs)} µs against ${Math.round(reference.cpuUs)} µs`);
        }
      } finally {
        await bare.stop();
      }
      const ratio = Math.min(...costs.endpoint) / Math.min(...costs.bare);
      expect(
        ratio,
        `CPU per transfer, endpoint against bare route, by round: ${rounds.join('; ')}`,
      ).toBeLessThan(LIMIT[dialect]);
      // The load moved money and nothing else: every 201 is one transfer, and the books balance.
      expect(await real.check(loads)).toMatch(/^checked: .* reconciliation balanced$/);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
