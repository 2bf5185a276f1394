import { fsyncSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect, Mutex, type WalFlush } from './group-commit.ts';
import SQLite from './sqlite.ts';

// The group-commit driver on a real SQLite file in WAL mode, checked from a second connection:
// whatever a caller has been answered must already be committed for everyone. Both ways to the disk:
// SQLite's own flush at each COMMIT (synchronous=FULL), and the server's, synchronous=NORMAL with the
// driver flushing the WAL on the thread pool before it answers.

type Tables = { rows: { id: number; owner: string | null } };

let dir: string | undefined;
let db: Kysely<Tables>;
let dialect: GroupCommitSqliteDialect;
let observer: SQLite.Database;

function open(mode: 'full' | 'wal-flush', fsync?: WalFlush['fsync']) {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  const file = join(dir, 'test.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(mode === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.exec(`create table owners (name text primary key);
    create table rows (id integer primary key, owner text references owners(name) deferrable initially deferred);
    insert into owners values ('ann');`);
  const wal = mode === 'wal-flush' ? { path: `${file}-wal`, ...(fsync ? { fsync } : {}) } : undefined;
  dialect = new GroupCommitSqliteDialect(sqlite, (text) => sqlite.prepare(text), wal);
  db = new Kysely<Tables>({ dialect });
  observer = new SQLite(file, { readonly: true });
}

afterEach(async () => {
  if (!dir) return;
  observer.close();
  await db.destroy().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const committed = () =>
  (observer.prepare('select id from rows order by id').all() as { id: number }[]).map((r) => r.id);

const insert = (id: number, owner: string | null = 'ann') =>
  db.transaction().execute(async (trx) => {
    await trx.insertInto('rows').values({ id, owner }).execute();
    return id;
  });

/** Whether a promise has settled after the event loop went round a few times. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe.each(['full', 'wal-flush'] as const)('group commit on SQLite (%s)', (mode) => {
  beforeEach(() => open(mode));

  it('answers each transaction only once another connection can read it, and shares the COMMITs', async () => {
    const seenAtAnswer: boolean[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        insert(i + 1).then((id) => {
          seenAtAnswer.push(committed().includes(id));
        }),
      ),
    );
    expect(seenAtAnswer).toEqual(Array(20).fill(true));
    expect(committed()).toHaveLength(20);
    // Twenty transactions ready together: far fewer COMMITs (disk flushes) than transactions.
    expect(dialect.driver.commits).toBeLessThanOrEqual(2);
  });

  it('rolls back a failed transaction alone; the rest of its batch commits', async () => {
    const results = await Promise.allSettled([
      insert(1),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('rows').values({ id: 2, owner: 'ann' }).execute();
        throw new Error('changed my mind');
      }),
      insert(3),
      insert(1), // the same key again: a constraint error in its statement
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(committed()).toEqual([1, 3]);
  });

  it('fails every transaction of a batch whose COMMIT fails, keeps none of it, then works again', async () => {
    // A deferred foreign key is checked at COMMIT: one bad row makes the batch's COMMIT fail.
    const results = await Promise.allSettled([insert(1), insert(2, 'nobody'), insert(3)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(committed()).toEqual([]);
    await expect(insert(4)).resolves.toBe(4);
    expect(committed()).toEqual([4]);
  });

  it('refuses every further statement of a transaction whose batch failed under it, and commits none of it', async () => {
    // RAISE(ROLLBACK) ends SQLite's whole transaction from inside one statement: the open batch fails.
    await sql`create trigger veto before insert on rows when new.owner is null
      begin select raise(rollback, 'vetoed'); end`.execute(db);
    const after: string[] = [];
    const results = await Promise.allSettled([
      insert(1),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('rows').values({ id: 2, owner: 'ann' }).execute();
        await expect(trx.insertInto('rows').values({ id: 3, owner: null }).execute()).rejects.toThrow(
          'vetoed',
        );
        // A caller that catches the error and writes on: outside the batch this would be autocommit.
        for (const write of [
          () => trx.insertInto('rows').values({ id: 4, owner: 'ann' }).execute(),
          () => trx.selectFrom('rows').select('id').execute(),
        ]) {
          await write().then(
            () => after.push('ran'),
            () => after.push('refused'),
          );
        }
        return 'done';
      }),
    ]);
    expect(after).toEqual(['refused', 'refused']);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(committed()).toEqual([]);
    // The driver serves the next transactions as usual.
    await expect(insert(5)).resolves.toBe(5);
    expect(committed()).toEqual([5]);
  });

  it('answers a query of its own made during an open batch only after that batch is durable', async () => {
    const transfer = insert(7);
    const read = sql<{ n: number }>`select count(*) as n from rows`.execute(db).then((result) => ({
      n: result.rows[0]?.n,
      committedThen: committed(),
    }));
    const [, seen] = await Promise.all([transfer, read]);
    expect(seen.n).toBe(1);
    expect(seen.committedThen).toEqual([7]);
  });

  it('runs after-commit work of committed transactions only, once each: never for a rollback, a rolled-back savepoint or a failed batch', async () => {
    const ran: string[] = [];
    const inserting = (id: number, owner: string | null, fail = false) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('rows').values({ id, owner }).execute();
        dialect.driver.afterCommit(() => ran.push(`after ${id}`));
        if (fail) throw new Error('rolled back on purpose');
      });
    const results = await Promise.allSettled([
      inserting(1, 'ann'),
      inserting(2, 'ann', true),
      inserting(3, 'ann'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(ran.sort()).toEqual(['after 1', 'after 3']);
    // A savepoint rolled back drops what was asked after it; what came before it stays.
    const trx = await db.startTransaction().execute();
    dialect.driver.afterCommit(() => ran.push('before the savepoint'));
    const inner = await trx.savepoint('inner').execute();
    dialect.driver.afterCommit(() => ran.push('inside the savepoint'));
    await inner.rollbackToSavepoint('inner').execute();
    await trx.commit().execute();
    expect(ran).toEqual(['after 1', 'after 3', 'before the savepoint']);
    // A batch whose COMMIT fails (a deferred foreign key): none of its work runs.
    const failed = await Promise.allSettled([inserting(4, 'ann'), inserting(5, 'nobody')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(ran).toEqual(['after 1', 'after 3', 'before the savepoint']);
    expect(() => dialect.driver.afterCommit(() => undefined)).toThrow(
      'afterCommit needs an open transaction',
    );
  });

  it('commits on its own a write made with no batch open (autocommit)', async () => {
    await db.insertInto('rows').values({ id: 9, owner: 'ann' }).execute();
    expect(committed()).toEqual([9]);
  });
});

describe('the WAL flushed off the event loop', () => {
  /** A real fsync, held until the test lets it return: the disk, slow on demand. */
  const held: (() => void)[] = [];
  const heldFsync = (fd: number) =>
    new Promise<void>((resolve, reject) => {
      held.push(() => {
        try {
          fsyncSync(fd);
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
  const release = () => held.shift()?.();
  afterEach(() => {
    while (held.length > 0) release();
  });

  it('answers a transaction only after the flush that followed its COMMIT, and keeps serving meanwhile', async () => {
    open('wal-flush', heldFsync);
    const first = insert(1);
    await settled(first);
    // Committed (another connection reads it) but not yet on disk: not answered.
    expect(committed()).toEqual([1]);
    expect(await settled(first)).toBe(false);
    expect(held).toHaveLength(1);
    // The event loop is free while the disk works: the next transaction runs and commits.
    const second = insert(2);
    await settled(second);
    expect(committed()).toEqual([1, 2]);
    expect(held).toHaveLength(2);
    release();
    await expect(first).resolves.toBe(1);
    expect(await settled(second)).toBe(false);
    release();
    await expect(second).resolves.toBe(2);
  });

  it('answers a read of its own only once the writes before it are on disk', async () => {
    open('wal-flush', heldFsync);
    const write = insert(5);
    await settled(write);
    const read = sql<{ n: number }>`select count(*) as n from rows`.execute(db);
    expect(await settled(read)).toBe(false);
    release();
    expect((await read).rows[0]?.n).toBe(1);
    await expect(write).resolves.toBe(5);
    // Nothing written since: a read is answered at once.
    const again = sql<{ n: number }>`select count(*) as n from rows`.execute(db);
    expect(await settled(again)).toBe(true);
    expect(held).toHaveLength(0);
  });

  it('flushes a write of its own outside a transaction before answering it', async () => {
    open('wal-flush', heldFsync);
    const write = db.insertInto('rows').values({ id: 9, owner: 'ann' }).execute();
    expect(await settled(write)).toBe(false);
    release();
    await write;
    expect(committed()).toEqual([9]);
  });

  it('runs after-commit work only once the COMMIT is on disk', async () => {
    open('wal-flush', heldFsync);
    const ran: number[] = [];
    const write = db.transaction().execute(async (trx) => {
      await trx.insertInto('rows').values({ id: 1, owner: 'ann' }).execute();
      dialect.driver.afterCommit(() => ran.push(1));
    });
    await settled(write);
    expect(committed()).toEqual([1]);
    expect(ran).toEqual([]);
    release();
    await write;
    expect(ran).toEqual([1]);
  });

  it('fails the batch whose flush failed, and every call after it: the disk can no longer be trusted', async () => {
    const failure = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    open('wal-flush', () => Promise.reject(failure));
    await expect(insert(1)).rejects.toBe(failure);
    await expect(insert(2)).rejects.toBe(failure);
    await expect(sql`select 1`.execute(db)).rejects.toBe(failure);
  });
});

describe('the connection mutex', () => {
  beforeEach(() => open('wal-flush'));

  it('hands the connection over in the order it was asked for, never to one arriving later', async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    const take = async (name: string) => {
      await mutex.lock();
      order.push(name);
    };
    await take('first');
    const waiting = [take('a'), take('b'), take('c')];
    mutex.unlock();
    // Arrives just as the connection comes free, before the waiters have run: it still queues.
    const late = take('late');
    for (let i = 0; i < 4; i++) {
      await Promise.resolve();
      await Promise.resolve();
      mutex.unlock();
    }
    await Promise.all([...waiting, late]);
    expect(order).toEqual(['first', 'a', 'b', 'c', 'late']);
  });

  it('serves 3,000 transactions queued at once, each once, in the order they asked', async () => {
    const ids = Array.from({ length: 3000 }, (_, i) => i + 1);
    const answered = await Promise.all(ids.map((id) => insert(id)));
    expect(answered).toEqual(ids);
    expect(committed()).toEqual(ids);
  });
});
