import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
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
//   stays. If SQLite itself rolls the outer transaction back, the same. A transaction of a failed
//   batch is dead: any further statement of it is refused. Were it to catch the error and write on,
//   its writes would run outside any transaction (autocommit) and stay, while its caller is told it
//   failed.
//
// One connection, one statement at a time, as Kysely's own SQLite driver (a mutex hands it over).
//
// The disk's flush off the event loop (`walFlush`, what the server uses): SQLite runs with
// synchronous=NORMAL, so its COMMIT only writes the WAL (no fsync), and this driver then fsyncs the
// WAL file on libuv's thread pool. Nothing is answered before that flush returns: a transaction's
// caller waits for the flush that followed its COMMIT, and a query of its own (a read too) waits for
// a flush that covers every write before it, so no answer rests on something a power cut could
// undo, as with synchronous=FULL. But the event loop no longer stops for the disk: the next batch runs
// while the last one's flush is on its way (with synchronous=FULL every request waited behind each
// COMMIT's fsync, up to 30 ms on a busy disk). SQLite syncs around each checkpoint, which the
// server makes on a thread of its own (checkpointer.ts).
// If a flush fails, what the disk holds is unknown: that batch fails, and so does every later call
// (PostgreSQL stops on a failed fsync for the same reason); a restart recovers from the WAL.
//
// After commit (`afterCommit`): work a transaction wants done only once it is durable (the live
// channel's announcements) waits on its commit here, in memory: run when its batch is on disk, dropped
// when it rolls back (to a savepoint taken before it, too) or its batch fails. SQLite has one process
// and one connection, so nothing outside this driver needs telling.

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
  /** The batch its transaction runs in; once that is no longer the open batch, the transaction is dead. */
  batch: Waiter[] | undefined;
  /** What its transaction runs once committed and durable (afterCommit). */
  afterCommit: (() => void)[] = [];
  /** How many of those there were when each open savepoint was taken: a rollback to it drops the rest. */
  readonly savepoints = new Map<string, number>();

  constructor(readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* this.driver.stream<R>(this, query);
  }
}

/** The WAL flushed by the driver (SQLite at synchronous=NORMAL); see the header. */
export type WalFlush = {
  /** The database's WAL file (the database's path and `-wal`). */
  path: string;
  /**
   * Flushes the open descriptor to the disk: fs.fsync on the thread pool by default. One that returns
   * nothing has flushed already (synchronously), and its batch is answered at once.
   */
  fsync?: (fd: number) => Promise<void> | undefined;
};

const fsyncOffLoop = (fd: number) =>
  new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));

export class GroupCommitDriver implements Driver {
  readonly #db: SQLite.Database;
  readonly #prepare: (sql: string) => SQLite.Statement;
  readonly #mutex = new Mutex();
  readonly #wal: WalFlush | undefined;
  readonly #checkpointer: { stop(): Promise<void> } | undefined;
  #walFd: number | undefined;
  /** Writes made (COMMITs, and statements of their own outside a batch), and how many are on disk. */
  #written = 0;
  #flushed = 0;
  /** The flush under way, and how many writes it covers. */
  #flushing: { upTo: number; done: Promise<void> } | undefined;
  /** A flush failed: what the disk holds is unknown, and nothing is answered any more. */
  #lost: unknown;
  /** The open outer transaction: who waits for its COMMIT. */
  #batch: Waiter[] | undefined;
  /** Who holds the connection now (between its acquire and its release or hand-over). */
  #holder: Connection | undefined;
  /** Why each failed batch failed, told to its transactions that try to go on. */
  readonly #failures = new WeakMap<Waiter[], unknown>();
  #flushScheduled = false;
  /** COMMITs so far, for tests and benchmarks. */
  commits = 0;
  /** Told of each COMMIT with how many holders (transactions, queries) waited on it: the metrics. */
  onCommit: ((batchSize: number) => void) | undefined;

