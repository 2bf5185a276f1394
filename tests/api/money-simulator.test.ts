import { describe, expect, it } from 'vitest';
import type { Defect } from '../sim/fault-plugin.ts';
import { generate, type Op, runOps, shrink, simulate } from '../sim/simulator.ts';

// The money simulator (docs/simulator.md) on this project's database: fixed seeds of 10,000 random
// operations (transfers, review holds and decisions, admin adjustments, crypto payments and their
// callbacks, withdrawals and their decisions, manual and on-chain deposits, top-ups, activation codes,
// daily income runs and catch-ups, reward claims, salary runs and CTO payments; invalid inputs, repeated Idempotency-Keys, concurrent requests,
// injected crashes, dropped processes and lost answers with their retries), the books checked after
// every step. A failure names the seed, the step
// and the broken rule; `npm run simulate -- --seed N` replays it and shrinks it.

const dialect = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
// The size (docs/testing.md "Tiers"): every landing runs both seeds at 3,000 operations, which reach every
// answer and every kind of payment the checks below ask for, and the planted defects on SQLite;
// `npm run test:deep` (SIM_SIZE=full) runs 10,000 operations a seed and the defects on both databases.
const full = process.env.SIM_SIZE === 'full';
const SEED_OPS = full ? 10_000 : 3_000;
// A bound on a hung run, not a speed test: a seed takes 20-150 s here, depending on the machine's load.
const RUN_MS = 420_000;

