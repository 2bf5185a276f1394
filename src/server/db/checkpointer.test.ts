import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../tests/helpers/server-process.ts';
import { AUTOCHECKPOINT_PAGES, WalCheckpointer } from './checkpointer.ts';
import { createDatabase } from './database.ts';
import SQLite from './sqlite.ts';

// SQLite's checkpoints on a worker thread (checkpointer.ts), on real files: what is copied into the
// database file, and by whom, is read off the file's size. 1,500 rows of 4 KB are past SQLite's own
// checkpoint line (1,000 pages), so the server's connection would have copied them at a COMMIT.

const ROWS = 1500;
const ROW_BYTES = 4096;

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  file = join(dir, 'platform.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fileBytes = () => statSync(file).size;

/** The server's connection as createDatabase opens it, with one table. */
function serverConnection(): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec('create table blobs (id integer primary key, body blob not null)');
  return sqlite;
}

function writeRows(sqlite: SQLite.Database): void {
  const insert = sqlite.prepare('insert into blobs (body) values (?)');
  for (let i = 0; i < ROWS; i++) insert.run(Buffer.alloc(ROW_BYTES, i % 251));
}

describe('checkpoints on a worker thread', () => {
  it('leaves the copying to the worker: the COMMITs past 1,000 pages copy nothing, the worker copies it all', async () => {
    const sqlite = serverConnection();
    // A worker that waits a minute between checkpoints: only its last one, at stop(), runs here.
    const checkpointer = new WalCheckpointer(sqlite, file, 60_000);
    const before = fileBytes();
    writeRows(sqlite);
    expect(fileBytes(), 'the database file after the COMMITs').toBe(before);

    await checkpointer.stop();
    expect(fileBytes(), 'the database file after the worker checkpointed').toBeGreaterThan(ROWS * ROW_BYTES);
    expect(checkpointer.failure).toBeUndefined();
    sqlite.close();
  });

  it('checkpoints a running server on its own, without being asked', async () => {
    const { db } = createDatabase({ dataDir: dir, databaseUrl: undefined, databaseSchema: undefined });
    try {
      await sql`create table blobs (id integer primary key, body blob not null)`.execute(db);
      for (let i = 0; i < ROWS; i++)
        await sql`insert into blobs (body) values (${Buffer.alloc(ROW_BYTES, i % 251)})`.execute(db);
      await waitFor('the rows in the database file', async () => fileBytes() > ROWS * ROW_BYTES, 15_000);
      // Everything is still there, read through the server's connection.
      const { rows } = await sql<{ n: number }>`select count(*) as n from blobs`.execute(db);
      expect(rows[0]?.n).toBe(ROWS);
    } finally {
      await db.destroy();
    }
  }, 30_000);

  // A command (npm run admin:create) opens the database, does its work and closes it as its last await.
  it('lets a command that opened the database exit when it is done, with status 0', () => {
    const script = `
      const { createDatabase } = await import('./src/server/db/database.ts');
      const { sql } = await import('kysely');
      const { db } = createDatabase({ dataDir: process.env.DATA_DIR, databaseUrl: undefined, databaseSchema: undefined });
      await sql\`create table done (id integer primary key)\`.execute(db);
      await db.destroy();
      console.log('closed');`;
    const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      env: { ...process.env, DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(ran.stdout.trim(), ran.stderr).toBe('closed');
    // 13 is Node's status for a top-level await that never settled.
    expect(ran.status, ran.stderr).toBe(0);
  }, 90_000);

  it("hands checkpoints back to the server's connection when the worker cannot run", async () => {
    const sqlite = serverConnection();
    // The worker's connection fails to open: no such folder.
    const checkpointer = new WalCheckpointer(sqlite, join(dir, 'missing', 'platform.sqlite'), 50);
    await waitFor("the worker's failure", async () => checkpointer.failure !== undefined, 15_000);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTOCHECKPOINT_PAGES);

    const before = fileBytes();
    writeRows(sqlite);
    // SQLite's own checkpoints at 1,000 pages copied most of the rows at their COMMITs.
    expect(fileBytes() - before).toBeGreaterThan(AUTOCHECKPOINT_PAGES * ROW_BYTES);
    await checkpointer.stop();
    sqlite.close();
  });
});
