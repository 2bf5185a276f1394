import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import SQLite from './sqlite.ts';

// Backup and restore of an embedded (SQLite) installation: the database through SQLite's online backup
// API, which copies one consistent snapshot while the server keeps writing (WAL), and DATA_DIR's other
// files (uploads, the VAPID and TOTP keys). A backup is a folder with a manifest of every file's size
// and sha256, so a restore can tell a damaged or altered copy before it puts anything in place.
// PostgreSQL is pg_dump's job (docs/deployment.md "Backup and restore").

export const DATABASE_FILE = 'platform.sqlite';
export const MANIFEST_FILE = 'manifest.json';
const MANIFEST_FORMAT = 1;

/** The database's companions: never copied (the backup copy is one self-contained file) and never left beside a restored one. */
const DATABASE_COMPANIONS = ['-wal', '-shm', '-journal'].map((suffix) => `${DATABASE_FILE}${suffix}`);

export type ManifestFile = { path: string; bytes: number; sha256: string };
export type Manifest = {
  format: number;
  created_at: string;
  source_data_dir: string;
  database: {
    file: string;
    /** The last migration applied: a restore onto an older server version would not know it. */
    migration: string | null;
    counts: { users: number; ledger_accounts: number; ledger_transfers: number; uploads: number };
    /** Sum of all ledger balances in cents: 0 when the books balance. */
    ledger_sum_cents: number;
  };
  files: ManifestFile[];
};

export const POSTGRES_BACKUP_HINT =
  'DATABASE_URL is set: this server keeps its data in PostgreSQL. Back it up with pg_dump -Fc (and restore with pg_restore --clean --if-exists), and copy DATA_DIR (uploads, vapid-keys.json, totp-key) beside it; see docs/deployment.md "Backup and restore".';

const sha256Of = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });

const describeFile = async (root: string, path: string): Promise<ManifestFile> => ({
  path,
  bytes: (await stat(join(root, path))).size,
  sha256: await sha256Of(join(root, path)),
});

/** Temporary files (an upload or key being written) are half-written by definition. */
const isTemporary = (name: string) => name.endsWith('.tmp');

/** DATA_DIR's files that matter, relative, with '/' separators: everything but the database and temporaries. */
async function dataFilesOf(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(dataDir, path).split(sep).join('/');
      if (entry.isDirectory()) await walk(path);
      else if (!entry.isFile() || isTemporary(entry.name)) continue;
      else if (rel === DATABASE_FILE || DATABASE_COMPANIONS.includes(rel)) continue;
      else found.push(rel);
    }
  };
  await walk(dataDir);
  return found.sort();
}

function databaseFacts(path: string): Manifest['database'] {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) =>
      (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    const migration = db.prepare('select name from kysely_migration order by name desc limit 1').get() as
      | { name: string }
      | undefined;
    const sum = db.prepare('select coalesce(sum(balance_cents), 0) as cents from ledger_accounts').get() as {
      cents: number;
    };
    return {
      file: DATABASE_FILE,
      migration: migration?.name ?? null,
      counts: {
        users: count('users'),
        ledger_accounts: count('ledger_accounts'),
        ledger_transfers: count('ledger_transfers'),
        uploads: count('uploads'),
      },
      ledger_sum_cents: sum.cents,
    };
  } finally {
    db.close();
  }
}

