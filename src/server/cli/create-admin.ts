import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createAdmin } from '../modules/users/admins.service.ts';

// npm run admin:create -- --email ops@example.com [--password '...'] [--username ops] [--name 'Ops Team']
// Uses the same DATA_DIR / DATABASE_URL as the server. Without --password one is generated and printed once.

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    username: { type: 'string' },
    name: { type: 'string' },
  },
});
if (!values.email) {
  console.error(
    "usage: npm run admin:create -- --email ADDRESS [--password PASSWORD] [--username NAME] [--name 'FULL NAME']",
  );
  process.exit(2);
}

const config = loadConfig();
const { db, dialect } = createDatabase(config);
try {
  await migrateToLatest(db, dialect === 'postgres' ? config.databaseSchema : undefined);
  const { admin, password, generated } = await createAdmin(db, {
    email: values.email,
    password: values.password,
    username: values.username,
    fullname: values.name,
  });
  console.log(`Created admin ${admin.email} (username ${admin.username}).`);
  if (generated) console.log(`Generated password, shown this once: ${password}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