describe('money simulator', () => {
  /** One operation of a hand-written run: alone in its step, one second after the last, no fault. */
  const op = (extra: Partial<Op>) =>
    ({ join: false, delay: 0, advanceMs: 1_000, key: undefined, fault: undefined, ...extra }) as Op;

  for (const seed of [101, 202]) {
    it(
      `seed ${seed}: ${SEED_OPS.toLocaleString('en-US')} operations, and every step leaves the books as the answers say`,
      async () => {
        const result = await simulate({ seed, ops: SEED_OPS, dialect });
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
          'wd-roi 201',
          'wd-roi 404',
          'wd-roi 422',
          'wd-principal 201',
          'wd-principal 404',
          'wd-principal 422',
          'wd-compound 201',
          'wd-compound 400',
          'wd-compound-amount 200',
          'wd-compound-amount 409',
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
          'reward-claim 201',
          'reward-claim 409',
          'reward-claim 422',
          'reward-carry 200',
          'reward-carry 422',
          'salary-run 200',
          'salary-run 400',
          'salary-catchup 200',
          'cto-pay 201',
          'cto-pay 409',
          'cto-pay 422',
          'cto-exclude 200',
        ])
          expect(result.answers[answer] ?? 0, answer).toBeGreaterThan(0);
        expect(result.fullChecks).toBeGreaterThan(0);
        expect(result.faults.injected).toBeGreaterThan(0);
        expect(result.faults.lostAnswers).toBeGreaterThan(0);
        // Processes were dropped mid-operation and the database reopened, and the books still held.
        expect(result.faults.reopened).toBeGreaterThan(0);
        expect(result.faults.inFlightAtDrop).toBeGreaterThan(0);
        expect(result.summary.credited).toBeGreaterThan(0);
        expect(result.summary.withdrawals_decided).toBeGreaterThan(0);
        // Every kind of withdrawal was held and decided: ROI and principal paid out, compounds invested.
        for (const made of [
          'roi_withdrawals',
          'roi_withdrawals_approved',
          'principal_withdrawals',
          'principal_withdrawals_approved',
          'compound_requests',
          'compounds_invested',
          'compound_changes',
        ])
          expect(result.summary[made] ?? 0, made).toBeGreaterThan(0);
        expect(result.summary.manual_deposits_credited).toBeGreaterThan(0);
        expect(result.summary.chain_deposits_credited).toBeGreaterThan(0);
        // Income was paid and checked: ROI, level and activation income, over many settled dates.
        for (const paid of ['roiPayments', 'levelPayments', 'activationPayments', 'codesRedeemed'])
          expect(result.summary[paid] ?? 0, paid).toBeGreaterThan(0);
        expect(result.summary.datesSettled).toBeGreaterThan(30);
        // Rewards, salaries and the CTO were paid and checked, not only refused.
        for (const paid of ['rewardsClaimed', 'carryForwards', 'salaryPayments', 'ctoPayments', 'ctoPayouts'])
          expect(result.summary[paid] ?? 0, paid).toBeGreaterThan(0);
        expect(result.summary.salaryMonthsSettled).toBeGreaterThan(3);
      },
      RUN_MS,
    );
  }

  it(
    'a process dropped mid-operation: its calls in flight fail, and their retries on the reopened database are answered once',
    async () => {
      const adjust = (member: number, key: string, extra: Partial<Op> = {}) =>
        ({
          kind: 'adjust',
          member,
          key,
          join: false,
          delay: 0,
          advanceMs: 1_000,
          fault: undefined,
          body: { wallet: 'business', direction: 'credit', amount: '10.00', reason: 'Simulated correction' },
          ...extra,
        }) as Op;
      // Two adjustments at once; the second drops the process at its first statement. The first one's
      // work is in flight with it (on SQLite, handed over to the group commit's open batch).
      const ops = [
        adjust(0, 'first'),
        adjust(1, 'second', { join: true, fault: { failBefore: 1, reopen: true } }),
        adjust(2, 'after'),
      ];
      const result = await runOps({ seed: 1, ops: ops.length, dialect, maxConcurrency: 4 }, ops);
      expect(result.failure).toBeUndefined();
      expect(result.faults.reopened).toBe(1);
      expect(result.faults.inFlightAtDrop).toBeGreaterThanOrEqual(dialect === 'sqlite' ? 2 : 1);
      // Each was answered 201 once; the books (checked after each step) hold each adjustment once.
      expect((result.answers['adjust 201'] ?? 0) + (result.answers['adjust 201 replayed'] ?? 0)).toBe(3);
      // On SQLite the first one's work had committed with the batch before the process went: its retry
      // is answered from the stored answer (on PostgreSQL it may have rolled back instead).
      if (dialect === 'sqlite') expect(result.faults.replayedAfterDrop).toBe(1);
    },
    RUN_MS,
  );

  it(
    'a process dropped at any statement of a salary run, alone: the run fails as the crash, not as an error of its own',
    async () => {
      // Alone, no batch is open: on SQLite the crash's ROLLBACK (sent in place of a sql template
      // statement) finds no transaction, and SQLite's refusal once reached the run as its answer (a 500)
      // instead of the crash it stands for. A million-operation run stopped there.
      let crashes = 0;
      for (let k = 1; k <= 40; k++) {
        const ops = [
          op({
            kind: 'salary-run',
            month: undefined,
            copies: 1,
            crashAt: k,
            fault: { failBefore: k, reopen: true },
          }),
        ];
        const result = await runOps({ seed: 1, ops: 1, dialect, maxConcurrency: 1 }, ops);
        expect(result.failure, `dropped before statement ${k}`).toBeUndefined();
        if (result.faults.reopened === 0) {
          // Past the run's last statement: it ran whole.
          expect(result.answers['salary-run 200'], `statement ${k}`).toBe(1);
          break;
        }
        expect(result.answers['salary-run crashed unseen'], `statement ${k}`).toBe(1);
        crashes += 1;
      }
      // Statement 3 is the one the refusal came from (a read of its own, outside any transaction).
      expect(crashes).toBeGreaterThanOrEqual(3);
    },
    RUN_MS,
  );

  it(
    'a status check that read an on-chain deposit before a rejection of the same step is not taken as its status',
    async () => {
      const hash = `0x${'ab'.repeat(32)}`;
      // A transfer from an address the member never saved: once confirmed, it waits for an admin.
      const ops = [
        op({
          kind: 'chain-submit',
          key: 'deposit',
          by: 0,
          hash,
          tx: {
            send: {
              from: 'stranger',
              to: 'deposit',
              token: 'usdt',
              success: true,
              cents: 5_000,
              dust: false,
              delay: 0,
            },
          },
          chainId: 56,
        }),
        op({ kind: 'chain-check', pick: 0, as: 'owner', by: 0, advanceMs: 600_000 }),
        // The member's page checks it while the admin rejects it: the check reads first (the rejection
        // is sent a few turns of the event loop later), and the rejection is learned first. Before the
        // mend this failed as the million-operation run did at operation 644,838: "on-chain deposit ...
        // is rejected, but the answers make it awaiting_admin".
        op({ kind: 'chain-check', pick: 0, as: 'owner', by: 0 }),
        op({
          kind: 'chain-reject',
          pick: 0,
          which: 'open',
          reason: 'Not our transfer',
          join: true,
          delay: 5,
        }),
        op({ kind: 'chain-check', pick: 0, as: 'owner', by: 0 }),
      ];
      const result = await runOps({ seed: 1, ops: ops.length, dialect, maxConcurrency: 2 }, ops);
      expect(result.failure).toBeUndefined();
      expect(result.answers['chain-check 200']).toBe(3);
      expect(result.answers['chain-reject 200']).toBe(1);
    },
    RUN_MS,
  );

  it(
    "a status poll that fails after storing the provider's status is polled again, and the model learns what it stored",
    async () => {
      // The provider's invoice reaches `finished` with no callback the service accepts (bad signatures);
      // then the member's page polls, and the poll fails before its statement k: before its commit
      // (nothing stored) or after it (finished stored and the wallet credited, the answer lost). The page
      // polls again either way, without a key; the books must show one credit, which the model learned.
      const advance = op({ kind: 'pay-advance', pick: 0, roll: 0, badSignature: true });
      // Every statement of the poll in turn, until k is past its last (14 statements here; only the
      // last comes after the commit, and before this was mended it left the model one credit behind).
      let statements = 0;
      for (let k = 1; k <= 40; k++) {
        const ops = [
          op({
            kind: 'pay-create',
            by: 0,
            key: 'invoice',
            body: { price_amount: '25.00', price_currency: 'usd', pay_currency: 'usdtbsc' },
          }),
          advance,
          advance,
          advance,
          advance,
          op({ kind: 'pay-poll', pick: 0, asOwner: true, back: 0, fault: { failBefore: k } }),
        ];
        const result = await runOps({ seed: 1, ops: ops.length, dialect, maxConcurrency: 1 }, ops);
        expect(result.failure, `failure before statement ${k}`).toBeUndefined();
        expect(result.summary.credited, `statement ${k}`).toBe(1);
        if (result.faults.injected === 0) break;
        statements = k;
        expect(result.answers['pay-poll 200'], `statement ${k}`).toBe(1);
      }
      expect(statements).toBeGreaterThanOrEqual(10);
    },
    RUN_MS,
  );

  // On PostgreSQL, operations in flight together interleave as the server's scheduling goes, not only
  // as the seed says: the run is the same one operation at a time. The generator and the model are the
  // same code on both databases: every landing checks it on SQLite, SIM_SIZE=full on PostgreSQL too.
  for (const seed of dialect === 'sqlite' || full ? [303] : [])
    it(
      'the same seed gives the same run: the same answers, operation for operation, and the same ledger',
      async () => {
        const options = {
          seed,
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
// On PostgreSQL under SIM_SIZE=full only (see the loop below).
const huntsDefects = dialect === 'sqlite' || full;
(huntsDefects ? describe : () => undefined)('money simulator finds deliberate defects', () => {
  // The seed whose default run finds it (seed 1 unless one finds it much sooner), what it is found as,
  // and how short the shrunk replay must be (none: a hold needs funds, a transfer above the review
  // threshold and two decisions, found a few hundred operations in; shrinking that many takes longer
  // than a test may, so the test only checks it is found).
  // tries: how many replays the shrinking may take (40 unless a defect needs more to get that short).
  const found: Record<Defect, { seed: number; message: RegExp; atMost?: number; tries?: number }> = {
    'unguarded-debit': { seed: 1, message: /answered 500: .*ledger_accounts_available/, atMost: 3 },
    // A request sent again under its key (after a lost answer, or by the client) runs the work again
    // (on PostgreSQL's one-statement transfer, a 422 when the money is gone).
    'no-key-record': {
      seed: 1,
      message: /a retry after a lost 20[01] answered (201|409|422)|answered with two different results/,
      atMost: 3,
    },
    // The repeat's insert of the key fails, and no stored answer is found to give instead.
    'replay-blind': {
      seed: 1,
      message: /a retry after a lost 201 answered (500|422)|answered 500: .*idempotency_keys/,
      atMost: 3,
    },
    'status-backwards': {
      seed: 1,
      message: /payment sim-\d+ is \w+, but the provider's answers since make it \w+/,
      atMost: 3,
    },
    // A request sent again under its key runs the work again: the key's record is not yet there to stop it.
    'key-outside-transaction': {
      seed: 1,
      message: /holds -?\d+ \(held \d+\), but the answers given add up to -?\d+/,
      atMost: 3,
    },
    // A second decision on a hold settles it again: its held amount goes below zero.
    'hold-settled-twice': {
      seed: 3,
      message: /decide-transfer answered 500: .*held_non_negative|settled twice/,
    },
    'balance-cache-skipped': { seed: 1, message: /the books do not balance/, atMost: 3 },
    'withdrawal-decided-twice': {
      seed: 1,
      message: /withdrawal [\w-]+ was decided twice: approved, then cancelled/,
      atMost: 3,
    },
    // An on-chain credit needs the clock to pass 12 confirmations: the operations that move it stay.
    // With the (chain, hash) claim gone too, the first double credit seed 1 meets is across paths.
    'deposit-credited-twice': {
      seed: 1,
      message:
        /on-chain deposit [\w-]+ was credited twice \(approved again\)|on-chain deposit [\w-]+ was credited, and is now rejected|the hash 0x[0-9a-f]+, already credited, was taken as a/,
      atMost: 12,
      // Found some 500 operations in (members prove their wallets first): 40 tries leave about 50.
      tries: 100,
    },
    // Found late in its run (a resumed or repeated date): replayed whole, not shrunk. A run resumed
    // without its "paid already" test pays a date's level income again, for an ROI payment already made
    // (seed 4 meets it at operation 3,840, run after run, since ids and codes come from the seed).
    'income-twice': {
      seed: 4,
      message: /level income \S+ was paid without its ROI payment/,
    },
    // Only where the sponsor tree is a line (seed 3's).
    'level-unqualified': {
      seed: 3,
      message: /paid \[.*\], but RULES.md's qualification rule pays \[.*\]/,
      atMost: 12,
    },
    'code-twice': { seed: 1, message: /the code \w+ was redeemed twice/, atMost: 3 },
    // A claim needs team business: the shrunk run keeps a downline's investment before the two claims.
    // Found some 380 operations in: 40 tries leave about 40.
    'reward-twice': { seed: 14, message: /the reward m\d's [\w ]+ was claimed twice/, atMost: 6, tries: 100 },
  };
  for (const [defect, { seed, message, atMost, tries = 40 }] of Object.entries(found) as [
    Defect,
    (typeof found)[Defect],
  ][]) {
    // Shrinking is the same code on either database; on PostgreSQL each of its tries migrates a fresh
    // schema (about a second), so forty tries a defect would make this file the slowest of the suite:
    // there the test checks the defect is found, and SQLite's checks the shrinking.
    // And under SIM_SIZE=full only: every landing checks that each defect is found, `npm run test:deep`
    // that the shrinker also cuts each found run down to its few operations (most of this file's time).
    const shrinks = atMost !== undefined && dialect === 'sqlite' && full;
    // income-twice shows only when a crash falls between two chunks of a run while the date is taken
    // over again; on PostgreSQL where that falls depends on the server's timing (seed 5, its seed then, found it in one
    // of three runs there), so its test is SQLite's, where the seed decides (docs/simulator.md).
    if (defect === 'income-twice' && dialect === 'postgres') continue;
    // Every landing hunts them on SQLite, where a seed decides the run; PostgreSQL's own guards (its
    // transfer statement, its row locks) are tested by the API files that run on it at every landing,
    // and its seeds above check its books step by step. SIM_SIZE=full hunts them there too.
    it(
      `${defect}: found by seed ${seed}${shrinks ? `, and shrunk to at most ${atMost} operations that still fail` : ''}`,
      async () => {
        // One operation at a time on PostgreSQL, so that a seed finds the same defect at the same step.
        const maxConcurrency = dialect === 'sqlite' ? 4 : 1;
        // On PostgreSQL without dropping the process: the defects are in the guards' SQL, and a dropped
        // process there makes the step at which a seed finds one depend on the server's timing.
        const options = {
          seed,
          ops: 10_000,
          dialect,
          defect,
          maxConcurrency,
          reopen: dialect === 'sqlite',
        } as const;
        const result = await simulate(options);
        expect(result.failure?.message).toMatch(message);
        // Found late in its run (no atMost): shrinking would replay hundreds of operations per try.
        if (!shrinks || atMost === undefined) return;
        const ops = generate(options.seed, (result.failure?.opIndex ?? 0) + 1, {
          members: 6,
          maxConcurrency,
        });
        const shortest = await shrink(options, ops, tries);
        expect(shortest.length).toBeLessThanOrEqual(atMost);
        expect((await runOps(options, shortest)).failure?.message).toMatch(message);
      },
      RUN_MS,
    );
  }
});