function integrityOf(path: string): string {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

export const defaultBackupDir = (now = new Date()) =>
  join('backups', `platform-${now.toISOString().replace(/[:.]/g, '-')}`);

/**
 * Writes a backup of `dataDir` into the folder `out`, which must not exist. The folder appears only when
 * complete: everything is written under a temporary name beside it and renamed at the end.
 */
export async function createBackup(options: { dataDir: string; out: string }): Promise<Manifest> {
  const { dataDir, out } = options;
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source))
    throw new Error(`${dataDir} holds no database (${DATABASE_FILE}): nothing to back up`);
  if (existsSync(out))
    throw new Error(`${out} exists already: choose another --out (a backup never overwrites one)`);
  await mkdir(dirname(out), { recursive: true });
  const work = `${out}.partial-${randomBytes(4).toString('hex')}`;
  // The backup holds the keys: only its owner may read it.
  await mkdir(work, { mode: 0o700 });
  try {
    // Read-only: the backup never writes to the live database. The online backup restarts when the
    // server writes between two steps, so after the first step it copies all remaining pages in one
    // step, inside one read transaction: one snapshot, and writers are not blocked (WAL).
    const live = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      await live.backup(join(work, DATABASE_FILE), { progress: ({ totalPages }) => totalPages + 1 });
    } finally {
      live.close();
    }
    // The copy is a self-contained file: no -wal beside it to lose on the way.
    const copy = new SQLite(join(work, DATABASE_FILE));
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const integrity = integrityOf(join(work, DATABASE_FILE));
    if (integrity !== 'ok') throw new Error(`the copied database fails its integrity check: ${integrity}`);

    // After the database: a file the snapshot refers to was on disk before its row was committed
    // (uploads are written first), so it is here too; files newer than the snapshot come along unused.
    const files: ManifestFile[] = [await describeFile(work, DATABASE_FILE)];
    for (const path of await dataFilesOf(dataDir)) {
      const target = join(work, ...path.split('/'));
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      try {
        await copyFile(join(dataDir, ...path.split('/')), target);
      } catch (error) {
        // Removed between the listing and the copy (a failed upload's clean-up): it is not in the snapshot.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      files.push(await describeFile(work, path));
    }
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      created_at: new Date().toISOString(),
      source_data_dir: dataDir,
      database: databaseFacts(join(work, DATABASE_FILE)),
      files,
    };
    await writeFile(join(work, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await rename(work, out);
    return manifest;
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}

/** A manifest path must stay inside the backup and DATA_DIR: an altered manifest must not write elsewhere. */
const isSafePath = (path: string) =>
  typeof path === 'string' &&
  path !== '' &&
  !path.startsWith('/') &&
  !path.includes('\\') &&
  path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

async function readManifest(from: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(from, MANIFEST_FILE), 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(
      `${from} is not a backup: ${MANIFEST_FILE} is missing or unreadable (${(error as Error).message})`,
    );
  }
  if (manifest.format !== MANIFEST_FORMAT || !Array.isArray(manifest.files))
    throw new Error(
      `${from}/${MANIFEST_FILE} is not a manifest this version can read (format ${manifest.format})`,
    );
  const bad = manifest.files.find((file) => !isSafePath(file.path));
  if (bad) throw new Error(`${from}/${MANIFEST_FILE} names a path outside the backup: ${bad.path}`);
  if (!manifest.files.some((file) => file.path === DATABASE_FILE))
    throw new Error(`${from}/${MANIFEST_FILE} lists no ${DATABASE_FILE}`);
  return manifest;
}

/** Every listed file, with the size and sha256 the manifest says; the first difference is an error. */
async function verifyFiles(root: string, files: ManifestFile[], where: string): Promise<void> {
  for (const file of files) {
    const path = join(root, ...file.path.split('/'));
    if (!existsSync(path)) throw new Error(`checksum error: ${file.path} is missing from ${where}`);
    const actual = await describeFile(root, file.path);
    if (actual.bytes !== file.bytes || actual.sha256 !== file.sha256)
      throw new Error(
        `checksum error: ${file.path} in ${where} is not the file that was backed up (sha256 ${actual.sha256}, ${actual.bytes} bytes; the manifest says ${file.sha256}, ${file.bytes} bytes)`,
      );
  }
}

/**
 * True when another connection holds the database (a running server): in WAL mode every open
 * connection keeps a shared lock, so an exclusive lock is refused at once.
 */
export function databaseInUse(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new SQLite(path, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Puts the backup `from` into `dataDir`. Refuses a non-empty DATA_DIR unless `force`, and always a
 * database a server has open. Everything is checked (checksums, then SQLite's integrity check) in a
 * staging folder inside DATA_DIR before anything is moved into place; the database goes last, and any
 * -wal/-shm of an earlier database is removed first (SQLite would replay it onto the restored file).
 */
export async function restoreBackup(options: {
  from: string;
  dataDir: string;
  force: boolean;
}): Promise<Manifest> {
  const { from, dataDir, force } = options;
  const manifest = await readManifest(from);
  await verifyFiles(from, manifest.files, from);

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const present = await readdir(dataDir);
  if (present.length > 0 && !force)
    throw new Error(
      `${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', ...' : ''}): restore into an empty DATA_DIR, or add --force to replace its database and the backed-up files`,
    );
  if (databaseInUse(join(dataDir, DATABASE_FILE)))
    throw new Error(
      `${join(dataDir, DATABASE_FILE)} is open in another process (a running server?): stop it first`,
    );

  const staging = join(dataDir, `.restore-${randomBytes(4).toString('hex')}.tmp`);
  await mkdir(staging, { mode: 0o700 });
  try {
    for (const file of manifest.files) {
      const target = join(staging, ...file.path.split('/'));
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await copyFile(join(from, ...file.path.split('/')), target);
    }
    await verifyFiles(staging, manifest.files, 'the copy in DATA_DIR');
    const integrity = integrityOf(join(staging, DATABASE_FILE));
    if (integrity !== 'ok') throw new Error(`the restored database fails its integrity check: ${integrity}`);

    for (const file of manifest.files) {
      if (file.path === DATABASE_FILE) continue;
      const target = join(dataDir, ...file.path.split('/'));
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await rename(join(staging, ...file.path.split('/')), target);
    }
    for (const companion of DATABASE_COMPANIONS) await rm(join(dataDir, companion), { force: true });
    await rename(join(staging, DATABASE_FILE), join(dataDir, DATABASE_FILE));
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
