import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { postgresReachable } from './tests/helpers/postgres.ts';

// The Vitest projects behind the test tiers (docs/testing.md "Tiers"; tests/tiers.ts runs them):
// - unit: the tests beside the code;
// - api-sqlite: every API file, on SQLite (a file about several processes or PostgreSQL's own
//   behaviour starts PostgreSQL itself, and runs here only);
// - api-postgres: the API files whose code differs by database, again on PostgreSQL;
// - sim-sqlite, sim-postgres: the money simulator, at its bounded size, or its full size under
//   TEST_TIER=deep (where api-postgres also takes every API file).
// TEST_TIER=fast leaves out of api-sqlite the files that need more than the server in this process.
// PostgreSQL joins when it answers; with CI=true it must.
const withPostgres = process.env.CI === 'true' || (await postgresReachable());
if (!withPostgres) console.warn('PostgreSQL is not reachable: the API suites run on SQLite only.');
const tier = process.env.TEST_TIER ?? 'full';

const SIMULATOR = 'tests/api/money-simulator.test.ts';

/**
 * Files that start PostgreSQL themselves, whatever the project (several server processes on one
 * database, PostgreSQL's own behaviour): identical in both projects, so they run in api-sqlite only.
 */
export const PINNED_TO_POSTGRES = [
  'tests/api/cluster.test.ts',
  'tests/api/deploy-nginx.test.ts',
  'tests/api/income-processes.test.ts',
  'tests/api/lock-order.test.ts',
  'tests/api/migrations-own-schema.test.ts',
  'tests/api/rewards-processes.test.ts',
  'tests/api/salary-processes.test.ts',
  'tests/api/transfer-cost.test.ts',
];

/**
 * Files whose behaviour does not depend on the database (HTTP, headers, validation before any query,
 * configuration, files on disk): on SQLite only. Every file that moves money, takes a lock, maps a
 * database error or reads through dialect-specific SQL stays on both.
 */
export const DATABASE_INDEPENDENT = [
  'tests/api/api-path-checks.test.ts',
  'tests/api/bad-input.test.ts',
  'tests/api/csrf.test.ts',
  'tests/api/deploy-systemd.test.ts',
  'tests/api/errors.test.ts',
  'tests/api/health.test.ts',
  'tests/api/production-start.test.ts',
  'tests/api/qr-links.test.ts',
  'tests/api/rate-limit-ipv6.test.ts',
  'tests/api/request-log.test.ts',
  'tests/api/security-headers.test.ts',
  'tests/api/uploads-images.test.ts',
];

/**
 * Left out of test:fast: they start processes besides the server in the test's own (server processes,
 * a chain, nginx, PostgreSQL for a part of the file). npm test runs them.
 */
export const NOT_FAST = [
  ...PINNED_TO_POSTGRES,
  'tests/api/backup-restore.test.ts',
  'tests/api/production-start.test.ts',
  'tests/api/request-log.test.ts',
  'tests/api/restart-graceful.test.ts',
  'tests/api/restart-sigkill.test.ts',
  'tests/api/settings.test.ts',
  'tests/api/transfer-cost.test.ts',
  'tests/api/transfers-edge-cases.test.ts',
  'tests/api/web3-deposits.test.ts',
  'tests/api/withdrawals-crash.test.ts',
];

const api = (dialect: 'sqlite' | 'postgres') => ({
  test: {
    name: `api-${dialect}`,
    include: ['tests/api/**/*.test.ts'],
    exclude: [
      SIMULATOR,
      ...(dialect === 'sqlite' && tier === 'fast' ? NOT_FAST : []),
      ...(dialect === 'postgres' ? PINNED_TO_POSTGRES : []),
      ...(dialect === 'postgres' && tier !== 'deep' ? DATABASE_INDEPENDENT : []),
    ],
    env: { TEST_DIALECT: dialect },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file's servers and databases are its own and leave nothing behind, so the server's modules
    // are loaded once per worker instead of once per file (a third of the API files' time).
    isolate: false,
  },
});

const sim = (dialect: 'sqlite' | 'postgres') => ({
  test: {
    name: `sim-${dialect}`,
    include: [SIMULATOR],
    env: { TEST_DIALECT: dialect, SIM_SIZE: tier === 'deep' ? 'full' : 'bounded' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    isolate: false,
  },
});

/**
 * The simulator's files first: each is a few minutes in one worker, and started last (Vitest orders
 * projects by name) they would run on after every other file had finished.
 */
class SimulatorFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const simulator = (file: TestSpecification) => file.project.name.startsWith('sim-');
    return [...sorted.filter(simulator), ...sorted.filter((file) => !simulator(file))];
  }
}

export default defineConfig({
  test: {
    // Two files or more at a time. Each file's database is its own (a SQLite file, or a PostgreSQL
    // schema that the server's migrator and introspection alone see: src/server/db/postgres-dialect.ts).
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SimulatorFirst },
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      api('sqlite'),
      sim('sqlite'),
      ...(withPostgres ? [api('postgres'), sim('postgres')] : []),
    ],
  },
});
