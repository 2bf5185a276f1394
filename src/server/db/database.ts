import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

const PG_INT8 = 20;

/** One Kysely instance for either dialect; everything above this file is dialect-blind. */
export function createDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): {
  db: Db;
  dialect: Dialect;
} {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      // Cents fit a JavaScript number exactly (2^53); counts and sums come back as int8 too.
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === PG_INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
      },
      ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const sqlite = new SQLite(join(config.dataDir, 'platform.sqlite'));
  // WAL for concurrent readers; synchronous=FULL so an answered write survives a power cut.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
  };
}
