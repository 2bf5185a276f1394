import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect, Mutex } from './group-commit.ts';
import SQLite from './sqlite.ts';

// The group-commit driver on a real SQLite file in WAL mode with synchronous=FULL, checked from a
// second connection: whatever a caller has been answered must already be committed for everyone.

type Tables = { rows: { id: number; owner: string | null } };

let dir: string;
let file: string;
let db: Kysely<Tables>;
let dialect: GroupCommitSqliteDialect;
let observer: SQLite.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  file = join(dir, 'test.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.exec(`create table owners (name text primary key);
    create table rows (id integer primary key, owner text references owners(name) deferrable initially deferred);
    insert into owners values ('ann');`);
  dialect = new GroupCommitSqliteDialect(sqlite, (text) => sqlite.prepare(text));
  db = new Kysely<Tables>({ dialect });
  observer = new SQLite(file, { readonly: true });
});

afterEach(async () => {
  observer.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const committed = () =>
  (observer.prepare('select id from rows order by id').all() as { id: number }[]).map((r) => r.id);

const insert = (id: number, owner: string | null = 'ann') =>
  db.transaction().execute(async (trx) => {
    await trx.insertInto('rows').values({ id, owner }).execute();
    return id;
  });

describe('group commit on SQLite', () => {
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

  it('commits on its own a write made with no batch open (autocommit)', async () => {
    await db.insertInto('rows').values({ id: 9, owner: 'ann' }).execute();
    expect(committed()).toEqual([9]);
  });
});

describe('the connection mutex', () => {
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
