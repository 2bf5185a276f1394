import { describe, expect, it } from 'vitest';
import type { Defect } from '../sim/fault-plugin.ts';
import { generate, runOps, shrink, simulate } from '../sim/simulator.ts';

// The money simulator (docs/simulator.md) on this project's database: fixed seeds of 10,000 random
// operations (transfers, review holds and decisions, admin adjustments, crypto payments and their
// callbacks, top-ups, activation codes, daily income runs and catch-ups; invalid inputs, repeated Idempotency-Keys, concurrent requests, injected crashes and lost
// answers with their retries), the books checked after every step. A failure names the seed, the step
// and the broken rule; `npm run simulate -- --seed N` replays it and shrinks it.

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
          'pay-create 201',
          'pay-create 201 replayed',
          'pay-advance 200',
          'pay-advance 401',
          'pay-callback 200',
          'pay-poll 200',
          'topup 201',
          'topup 201 replayed',
          'topup 400',
          'topup 422',
          'code-create 201',
          'code-redeem 201',
          'code-redeem 422',
          'income-run 200',
          'income-run 400',
          'income-catchup 200',
        ])
          expect(result.answers[answer] ?? 0, answer).toBeGreaterThan(0);
        expect(result.faults.injected).toBeGreaterThan(0);
        expect(result.faults.lostAnswers).toBeGreaterThan(0);
        expect(result.summary.credited).toBeGreaterThan(0);
        // Income was paid and checked: ROI, level and activation income, over many settled dates.
        for (const paid of ['roiPayments', 'levelPayments', 'activationPayments', 'codesRedeemed'])
          expect(result.summary[paid] ?? 0, paid).toBeGreaterThan(0);
        expect(result.summary.datesSettled).toBeGreaterThan(30);
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

// Deliberate defects (fault-plugin.ts DEFECTS: one statement rewritten as it is sent, in the
// simulator's plugin only): each must be found within a default run, and shrink to a short replay.
describe('money simulator finds deliberate defects', () => {
  // The seed that finds each (docs/simulator.md), the ways it shows, and the length its failure shrinks
  // to within 40 tries (none: found late in its run, where each try would replay a thousand operations).
  const found: Record<Defect, { message: RegExp; seed: number; shrunk?: number }> = {
    'unguarded-debit': { message: /answered 500: .*ledger_accounts_available/, seed: 1, shrunk: 3 },
    'no-key-record': {
      message: /a retry after a lost 201 answered 201|the key \S+ was answered with two different results/,
      seed: 1,
      shrunk: 3,
    },
    'replay-blind': {
      message: /a retry after a lost 201 answered 500|answered 500: .*idempotency_keys/,
      seed: 1,
      shrunk: 3,
    },
    'status-backwards': {
      message: /payment sim-\d+ is \w+, but the provider's answers since make it \w+/,
      seed: 1,
      shrunk: 6,
    },
    'income-twice': {
      message:
        /level income \S+ was paid without its ROI payment|(:working|platform:income) holds -?\d+ .*but the answers given add up to/,
      seed: 5,
    },
    'level-unqualified': {
      message: /paid \[.*\], but RULES.md's qualification rule pays \[.*\]/,
      seed: 3,
      shrunk: 10,
    },
    'code-twice': { message: /the code \w+ was redeemed twice/, seed: 1, shrunk: 3 },
  };
  for (const [defect, { message, seed, shrunk }] of Object.entries(found) as [
    Defect,
    (typeof found)[Defect],
  ][]) {
    it(
      `${defect}: found by seed ${seed}${shrunk ? `, and shrunk to at most ${shrunk} operations that still fail` : ''}`,
      async () => {
        // One operation at a time on PostgreSQL, so that each shrinking try replays the same run.
        const maxConcurrency = dialect === 'sqlite' ? 4 : 1;
        const options = { seed, ops: 10_000, dialect, defect, maxConcurrency } as const;
        const result = await simulate(options);
        expect(result.failure?.message).toMatch(message);
        if (!shrunk) return;
        const ops = generate(options.seed, (result.failure?.opIndex ?? 0) + 1, {
          members: 6,
          maxConcurrency,
        });
        const shortest = await shrink(options, ops, 40);
        expect(shortest.length).toBeLessThanOrEqual(shrunk);
        expect((await runOps(options, shortest)).failure?.message).toMatch(message);
      },
      RUN_MS,
    );
  }
});
