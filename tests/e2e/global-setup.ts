import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import { adminTwoFactorOffForTests } from '../helpers/test-settings.ts';

// Runs once the run's server has started (Playwright starts its web servers first), so the database
// exists and is migrated: the run's admins sign in with a password alone, as on every test server
// (tests/helpers/test-settings.ts). admin-two-factor.spec.ts puts the default back for its own test.
export default async function globalSetup() {
  const { db } = createDatabase({ dataDir: E2E_DATA_DIR, databaseUrl: undefined, databaseSchema: undefined });
  try {
    await adminTwoFactorOffForTests(db);
  } finally {
    await db.destroy();
  }
}