  constructor(
    db: SQLite.Database,
    prepare: (sql: string) => SQLite.Statement,
    wal?: WalFlush,
    /** Checkpoints made elsewhere (checkpointer.ts), stopped before the connection closes. */
    checkpointer?: { stop(): Promise<void> },
  ) {
    this.#db = db;
    this.#prepare = prepare;
    this.#wal = wal;
    this.#checkpointer = checkpointer;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    if (this.#lost !== undefined) {
      this.#mutex.unlock();
      throw this.#lost;
    }
    this.#holder = new Connection(this);
    return this.#holder;
  }

  /**
   * Runs `work` once the transaction that holds the connection has committed and its batch is on disk;
   * never if that transaction rolls back or its batch fails. Call it from inside the transaction (a
   * Kysely transaction holds the connection from its BEGIN to its end, so the holder is the caller's).
   * A failure of `work` is the caller's to report: it cannot undo a commit.
   */
  afterCommit(work: () => void): void {
    const holder = this.#holder;
    if (!holder?.inTransaction) throw new Error('afterCommit needs an open transaction');
    holder.afterCommit.push(work);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#batch) {
      this.#run('begin immediate');
      this.#batch = [];
    }
    this.#run('savepoint group_work');
    const own = connection as Connection;
    own.inTransaction = true;
    own.batch = this.#batch;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    this.#refuseIfDead(own);
    this.#run('release group_work');
    own.inTransaction = false;
    const committed = own.afterCommit;
    own.afterCommit = [];
    await this.#handOver(own);
    for (const work of committed) work();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    // After a handed-over commit failed with its batch, nothing of this transaction is left to undo.
    if (!own.inTransaction) return;
    own.inTransaction = false;
    own.afterCommit = [];
    // Its batch failed under it: nothing of it is left to undo, and the open batch is someone else's.
    if (own.batch !== this.#batch) return;
    if (this.#db.inTransaction) {
      this.#run('rollback to group_work');
      this.#run('release group_work');
    } else {
      this.#failBatch(new Error('SQLite rolled back the open transaction'));
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#nested(connection, `savepoint ${quoted(name)}`);
    const own = connection as Connection;
    own.savepoints.set(name, own.afterCommit.length);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#nested(connection, `rollback to ${quoted(name)}`);
    const own = connection as Connection;
    own.afterCommit.length = own.savepoints.get(name) ?? own.afterCommit.length;
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#nested(connection, `release ${quoted(name)}`);
    (connection as Connection).savepoints.delete(name);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if ((connection as Connection).handedOver) return;
    if (this.#batch) this.#scheduleFlush();
    this.#holder = undefined;
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    await this.#flush();
    await this.#durable()?.catch(() => undefined);
    await this.#checkpointer?.stop();
    this.#db.close();
    if (this.#walFd !== undefined) closeQuietly(this.#walFd);
  }

  /** Runs one statement for a holder of the connection. */
  execute<R>(connection: Connection, query: CompiledQuery): Promise<QueryResult<R>> {
    let result: QueryResult<R>;
    try {
      this.#refuseIfDead(connection);
      result = this.#statement<R>(query);
    } catch (error) {
      if (this.#batch && !this.#db.inTransaction) this.#failBatch(error);
      return Promise.reject(error);
    }
    if (connection.inTransaction) return Promise.resolve(result);
    if (!this.#batch) {
      // A statement of its own outside a batch (autocommit): answered once it, and every write
      // before it that it could have read, is on disk.
      if (result.numAffectedRows !== undefined) this.#written += 1;
      const durable = this.#durable();
      return durable ? durable.then(() => result) : Promise.resolve(result);
    }
    // A query of its own ran inside the open batch: its answer waits until the batch is durable.
    return this.#handOver(connection).then(() => result);
  }

  async *stream<R>(connection: Connection, query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    this.#refuseIfDead(connection);
    // A stream reads row by row while holding the connection: outside a transaction, commit what is
    // open first, and wait for the disk, so it reads only what is durable.
    if (!connection.inTransaction) {
      this.#commitBatch();
      await this.#durable();
    }
    for (const row of this.#prepare(query.sql).iterate(...(query.parameters as unknown[])))
      yield { rows: [row as R] };
  }

  /**
   * Undefined when every write so far is on disk (or SQLite flushed it at its COMMIT, without
   * `walFlush`); otherwise a flush that covers every write so far, the one under way if it does.
   */
  #durable(): Promise<void> | undefined {
    if (this.#lost !== undefined) return Promise.reject(this.#lost);
    const wal = this.#wal;
    if (!wal || this.#flushed >= this.#written) return undefined;
    if (this.#flushing && this.#flushing.upTo >= this.#written) return this.#flushing.done;
    const upTo = this.#written;
    let done: Promise<void> | undefined;
    try {
      const fd = this.#walDescriptor(wal);
      // No WAL file yet: nothing has been written to one.
      done = fd === undefined ? undefined : (wal.fsync ?? fsyncOffLoop)(fd);
    } catch (error) {
      done = Promise.reject(error);
    }
    if (!done) {
      this.#flushed = Math.max(this.#flushed, upTo);
      return undefined;
    }
    const flushing = {
      upTo,
      done: done.then(
        () => {
          this.#flushed = Math.max(this.#flushed, upTo);
          if (this.#flushing === flushing) this.#flushing = undefined;
        },
        (error: unknown) => {
          this.#lost ??= error;
          if (this.#flushing === flushing) this.#flushing = undefined;
          throw error;
        },
      ),
    };
    this.#flushing = flushing;
    return flushing.done;
  }

  /** The WAL's descriptor, opened at the first flush; none while SQLite has not made the file. */
  #walDescriptor(wal: WalFlush): number | undefined {
    if (this.#walFd !== undefined) return this.#walFd;
    try {
      this.#walFd = openSync(wal.path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    // The file's name in its directory, made durable once, as SQLite does for a new journal.
    try {
      const dir = openSync(dirname(wal.path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeQuietly(dir);
      }
    } catch {
      // Directories cannot be opened for a flush everywhere (Windows); SQLite skips it there too.
    }
    return this.#walFd;
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
    this.#refuseIfDead(connection as Connection);
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
    this.#holder = undefined;
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
      this.#written += 1;
      this.onCommit?.(batch.length);
    } catch (error) {
      this.#failBatch(error);
      return;
    }
    this.#batch = undefined;
    const durable = this.#durable();
    if (!durable) {
      for (const waiter of batch) waiter.resolve();
      return;
    }
    durable.then(
      () => {
        for (const waiter of batch) waiter.resolve();
      },
      (error: unknown) => {
        for (const waiter of batch) waiter.reject(error);
      },
    );
  }

  /** Throws for a transaction whose batch failed: see the header. */
  #refuseIfDead(connection: Connection): void {
    if (!connection.inTransaction || connection.batch === this.#batch) return;
    throw new Error('this transaction failed with its batch; no further statement of it runs', {
      cause: connection.batch && this.#failures.get(connection.batch),
    });
  }

  #failBatch(error: unknown): void {
    const batch = this.#batch ?? [];
    this.#batch = undefined;
    this.#failures.set(batch, error);
    if (this.#db.inTransaction) this.#run('rollback');
    for (const waiter of batch) waiter.reject(error);
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closing is all that is left to do with it.
  }
}

/** Kysely's SQLite dialect (compiler, adapter, introspection) with the group-commit driver. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #driver: GroupCommitDriver;

  constructor(
    db: SQLite.Database,
    prepare: (sql: string) => SQLite.Statement,
    wal?: WalFlush,
    checkpointer?: { stop(): Promise<void> },
  ) {
    super({ database: db });
    this.#driver = new GroupCommitDriver(db, prepare, wal, checkpointer);
  }

  override createDriver(): Driver {
    return this.#driver;
  }

  get driver(): GroupCommitDriver {
    return this.#driver;
  }
}
