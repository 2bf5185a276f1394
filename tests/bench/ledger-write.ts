import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../../src/server/db/database.ts';
import { newId } from '../../src/server/db/ids.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import SQLite from '../../src/server/db/sqlite.ts';

// The two references of the transfer bench, without the application around them: the same ledger
// write as POST /api/v1/transfer/touser (guarded debit and credit in account-id order, then the
// ledger row, in one transaction) in raw SQL on the drivers the server uses, each write durable when
// answered (SQLite: WAL, synchronous=FULL, a COMMIT and its fsync per transfer, the plain way, where
// the server shares its COMMITs and flushes off the event loop; PostgreSQL: a pool of 10).

export type Target =
  | { dialect: 'sqlite'; dataDir: string }
  | { dialect: 'postgres'; url: string; schema: string };

/** The members the references move money between: bench_0 ... bench_9, each with a business wallet. */
export const REFERENCE_MEMBERS = 10;
export const referenceMember = (i: number) => `bench_${i}`;
export const referenceAccount = (i: number) => `${referenceMember(i)}:business`;
const FUNDS_CENTS = 100_000_000;

export type Move = { debit: string; credit: string; amountCents: number; createdBy: string };

export type LedgerWriter = {
  /** One transfer in one transaction; false (and nothing written) when the debit account cannot cover it. */
  transfer: (move: Move) => Promise<boolean>;
  close: () => Promise<void>;
};

const DEBIT =
  'update ledger_accounts set balance_cents = balance_cents - ? where id = ? and (allow_negative = 1 or balance_cents - held_cents >= ?)';
const CREDIT = 'update ledger_accounts set balance_cents = balance_cents + ? where id = ?';
const INSERT = `insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase, pending_id,
  kind, reference, description, created_by, created_at) values (?, ?, ?, ?, 'single', null, 'transfer', ?, null, ?, ?)`;

/** PostgreSQL numbers its parameters. */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

/** The steps in the order the server takes its row locks: by account id. */
const inIdOrder = (move: Move) =>
  [
    { id: move.debit, debit: true },
    { id: move.credit, debit: false },
  ].sort((a, b) => (a.id < b.id ? -1 : 1));

const rowOf = (move: Move) => [
  newId(),
  move.debit,
  move.credit,
  move.amountCents,
  `transfer:${move.createdBy}`,
  move.createdBy,
  new Date().toISOString(),
];

/** A fresh database: the server's migrations, then the reference members, funded. */
export async function prepareReferenceDatabase(target: Target): Promise<void> {
  const { db } = createDatabase(
    target.dialect === 'sqlite'
      ? { dataDir: target.dataDir, databaseUrl: undefined, databaseSchema: undefined }
      : { dataDir: '', databaseUrl: target.url, databaseSchema: target.schema },
  );
  try {
    await migrateToLatest(db, target.dialect === 'postgres' ? target.schema : undefined);
    const now = new Date().toISOString();
    for (let i = 0; i < REFERENCE_MEMBERS; i++) {
      const id = referenceMember(i);
      await sql`insert into users (id, username, email, password_hash, role, is_active, fullname, phone,
        refferal_code, created_at, updated_at)
        values (${id}, ${id}, ${`${id}@example.com`}, 'none', 'user', 'active', ${id}, '+15550100200',
        ${`REF${i}`}, ${now}, ${now})`.execute(db);
      await sql`insert into ledger_accounts (id, user_id, code, balance_cents, held_cents, allow_negative, created_at)
        values (${referenceAccount(i)}, ${id}, 'business', ${FUNDS_CENTS}, 0, 0, ${now})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

export function openReferenceWriter(target: Target, poolSize = 10): LedgerWriter {
  return target.dialect === 'sqlite' ? sqliteWriter(target.dataDir) : postgresWriter(target, poolSize);
}

function sqliteWriter(dataDir: string): LedgerWriter {
  const db = new SQLite(join(dataDir, 'platform.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const debit = db.prepare(DEBIT);
  const credit = db.prepare(CREDIT);
  const insert = db.prepare(INSERT);
  class Insufficient extends Error {}
  const write = db.transaction((move: Move) => {
    for (const step of inIdOrder(move)) {
      if (!step.debit) credit.run(move.amountCents, step.id);
      else if (debit.run(move.amountCents, step.id, move.amountCents).changes !== 1) throw new Insufficient();
    }
    insert.run(...rowOf(move));
  });
  return {
    transfer: async (move) => {
      try {
        write(move);
        return true;
      } catch (error) {
        if (error instanceof Insufficient) return false;
        throw error;
      }
    },
    close: async () => {
      db.close();
    },
  };
}

function postgresWriter(target: { url: string; schema: string }, poolSize: number): LedgerWriter {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: poolSize,
    options: `-c search_path=${target.schema}`,
  });
  const [debit, credit, insert] = [DEBIT, CREDIT, INSERT].map(numbered) as [string, string, string];
  return {
    transfer: async (move) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        for (const step of inIdOrder(move)) {
          if (!step.debit) await client.query(credit, [move.amountCents, step.id]);
          else if (
            (await client.query(debit, [move.amountCents, step.id, move.amountCents])).rowCount !== 1
          ) {
            await client.query('rollback');
            return false;
          }
        }
        await client.query(insert, rowOf(move));
        await client.query('commit');
        return true;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export type LoopResult = { writes: number; perSecond: number; p50: number; p99: number };

/**
 * The storage limit: the write in a tight loop on the database, by `concurrency` loops at once (loop
 * k sends from member k to member k+1, as the HTTP runs do), for `seconds`. Latencies in ms.
 */
export async function writeLoop(
  writer: LedgerWriter,
  seconds: number,
  concurrency: number,
): Promise<LoopResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const loop = async (k: number) => {
    const i = k % REFERENCE_MEMBERS;
    const move = {
      debit: referenceAccount(i),
      credit: referenceAccount((i + 1) % REFERENCE_MEMBERS),
      amountCents: 1,
      createdBy: referenceMember(i),
    };
    while (performance.now() < until) {
      const t0 = performance.now();
      if (!(await writer.transfer(move))) throw new Error('a reference transfer was refused');
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, k) => loop(k)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { writes: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}
