import { parseArgs } from 'node:util';
import type { Defect } from './fault-plugin.ts';
import { generate, runOps, shrink, simulate } from './simulator.ts';

// npm run simulate -- --seed N --ops M [--db sqlite|postgres] [--concurrency C] [--progress-seconds S]
// Prints what the run did and how fast; a failing run prints its seed, step and the shortest list of
// operations it shrank to, and exits 1.

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    ops: { type: 'string', default: '10000' },
    db: { type: 'string', default: 'sqlite' },
    concurrency: { type: 'string', default: '4' },
    'shrink-budget': { type: 'string', default: '200' },
    defect: { type: 'string' },
    'progress-seconds': { type: 'string', default: '10' },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const dialect = values.db === 'postgres' ? 'postgres' : 'sqlite';
const options = {
  seed,
  ops: Number(values.ops),
  dialect,
  maxConcurrency: Number(values.concurrency),
  defect: values.defect as Defect | undefined,
} as const;

const started = performance.now();
// A long run says how far it is, on standard error (standard output stays one JSON report).
const progress = (done: { ops: number; steps: number; checks: number; statements: number }) => {
  const elapsed = (performance.now() - started) / 1000;
  console.error(
    `${elapsed.toFixed(0)} s: ${done.ops} of ${options.ops} operations (${Math.round(done.ops / elapsed)}/s), ${done.steps} steps checked, ${done.statements} statements, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`,
  );
};
const result = await simulate({
  ...options,
  progress,
  progressEveryMs: Number(values['progress-seconds']) * 1000,
});
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify(
    {
      seed,
      db: dialect,
      ops: result.failure ? result.failure.opIndex + 1 : result.ops,
      steps: result.steps,
      invariant_checks: result.checks,
      full_checks: result.fullChecks,
      statements: result.statements,
      seconds: Number(seconds.toFixed(1)),
      ops_per_second: Math.round((result.failure ? result.failure.opIndex + 1 : result.ops) / seconds),
      faults: result.faults,
      answers: result.answers,
      digest: result.digest,
    },
    null,
    2,
  ),
);
if (result.failure) {
  console.log(
    `FAILED seed ${seed} at step ${result.failure.step} (operation ${result.failure.opIndex}): ${result.failure.message}`,
  );
  const ops = generate(seed, result.failure.opIndex + 1, {
    members: 6,
    maxConcurrency: options.maxConcurrency,
  });
  const shortest = await shrink(options, ops, Number(values['shrink-budget']));
  const replay = await runOps(options, shortest);
  console.log(`shrunk to ${shortest.length} operations (${replay.failure?.message ?? 'no longer fails'}):`);
  for (const op of shortest) console.log(JSON.stringify(op));
  process.exitCode = 1;
}
