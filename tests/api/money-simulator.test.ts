import { describe, expect, it } from 'vitest';
import type { Defect } from '../sim/fault-plugin.ts';
import { generate, runOps, shrink, simulate } from '../sim/simulator.ts';

// The money simulator (docs/simulator.md) on this project's database: fixed seeds of 10,000 random
// operations (transfers, review holds and decisions, admin adjustments, crypto payments and their
// callbacks, withdrawals and their decisions, manual and on-chain deposits; invalid inputs, repeated
// Idempotency-Keys, concurrent requests, injected crashes and lost answers with their retries), the
// books checked after every step. A failure names the seed, the step
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
          'wd-request 201',
          'wd-request 400',
          'wd-request 422',
          'wd-decide 200',
          'wd-decide 409',
          'wd-cancel 200',
          'wd-cancel 409',
          'wd-payout 201',
          'dep-add 201',
          'dep-add 409',
          'dep-decide 200',
          'dep-decide 409',
          'dep-cancel 200',
          'chain-submit 201',
          'chain-submit 409',
          'chain-check 200',
          'chain-approve 200',
          'chain-approve 409',
          'chain-reject 200',
        ])
          expect(result.answers[answer] ?? 0, answer).toBeGreaterThan(0);
        expect(result.faults.injected).toBeGreaterThan(0);
        expect(result.faults.lostAnswers).toBeGreaterThan(0);
        expect(result.summary.credited).toBeGreaterThan(0);
        expect(result.summary.withdrawals_decided).toBeGreaterThan(0);
        expect(result.summary.manual_deposits_credited).toBeGreaterThan(0);
        expect(result.summary.chain_deposits_credited).toBeGreaterThan(0);
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
  const found: Record<Defect, RegExp> = {
    'unguarded-debit': /answered 500: .*ledger_accounts_available/,
    // Either the retry after a lost answer, or a client's own resend under the same key, meets it first.
    'no-key-record':
      /a retry after a lost 201 answered 20[01]|the key \S+ was answered with two different results/,
    'replay-blind': /a retry after a lost 201 answered 500|answered 500: .*idempotency_keys/,
    'status-backwards': /payment sim-\d+ is \w+, but the provider's answers since make it \w+/,
    'withdrawal-decided-twice': /withdrawal [\w-]+ was decided twice: approved, then cancelled/,
    'deposit-credited-twice':
      /on-chain deposit [\w-]+ was credited twice \(approved again\)|on-chain deposit [\w-]+ was credited, and is now rejected/,
  };
  // An on-chain credit needs the clock to pass 12 confirmations: the operations that move it stay.
  const shrunkAtMost: Partial<Record<Defect, number>> = { 'deposit-credited-twice': 12 };
  for (const [defect, message] of Object.entries(found) as [Defect, RegExp][]) {
    const most = shrunkAtMost[defect] ?? 3;
    it(
      `${defect}: found, and shrunk to at most ${most} operations that still fail`,
      async () => {
        // One operation at a time on PostgreSQL, so that each shrinking try replays the same run.
        const maxConcurrency = dialect === 'sqlite' ? 4 : 1;
        const options = { seed: 1, ops: 10_000, dialect, defect, maxConcurrency } as const;
        const result = await simulate(options);
        expect(result.failure?.message).toMatch(message);
        const ops = generate(options.seed, (result.failure?.opIndex ?? 0) + 1, {
          members: 6,
          maxConcurrency,
        });
        const shortest = await shrink(options, ops, 40);
        expect(shortest.length).toBeLessThanOrEqual(most);
        expect((await runOps(options, shortest)).failure?.message).toMatch(message);
      },
      RUN_MS,
    );
  }
});
