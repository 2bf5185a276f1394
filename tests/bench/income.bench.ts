import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Db } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { DEFAULT_INCOME_OPTIONS, runIncomeDate } from '../../src/server/modules/income/income.service.ts';
import { reconcile } from '../../src/server/modules/wallets/ledger.service.ts';
import { addDays, dateOf } from '../../src/shared/dates.ts';

// npm run bench:income: the daily income run at scale (issue 15). Builds 100,000 active investments
// owned by 20,000 members in a sponsor tree more than 8 levels deep, pays one date and reports the
// time and the ledger rows written, then asks for the same date again (a completed date), and last
// forces a retry of the whole date (its run marked failed), which must find everything paid and pay
// nothing. On SQLite and on PostgreSQL (BENCH_DATABASE_URL, default the local test database).
//
// The tree: a chain of 3 members, then a 5-ary tree under the third, so every member above the
// leaves has 5 active direct members and qualifies for all 5 default ROI levels.

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 20_000);
const INVESTMENTS_PER_MEMBER = Number(process.env.BENCH_INVESTMENTS_PER_MEMBER ?? 5);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 500;
// The run's settings as a server reads them (INCOME_CHUNK_SIZE, INCOME_CHUNK_PAUSE_MS), else its defaults.
const OPTIONS = {
  ...DEFAULT_INCOME_OPTIONS,
  chunkSize: Number(process.env.INCOME_CHUNK_SIZE ?? DEFAULT_INCOME_OPTIONS.chunkSize),
  chunkPauseMs: Number(process.env.INCOME_CHUNK_PAUSE_MS ?? DEFAULT_INCOME_OPTIONS.chunkPauseMs),
};

const memberId = (i: number) => `bench-member-${String(i).padStart(6, '0')}`;
const sponsorOf = (i: number) =>
  i === 0 ? null : i < 3 ? memberId(i - 1) : memberId(2 + Math.floor((i - 3) / 5));

function depthOf(i: number): number {
  let depth = 1;
  for (let id: number | null = i; id !== null && id > 0; depth += 1) {
    id = id < 3 ? id - 1 : 2 + Math.floor((id - 3) / 5);
  }
  return depth;
}

async function insertInBatches<T>(db: Db, table: string, rows: T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto(table as never)
      .values(rows.slice(i, i + BATCH) as never)
      .execute();
  }
}

