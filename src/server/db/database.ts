import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresAdapter } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { WalCheckpointer } from './checkpointer.ts';
import { type GroupCommitDriver, GroupCommitSqliteDialect, type WalFlush } from './group-commit.ts';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.ts';
import type { Database } from './schema.ts';
import SQLite from './sqlite.ts';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

const PG_INT8 = 20;
/** Connections per server process; all are opened by the start's warm-up and kept (src/server/warm-up.ts). */
export const POSTGRES_POOL_SIZE = 10;

/** True on PostgreSQL, for the few places that send it one statement where SQLite runs several. */
export const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * One Kysely instance for either dialect; everything above this file is dialect-blind, except where
 * PostgreSQL saves round trips with one statement (isPostgres).
 */
export function createDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
  options: {
    /** SQLite: how the WAL is flushed (fs.fsync on the thread pool by default; see WalFlush). */
    walFsync?: WalFlush['fsync'];
    /**
     * SQLite: who checkpoints the WAL: a worker thread (the default; checkpointer.ts) or, `inline`,
     * SQLite itself in the COMMIT that fills the WAL (the simulator, whose steps use no threads).
     */
    checkpoints?: 'worker' | 'inline';
  } = {},
): {
  db: Db;
  dialect: Dialect;
  /** SQLite's group-commit driver (its batches are measured); none on PostgreSQL. */
  groupCommit?: GroupCommitDriver;
} {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: POSTGRES_POOL_SIZE,
      // Kept open when idle: a new connection parses and plans every statement again (the warm-up).
      min: POSTGRES_POOL_SIZE,
      // Cents fit a JavaScript number exactly (2^53); counts and sums come back as int8 too.
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === PG_INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
      },
      ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
    });
    withNamedStatements(pool);
    return {
      db: new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) }),
      dialect: 'postgres',
    };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'platform.sqlite');
  const sqlite = new SQLite(file);
  // WAL for concurrent readers. synchronous=NORMAL: a COMMIT writes the WAL without waiting for the
  // disk, and the group commit flushes the WAL off the event loop before anything is answered, so an
  // answered write still survives a power cut (group-commit.ts). The WAL is copied back into the
  // database file (checkpoints) on a worker thread, off the event loop too (checkpointer.ts).
  // Where the file system cannot hold a WAL, SQLite keeps its rollback journal: then synchronous=FULL,
  // and SQLite flushes at each COMMIT itself.
  const wal = sqlite.pragma('journal_mode = WAL', { simple: true }) === 'wal';
  sqlite.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const groupCommit = new GroupCommitSqliteDialect(
    sqlite,
    statementCache(sqlite),
    wal ? { path: `${file}-wal`, ...(options.walFsync ? { fsync: options.walFsync } : {}) } : undefined,
    wal && options.checkpoints !== 'inline' ? new WalCheckpointer(sqlite, file) : undefined,
  );
  return {
    db: new Kysely<Database>({ dialect: groupCommit }),
    dialect: 'sqlite',
    groupCommit: groupCommit.driver,
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; better-sqlite3 statements can be reused. The queries are few and
 * their SQL text fixed (values are bound), so a small cache by text saves the parse on nearly every
 * call. One connection runs one statement at a time, so a cached statement is never used twice at once.
 */
function statementCache(sqlite: SQLite.Database): (sql: string) => SQLite.Statement {
  const cache = new Map<string, SQLite.Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
    }
    return statement;
  };
}

const NAMED_STATEMENTS = 1000;

/**
 * PostgreSQL's side of the statement cache: Kysely sends every query unnamed, so the server parses and
 * plans it again each time. Named, a statement is parsed and planned once per connection (pg keeps
 * track of which connection has which). The name comes from the SQL text, so one text is one name on
 * every connection. Statements with a `*` stay unnamed: a prepared `select *` fails once a migration
 * changes the table's columns (another instance may migrate while this one runs).
 */
function withNamedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  /** The name of a text, or none once NAMED_STATEMENTS texts have names (lists of ids vary in length). */
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_STATEMENTS) {
      name = `k${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // Only the (text, values) form Kysely uses, with values; BEGIN, COMMIT, DDL, callbacks, configs and
    // cursors pass through untouched.
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const name =
        args.length === 2 &&
        typeof text === 'string' &&
        Array.isArray(values) &&
        values.length > 0 &&
        !text.includes('*')
          ? nameOf(text)
          : undefined;
      return name ? query({ name, text, values }) : query(...args);
    }) as typeof client.query;
  });
}
