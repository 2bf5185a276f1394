import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createAdmin } from '../../src/server/modules/users/admins.service.ts';
import { adminQuery, TEST_DATABASE_URL } from './postgres.ts';
import { adminTwoFactorOffForTests } from './test-settings.ts';

// A real server on a real port with a database of its own: SQLite in a temporary folder, or a fresh
// PostgreSQL schema, chosen by TEST_DIALECT (the vitest project). Dropped again by stop().

export type TestServer = App & { baseUrl: string; stop: () => Promise<void> };

export const ADMIN = { email: 'root-admin@example.com', password: 'Root-Admin-Pass-2026' };

/**
 * The real server in this process, on the project's database (TEST_DIALECT), or on `dialect` for a
 * suite about one database's behaviour (row locks are PostgreSQL's).
 */
export async function startServer(
  env: Record<string, string> = {},
  dialect: 'sqlite' | 'postgres' = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite',
  /** ready: false leaves the start's warm-up (built.warmUp) to the test: readiness answers 503 until then. */
  { ready = true }: { ready?: boolean } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    CLIENT_DIR: join(dataDir, 'no-client'),
    // No clock-driven income run in a test unless the test asks for one (a run at 00:05 UTC would pay
    // dates the test did not choose).
    INCOME_SCHEDULE: 'off',
    INCOME_RETRY_MS: '0',
    SALARY_SCHEDULE: 'off',
    SALARY_RETRY_MS: '0',
    WEB3_POLL_MS: '0',
    WARM_UP: 'off',
    // Argon2id at its least: hundreds of members register here (the production cost is pinned by
    // src/server/modules/auth/passwords.test.ts, and production refuses this setting).
    PASSWORD_HASH_COST: 'test',
    ...(dialect === 'postgres' ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
    ...env,
  });
  const built = await buildApp(config);
  await createAdmin(built.db, { ...ADMIN, username: 'root_admin' });
  await adminTwoFactorOffForTests(built.db);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  if (ready) await built.warmUp();
  const { port } = built.app.server.address() as AddressInfo;
  return {
    ...built,
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      await built.app.close();
      if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
