import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { createDatabase, type Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { ensureFirstAdmin } from './admins.service.ts';

// Several servers starting at once on a new database each make sure the first admin exists: the one
// that loses the race must start all the same. Found by tests/api/rewards-processes.test.ts, where two
// processes started together and one exited with "an account with … exists already": the other
// instance's admin was committed between this one's look-up of the root admin and createAdmin's own
// look-up of the e-mail, and that refusal was not taken for the lost race.

const env = { adminEmail: 'race-admin@example.com', adminPassword: 'Race-Admin-Pass-2026' };
let dir: string | undefined;
let db: Db | undefined;
let other: Db | undefined;
afterEach(async () => {
  await db?.destroy();
  await other?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `meanwhile` once, after the first query's answer and before the caller sees it. */
const afterFirstQuery = (meanwhile: () => Promise<void>): KyselyPlugin => {
  let done = false;
  return {
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (!done) {
        done = true;
        await meanwhile();
      }
      return args.result;
    },
  };
};

it('starts when another instance creates the first admin between the look-up and the insert', async () => {
  dir = mkdtempSync(join(tmpdir(), 'first-admin-'));
  db = createDatabase({ databaseUrl: undefined, databaseSchema: undefined, dataDir: dir }).db;
  await migrateToLatest(db);
  // A second instance: its own connection to the same database file.
  const second = createDatabase({ databaseUrl: undefined, databaseSchema: undefined, dataDir: dir }).db;
  other = second;
  const lines: string[] = [];
  // This instance finds no admin; before it goes on, the other instance creates it.
  const late = db.withPlugin(
    afterFirstQuery(() => ensureFirstAdmin(second, env, (line) => lines.push(line))),
  );
  await expect(ensureFirstAdmin(late, env, () => {})).resolves.toBeUndefined();
  expect(lines).toEqual([`Created the first admin: ${env.adminEmail}`]);
  const admins = await db.selectFrom('users').select('email').where('role', '=', 'admin').execute();
  expect(admins).toEqual([{ email: env.adminEmail }]);
});
