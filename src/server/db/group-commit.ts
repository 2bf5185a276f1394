import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
} from 'kysely';
import type SQLite from './sqlite.ts';

// Group commit for SQLite. With synchronous=FULL every COMMIT waits for the disk (an fsync), and
// better-sqlite3 waits on the event loop's thread, so one commit per request caps a busy server at
// the disk's fsync rate, whatever the CPU could do. Here the transactions that are ready together
// share one COMMIT, as PostgreSQL's and TigerBeetle's group commit do:
//
// - A transaction runs inside one open outer transaction (BEGIN IMMEDIATE) as a SAVEPOINT. Its
//   commit RELEASEs the savepoint and hands the connection to the next transaction; its rollback
//   rolls back to the savepoint and touches nobody else's work.
// - Once the queued work has run (setImmediate), one COMMIT makes the batch durable, and only then
//   does any transaction of the batch return to its caller. An answer never rests on a write the disk
//   has not kept: a request is answered after its data survives a power cut, as before.
// - A query of its own while a batch is open runs inside the batch and returns when the batch is
//   durable too, so it never answers with something that could still vanish.
// - If the COMMIT fails (disk full, I/O error), every transaction of the batch fails; nothing of it
//   stays. If SQLite itself rolls the outer transaction back, the same.
//
// One connection, one statement at a time, as Kysely's own SQLite driver (a mutex hands it over).

type Waiter = { resolve: () => void; reject: (error: unknown) => void };

/**
 * One holder at a time, the others strictly in the order they asked: unlock() hands the connection to
 * the longest waiter (nobody arriving meanwhile overtakes it) and wakes only that one. Kysely's own
 * mutex, used here before, woke every waiter on each unlock, and each went back to waiting: with n
 * requests queued that is n wake-ups per statement, so a server that fell behind (the first seconds
 * after a start, a slow disk) slowed down the further behind it was.
 */
export class Mutex {
  #locked = false;
  #waiters: ((() => void) | undefined)[] = [];
  /** The next waiter's index: taking from the front of an array by shift() would copy it each time. */
  #head = 0;

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
    });
  }

  unlock(): void {
    const next = this.#waiters[this.#head];
    if (!next) {
      this.#locked = false;
      this.#waiters = [];
      this.#head = 0;
      return;
    }
    this.#waiters[this.#head] = undefined;
    this.#head += 1;
    if (this.#head >= 1024 && this.#head * 2 >= this.#waiters.length) {
      this.#waiters = this.#waiters.slice(this.#head);
      this.#head = 0;
    }
    // Still locked: the connection passes straight to the next holder.
    next();
  }
}

/** One holder's use of the single SQLite connection (a transaction, or a query of its own). */
class Connection implements DatabaseConnection {
  /** Inside a transaction (its savepoint is open). */
  inTransaction = false;
  /** Its work is in the open batch and the connection passed on: only the batch's COMMIT is awaited. */
  handedOver = false;

  constructor(readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* this.driver.stream<R>(this, query);
  }
}

export class GroupCommitDriver implements Driver {
  readonly #db: SQLite.Database;
  readonly #prepare: (sql: string) => SQLite.Statement;
  readonly #mutex = new Mutex();
  /** The open outer transaction: who waits for its COMMIT. */
  #batch: Waiter[] | undefined;
  #flushScheduled = false;
  /** COMMITs so far, for tests and benchmarks. */
  commits = 0;
  /** Told of each COMMIT with how many holders (transactions, queries) waited on it: the metrics. */
  onCommit: ((batchSize: number) => void) | undefined;

  constructor(db: SQLite.Database, prepare: (sql: string) => SQLite.Statement) {
    this.#db = db;
    this.#prepare = prepare;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return new Connection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#batch) {
      this.#run('begin immediate');
      this.#batch = [];
    }
    this.#run('savepoint group_work');
    (connection as Connection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    this.#run('release group_work');
    own.inTransaction = false;
    await this.#handOver(own);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    // After a handed-over commit failed with its batch, nothing of this transaction is left to undo.
    if (!own.inTransaction) return;
    own.inTransaction = false;
    if (this.#db.inTransaction) {
      this.#run('rollback to group_work');
      this.#run('release group_work');
    } else {
      this.#failBatch(new Error('SQLite rolled back the open transaction'));
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#nested(connection, `savepoint ${quoted(name)}`);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#nested(connection, `rollback to ${quoted(name)}`);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#nested(connection, `release ${quoted(name)}`);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if ((connection as Connection).handedOver) return;
    if (this.#batch) this.#scheduleFlush();
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    await this.#flush();
    this.#db.close();
  }

  /** Runs one statement for a holder of the connection. */
  execute<R>(connection: Connection, query: CompiledQuery): Promise<QueryResult<R>> {
    let result: QueryResult<R>;
    try {
      result = this.#statement<R>(query);
    } catch (error) {
      if (this.#batch && !this.#db.inTransaction) this.#failBatch(error);
      return Promise.reject(error);
    }
    if (connection.inTransaction || !this.#batch) return Promise.resolve(result);
    // A query of its own ran inside the open batch: its answer waits until the batch is durable.
    return this.#handOver(connection).then(() => result);
  }

  async *stream<R>(connection: Connection, query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // A stream reads row by row while holding the connection: outside a transaction, commit what is
    // open first, so it reads only what is durable.
    if (!connection.inTransaction) this.#commitBatch();
    for (const row of this.#prepare(query.sql).iterate(...(query.parameters as unknown[])))
      yield { rows: [row as R] };
  }

  #statement<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.#prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(...parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  #run(sql: string): void {
    this.#prepare(sql).run();
  }

  #nested(connection: DatabaseConnection, sql: string): void {
    if (!(connection as Connection).inTransaction) throw new Error('a savepoint needs a transaction');
    this.#db.exec(sql);
  }

  /** Puts the holder's work in the open batch's hands and passes the connection on. */
  #handOver(connection: Connection): Promise<void> {
    const batch = this.#batch;
    if (!batch) return Promise.resolve();
    connection.handedOver = true;
    const durable = new Promise<void>((resolve, reject) => {
      batch.push({ resolve, reject });
    });
    this.#scheduleFlush();
    this.#mutex.unlock();
    return durable;
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // After the work already queued for the connection: it joins this batch.
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    await this.#mutex.lock();
    this.#flushScheduled = false;
    try {
      this.#commitBatch();
    } finally {
      this.#mutex.unlock();
    }
  }

  /** COMMITs the open batch, by a holder of the connection; its waiters learn the outcome. */
  #commitBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    try {
      this.#run('commit');
      this.commits += 1;
      this.onCommit?.(batch.length);
    } catch (error) {
      this.#failBatch(error);
      return;
    }
    this.#batch = undefined;
    for (const waiter of batch) waiter.resolve();
  }

  #failBatch(error: unknown): void {
    const batch = this.#batch ?? [];
    this.#batch = undefined;
    if (this.#db.inTransaction) this.#run('rollback');
    for (const waiter of batch) waiter.reject(error);
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Kysely's SQLite dialect (compiler, adapter, introspection) with the group-commit driver. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #driver: GroupCommitDriver;

  constructor(db: SQLite.Database, prepare: (sql: string) => SQLite.Statement) {
    super({ database: db });
    this.#driver = new GroupCommitDriver(db, prepare);
  }

  override createDriver(): Driver {
    return this.#driver;
  }

  get driver(): GroupCommitDriver {
    return this.#driver;
  }
}
