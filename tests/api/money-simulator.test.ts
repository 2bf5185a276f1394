import { describe, expect, it } from 'vitest';
import { simulate } from '../sim/simulator.ts';

// The money simulator (docs/simulator.md) on this project's database: fixed seeds of 10,000 random
// operations (transfers, review holds and decisions, admin adjustments; invalid inputs, repeated
// Idempotency-Keys, concurrent requests, injected crashes and lost answers with their retries), the
// books checked after every step. A failure names the seed, the step and the broken rule;
// `npm run simulate -- --seed N` replays it and shrinks it.

const dialect = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const RUN_MS = 240_000;

describe('money simulator', () => {
  for (const seed of [101, 202]) {
    it(
      `seed ${seed}: 10,000 operations, and every step leaves the books as the answers say`,
      async () => {
        const result = await simulate({ seed, ops: 10_000, dialect });
        expect(result.failure, `seed ${seed}`).toBeUndefined();
        expect(result.checks).toBe(result.steps);
        // The run reached what it is meant to test, not only refusals.
        for (const answer of [
          'transfer 201',
          'transfer 201 replayed',
          'transfer 400',
          'transfer 422',
          'decide-transfer 200',
          'decide-transfer 409',
          'adjust 201',
          'adjust 201 replayed',
        ])
          expect(result.answers[answer] ?? 0, answer).toBeGreaterThan(0);
        expect(result.faults.injected).toBeGreaterThan(0);
        expect(result.faults.lostAnswers).toBeGreaterThan(0);
      },
      RUN_MS,
    );
  }

  // On PostgreSQL, operations in flight together interleave as the server's scheduling goes, not only
  // as the seed says: the run is the same one operation at a time.
  it(
    'the same seed gives the same run: the same answers, operation for operation, and the same ledger',
    async () => {
      const options = {
        seed: 303,
        ops: 2_000,
        dialect,
        maxConcurrency: dialect === 'sqlite' ? 4 : 1,
      } as const;
      const first = await simulate(options);
      const second = await simulate(options);
      expect(first.failure).toBeUndefined();
      expect(second.trace).toEqual(first.trace);
      expect(second.digest).toBe(first.digest);
      const other = await simulate({ ...options, seed: 304 });
      expect(other.digest).not.toBe(first.digest);
    },
    RUN_MS,
  );
});
