import { defineConfig } from 'vitest/config';
import { postgresReachable } from './tests/helpers/postgres.ts';

// API suites run once per database. PostgreSQL joins when it answers; with CI=true it must.
const withPostgres = process.env.CI === 'true' || (await postgresReachable());
if (!withPostgres) console.warn('PostgreSQL is not reachable: the API suites run on SQLite only.');

const api = (dialect: 'sqlite' | 'postgres') => ({
  test: {
    name: `api-${dialect}`,
    include: ['tests/api/**/*.test.ts'],
    env: { TEST_DIALECT: dialect },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      api('sqlite'),
      ...(withPostgres ? [api('postgres')] : []),
    ],
  },
});