/** Members, their accounts, a plan and the investments, with the ledger rows that bought them. */
async function build(db: Db, boughtOn: string): Promise<void> {
  const now = new Date().toISOString();
  const boughtAt = `${boughtOn}T12:00:00.000Z`;
  await db.transaction().execute(async (trx) => {
    const users = Array.from({ length: MEMBERS }, (_, i) => ({
      id: memberId(i),
      username: `bench_${i}`,
      email: `bench_${i}@example.com`,
      password_hash: 'not-a-password',
      role: 'user',
      status: 'unblock',
      is_active: 'active',
      roi_status: 'open',
      level_status: 'open',
      fullname: `Bench Member ${i}`,
      phone: '+15550100200',
      sponsor_id: sponsorOf(i),
      refferal_code: `BENCH${i}`,
      created_at: now,
      updated_at: now,
      paid_member: 1,
    }));
    await insertInBatches(trx, 'users', users);
    const accounts = users.flatMap((u) =>
      ['business', 'working', 'invested'].map((code) => ({
        id: `${u.id}:${code}`,
        user_id: u.id,
        code,
        balance_cents: 0,
        held_cents: 0,
        allow_negative: 0,
        created_at: now,
      })),
    );
    await insertInBatches(trx, 'ledger_accounts', accounts);
    await trx
      .insertInto('plans')
      .values({
        id: 'bench-plan',
        kind: 'plan',
        name: 'Bench plan',
        min_amount_cents: 1000,
        max_amount_cents: 10_000_000,
        roi_bp: 50,
        duration_days: 365,
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const transfers = [];
    const topups = [];
    for (let i = 0; i < MEMBERS; i += 1) {
      for (let k = 0; k < INVESTMENTS_PER_MEMBER; k += 1) {
        const id = `bench-topup-${randomBytes(8).toString('hex')}`;
        const amountCents = 10_000 + ((i * 7 + k * 13) % 90) * 1_111;
        transfers.push({
          id: `bench-buy-${id}`,
          debit_account_id: 'platform:adjustments',
          credit_account_id: `${memberId(i)}:invested`,
          amount_cents: amountCents,
          phase: 'single',
          pending_id: null,
          kind: 'plan_purchase',
          reference: `topup:${id}`,
          description: 'Bench plan',
          created_by: null,
          created_at: boughtAt,
        });
        topups.push({
          id,
          user_id: memberId(i),
          userby_id: memberId(i),
          plan_id: 'bench-plan',
          type: 'topup',
          amount_cents: amountCents,
          roi_bp: 50,
          duration_days: 365,
          roi_paid_cents: 0,
          roi_days_paid: 0,
          roi_cap_cents: 2 * amountCents,
          status: 'active',
          ledger_transfer_id: `bench-buy-${id}`,
          created_at: boughtAt,
          roi_end_date: addDays(boughtOn, 364),
        });
      }
    }
    await insertInBatches(trx, 'ledger_transfers', transfers);
    await insertInBatches(trx, 'topups', topups);
    await sql`update ledger_accounts set balance_cents = (select coalesce(sum(amount_cents), 0) from ledger_transfers t
      where t.credit_account_id = ledger_accounts.id) where code = 'invested'`.execute(trx);
    await sql`update ledger_accounts set balance_cents = -(select coalesce(sum(amount_cents), 0) from ledger_transfers t
      where t.debit_account_id = ledger_accounts.id) where id = 'platform:adjustments'`.execute(trx);
  });
}

const ledgerRows = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('ledger_transfers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function bench(label: string, db: Db): Promise<Record<string, string | number>> {
  await migrateToLatest(db, label === 'PostgreSQL' ? (process.env.BENCH_SCHEMA ?? undefined) : undefined);
  const date = addDays(dateOf(), -1);
  let started = performance.now();
  await build(db, addDays(date, -3));
  const buildSeconds = (performance.now() - started) / 1000;
  const rowsBefore = await ledgerRows(db);

  started = performance.now();
  const first = await runIncomeDate(db, { date, trigger: 'admin', startedBy: null }, OPTIONS);
  const firstSeconds = (performance.now() - started) / 1000;
  const written = (await ledgerRows(db)) - rowsBefore;
  if (first.kind !== 'paid') throw new Error(`the first run did not pay: ${first.kind}`);

  started = performance.now();
  const second = await runIncomeDate(db, { date, trigger: 'admin', startedBy: null }, OPTIONS);
  const secondSeconds = (performance.now() - started) / 1000;
  if (second.kind !== 'completed') throw new Error(`the second run was not refused: ${second.kind}`);

  // A retry of the whole date: every chunk is read again and nothing is left to pay.
  await db.updateTable('income_runs').set({ status: 'failed' }).where('run_date', '=', date).execute();
  started = performance.now();
  const retry = await runIncomeDate(db, { date, trigger: 'admin', startedBy: null }, OPTIONS);
  const retrySeconds = (performance.now() - started) / 1000;
  if (retry.kind !== 'paid' || retry.totals.investments !== 0)
    throw new Error('the retry paid something again');

  const books = await reconcile(db);
  if (!books.balanced)
    throw new Error(`the books do not balance: ${JSON.stringify(books.mismatches.slice(0, 3))}`);
  const deepest = Math.max(...Array.from({ length: MEMBERS }, (_, i) => depthOf(i)));
  return {
    database: label,
    members: MEMBERS,
    investments: MEMBERS * INVESTMENTS_PER_MEMBER,
    'tree levels': deepest,
    'build s': buildSeconds.toFixed(1),
    'first run s': firstSeconds.toFixed(1),
    'investments paid': first.totals.investments,
    'level payments': first.totals.levelPayments,
    'ledger rows written': written,
    'same date again s': secondSeconds.toFixed(3),
    'retry, nothing left s': retrySeconds.toFixed(1),
  };
}

const results: Record<string, string | number>[] = [];
const which = process.argv[2] ?? 'both';

if (which !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'bench-income-'));
  const { db } = createDatabase({ databaseUrl: undefined, databaseSchema: undefined, dataDir: dir });
  try {
    results.push(await bench('SQLite', db));
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (which !== 'sqlite') {
  const schema = `bench_income_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  process.env.BENCH_SCHEMA = schema;
  const { db } = createDatabase({ databaseUrl: POSTGRES_URL, databaseSchema: schema, dataDir: tmpdir() });
  try {
    results.push(await bench('PostgreSQL', db));
  } finally {
    await db.destroy();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

console.table(results);
