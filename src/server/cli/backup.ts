import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createBackup, defaultBackupDir, POSTGRES_BACKUP_HINT } from '../db/backup.ts';
import { fromCallerCwd } from './caller-cwd.ts';

// npm run backup -- [--data-dir DIR] [--out DIR]
// A consistent copy of the SQLite database (online backup API: safe while the server runs) and of
// DATA_DIR's other files (uploads, VAPID and TOTP keys) into a new folder with a manifest of checksums.
// DATA_DIR defaults to the server's (DATA_DIR, else ./data); --out to backups/platform-<UTC time>.

let values: { 'data-dir'?: string; out?: string };
try {
  ({ values } = parseArgs({ options: { 'data-dir': { type: 'string' }, out: { type: 'string' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\nusage: npm run backup -- [--data-dir DIR] [--out DIR]`);
  process.exit(2);
}

try {
  const config = loadConfig();
  if (config.databaseUrl) throw new Error(POSTGRES_BACKUP_HINT);
  const dataDir = values['data-dir'] ? fromCallerCwd(values['data-dir']) : config.dataDir;
  const out = values.out ? fromCallerCwd(values.out) : resolve(defaultBackupDir());
  // Said before the copy starts: every write answered before this line is in the backup.
  console.log(`Backing up ${dataDir} into ${out} ...`);
  const manifest = await createBackup({ dataDir, out });
  const { counts, migration, ledger_sum_cents } = manifest.database;
  console.log(`Backed up ${dataDir} into ${out}`);
  console.log(
    `  database at migration ${migration}: ${counts.users} users, ${counts.ledger_accounts} ledger accounts, ${counts.ledger_transfers} ledger transfers (sum of balances ${ledger_sum_cents} cents), ${counts.uploads} uploads`,
  );
  console.log(`  ${manifest.files.length} files, checksums in ${out}/manifest.json`);
} catch (error) {
  console.error(`backup refused: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
