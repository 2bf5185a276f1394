import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The test tiers (docs/testing.md "Tiers"): `npm run test:fast` while working, `npm test` before every
// landing (CI runs it), `npm run test:deep` before resolving a change to a money path. A tier's steps run
// one after the other (side by side they took longer on two cores: both are CPU-bound); it stops at the
// first that fails, and prints each step's time and count of passed tests, and the total. A failed or
// skipped test fails the tier.

type TierName = 'fast' | 'full' | 'deep';
type Counts = { passed: number; failed: number; skipped: number };
type Step = {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Reads the step's report (in the run's report folder) once it has finished. */
  counts?: (dir: string) => Counts;
};

const npx = (...args: string[]) => ['npx', '--no-install', ...args];

/** Vitest's JSON report: every test's outcome (its own reporter prints the detail as it runs). */
function vitestStep(name: string, projects: string[], env: Record<string, string> = {}): Step {
  const report = `vitest-${projects.join('-').replace(/\W+/g, '_')}.json`;
  return {
    name,
    command: npx(
      'vitest',
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=REPORT_DIR/${report}`,
    ),
    env,
    counts: (dir) => {
      const json = JSON.parse(readFileSync(join(dir, report), 'utf8')) as {
        numPassedTests: number;
        numFailedTests: number;
        numPendingTests: number;
        numTodoTests: number;
      };
      return {
        passed: json.numPassedTests,
        failed: json.numFailedTests,
        skipped: json.numPendingTests + json.numTodoTests,
      };
    },
  };
}

const playwright: Step = {
  name: 'end to end (Playwright)',
  command: npx('playwright', 'test', '--reporter=list,json'),
  env: { PLAYWRIGHT_JSON_OUTPUT_FILE: 'REPORT_DIR/playwright.json' },
  counts: (dir) => {
    const { stats } = JSON.parse(readFileSync(join(dir, 'playwright.json'), 'utf8')) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    };
    return { passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped };
  },
};

const lint: Step = { name: 'lint (Biome)', command: npx('biome', 'check', '.') };
const typecheck: Step = { name: 'typecheck (tsc)', command: npx('tsc', '--noEmit', '-p', 'tsconfig.json') };
const build: Step = { name: 'build (Vite)', command: npx('vite', 'build') };
const TIERS: Record<TierName, Step[]> = {
  fast: [
    lint,
    typecheck,
    vitestStep('unit, API on SQLite (the fast set)', ['unit', 'api-sqlite'], { TEST_TIER: 'fast' }),
  ],
  full: [
    lint,
    typecheck,
    vitestStep('unit, API on both databases, simulator (bounded)', [
      'unit',
      'api-sqlite',
      'api-postgres',
      'sim-sqlite',
      'sim-postgres',
    ]),
    build,
    playwright,
  ],
  deep: [
    vitestStep('API on both databases (every file), simulator (full size)', ['api-*', 'sim-*'], {
      TEST_TIER: 'deep',
    }),
  ],
};

function runStep(step: Step, reportDir: string): Promise<number> {
  const [command, ...args] = step.command.map((part) => part.replace('REPORT_DIR', reportDir));
  const env = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([key, value]) => [key, value.replace('REPORT_DIR', reportDir)]),
  );
  return new Promise((resolve) => {
    const child = spawn(command as string, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const minutes = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

const countsText = (c: Counts) =>
  `${c.passed} passed${c.failed ? `, ${c.failed} failed` : ''}${c.skipped ? `, ${c.skipped} skipped` : ''}`;

async function main(): Promise<void> {
  const tier = (process.argv[2] ?? 'full') as TierName;
  const steps = TIERS[tier];
  if (!steps) throw new Error(`unknown tier ${tier}: fast, full or deep`);
  const reportDir = mkdtempSync(join(tmpdir(), 'platform-tier-'));
  const started = Date.now();
  const lines: string[] = [];
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  let failed = false;

  try {
    for (const step of steps) {
      const stepStarted = Date.now();
      const code = await runStep(step, reportDir);
      let counts = '';
      if (step.counts) {
        try {
          const c = step.counts(reportDir);
          total.passed += c.passed;
          total.failed += c.failed;
          total.skipped += c.skipped;
          counts = countsText(c);
        } catch {
          counts = 'no report';
        }
      }
      lines.push(`  ${step.name.padEnd(56)} ${minutes(Date.now() - stepStarted).padStart(12)}  ${counts}`);
      if (code !== 0) {
        failed = true;
        lines.push(`  ${step.name}: failed (exit ${code})`);
        break;
      }
    }
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
  console.log(`\nTest tier "${tier}" on Node ${process.version}:`);
  for (const line of lines) console.log(line);
  console.log(`  ${'in all'.padEnd(56)} ${minutes(Date.now() - started).padStart(12)}  ${countsText(total)}`);
  if (failed) console.log('  A step failed: the steps after it did not run.');
  process.exit(failed || total.failed > 0 || total.skipped > 0 ? 1 : 0);
}

await main();
