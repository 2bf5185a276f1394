import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { restoreBackup } from '../db/backup.ts';
import { fromCallerCwd } from './caller-cwd.ts';

// npm run restore -- --from BACKUP [--data-dir DIR] [--force]
// Puts a backup made by `npm run backup` into DATA_DIR (default the server's). Refuses a non-empty
// DATA_DIR unless --force, a database a running server holds, and any file whose checksum differs from
// the manifest; checks the restored database with SQLite's integrity_check. Start the server after it.

const usage = 'usage: npm run restore -- --from BACKUP_DIR [--data-dir DIR] [--force]';
let values: { from?: string; 'data-dir'?: string; force?: boolean };
try {
  ({ values } = parseArgs({
    options: { from: { type: 'string' }, 'data-dir': { type: 'string' }, force: { type: 'boolean' } },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (!values.from) {
  console.error(usage);
  process.exit(2);
}

try {
  const config = loadConfig();
  if (config.databaseUrl)
    throw new Error(
      'DATABASE_URL is set: this server keeps its data in PostgreSQL. Restore it with pg_restore --clean --if-exists from a pg_dump -Fc file, and put DATA_DIR’s files back beside it; see docs/deployment.md "Backup and restore".',
    );
  const from = fromCallerCwd(values.from);
  const dataDir = values['data-dir'] ? fromCallerCwd(values['data-dir']) : config.dataDir;
  const manifest = await restoreBackup({ from, dataDir, force: values.force === true });
  const { counts, migration } = manifest.database;
  console.log(`Restored ${from} (made ${manifest.created_at}) into ${dataDir}`);
  console.log(
    `  checksums match, integrity_check ok; migration ${migration}, ${counts.users} users, ${counts.ledger_transfers} ledger transfers`,
  );
  console.log('  Start the server, then check GET /api/v1/ledger/reconciliation as an admin.');
} catch (error) {
  console.error(`restore refused: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
