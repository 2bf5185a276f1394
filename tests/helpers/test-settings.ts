import type { Db } from '../../src/server/db/database.ts';
import { writeSetting } from '../../src/server/modules/settings/settings.repository.ts';

/**
 * Admins must use two-factor sign-in by default (src/shared/settings.ts). Every test server (in the
 * test's process, a server process, the end-to-end run) turns that off here, and only here, as an admin
 * could on the Settings screen, so that a test signs its admin in with the password alone instead of
 * waiting for a fresh authenticator step per sign-in. The default itself, and a new admin's set-up at
 * first sign-in, are proven on a database without this row: tests/api/two-factor.test.ts and
 * tests/e2e/admin-two-factor.spec.ts.
 */
export async function adminTwoFactorOffForTests(db: Db): Promise<void> {
  await writeSetting(db, 'admin_two_factor_required', 'false', new Date().toISOString());
}

/** Back to the default (no row): what a deployment that never changed the setting has. */
export async function adminTwoFactorAsDefault(db: Db): Promise<void> {
  await db.deleteFrom('settings').where('name', '=', 'admin_two_factor_required').execute();
}
