import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Db, isPostgres } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { SessionUser } from '../../src/server/http/session.ts';
import { reportCsvStream, reportsFor } from '../../src/server/modules/reports/reports.service.ts';
import { REPORT_IDS, type ReportGroup } from '../../src/shared/reports.ts';

// npm run bench:reports: the admin's reports over a busy year (issue 19 item 2). Fills a fresh database
// with LEDGER_ROWS ledger rows (default 1,000,000; plus the posts of held withdrawals) spread evenly
// over 2025 and over the kinds the platform writes (income of six kinds, deposits from three sources,
// member transfers, held-then-posted withdrawals with their fees, adjustments), for MEMBERS members,
// with bulk INSERT ... SELECT statements, then times GET /admin/reports' service call (all six
// reports) and each report's CSV export, by day and by month over the whole year, ROUNDS rounds each.
// On SQLite and on PostgreSQL (BENCH_DIALECTS, default both; BENCH_DATABASE_URL, default the local
// test database). The aim: every call under 2 s.

const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const YEAR_START_S = Date.parse('2025-01-01T00:00:00Z') / 1000;
const YEAR_S = 365 * 86_400;

const ADMIN: SessionUser = {
  user: { id: 'bench-admin', role: 'admin' },
} as unknown as SessionUser;

/** Row i's time: spread evenly over the year, as ISO text (the column's format on both databases). */
const timeOf = (db: Db, i: ReturnType<typeof sql>, total: number) =>
  isPostgres(db)
    ? sql`to_char(to_timestamp(${sql.lit(YEAR_START_S)} + (${i}::bigint * ${sql.lit(YEAR_S)}) / ${sql.lit(total)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.lit(YEAR_START_S)} + (${i} * ${sql.lit(YEAR_S)}) / ${sql.lit(total)}, 'unixepoch')`;

/** 0 .. n-1 as rows of `i`: generate_series on PostgreSQL, a recursive CTE on SQLite. */
const series = (db: Db, n: number) =>
  isPostgres(db)
    ? sql`select generate_series(0, ${sql.lit(n - 1)})::bigint as i`
    : sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${sql.lit(n - 1)}) select i from s`;

async function fill(db: Db): Promise<number> {
  const i = sql.ref('i');
  const member = (salt: number) => sql`'bench-m-' || ((${i} * ${sql.lit(salt)}) % ${sql.lit(MEMBERS)})`;
  await sql`insert into users (id, username, email, password_hash, role, status, is_active, roi_status,
      level_status, fullname, phone, refferal_code, created_at, updated_at, activation_date, paid_member,
      level_month, roi_day, total_team, business_cents, business_balance_cents)
    select 'bench-m-' || i, 'bench_' || i, 'bench_' || i || '@example.com', 'x', 'user', 'unblock',
      case when i % 2 = 0 then 'active' else 'inactive' end, 'open', 'open', 'Bench ' || i, '+15550100200',
      'B' || i, ${timeOf(db, i, MEMBERS)}, ${timeOf(db, i, MEMBERS)},
      case when i % 2 = 0 then ${timeOf(db, sql`(${i} + 7)`, MEMBERS)} else null end, 0, 0, 0, 0, 0, 0
    from (${series(db, MEMBERS)}) n`.execute(db);
  await sql`insert into ledger_accounts (id, user_id, code, balance_cents, held_cents, allow_negative, created_at)
    select u.id || ':' || w.code, u.id, w.code, 0, 0, 0, u.created_at
    from users u cross join (select 'business' as code union all select 'working') w`.execute(db);

  // The kind of row i by i % 100: a spread like a live platform's, where income rows dominate.
  const kindCase = sql`case
      when k < 40 then 'roi' when k < 58 then 'level_income' when k < 61 then 'activation_income'
      when k < 62 then 'reward' when k < 63 then 'salary' when k < 64 then 'cto'
      when k < 72 then 'deposit' when k < 84 then 'transfer' when k < 90 then 'withdrawal'
      when k < 94 then 'withdrawal_fee' else 'adjustment' end`;
  const debit = sql`case
      when k < 64 then 'platform:income' when k < 72 then 'platform:deposits'
      when k < 84 then ${member(7919)} || ':business' when k < 94 then ${member(104_729)} || ':working'
      else 'platform:adjustments' end`;
  const credit = sql`case
      when k < 64 then ${member(7919)} || ':working' when k < 72 then ${member(7919)} || ':business'
      when k < 83 then 'bench-m-' || (((${i} * 7919) % ${sql.lit(MEMBERS)} + 1 + ${i} % 97) % ${sql.lit(MEMBERS)}) || ':business' when k < 84 then ${member(7919)} || ':working'
      when k < 90 then 'platform:withdrawals' when k < 94 then 'platform:fees'
      else ${member(7919)} || ':business' end`;
  const reference = sql`case when k >= 64 and k < 72 then
      (case when i % 3 = 0 then 'payment:sandbox:' when i % 3 = 1 then 'web3-deposit:56:0x' else 'manual-deposit:' end) || i
      else 'bench:' || i end`;
  // Withdrawals and their fees are holds (pending) here; most are posted below, the rest stay open.
  await sql`insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase,
      pending_id, kind, reference, description, created_by, created_at)
    select 'b' || i, ${debit}, ${credit}, 100 + (i * 37) % 50000,
      case when k >= 84 and k < 94 then 'pending' else 'single' end, null, ${kindCase}, ${reference}, null, null,
      ${timeOf(db, i, LEDGER_ROWS)}
    from (select i, i % 100 as k from (${series(db, LEDGER_ROWS)}) n) x`.execute(db);
  await sql`insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase,
      pending_id, kind, reference, description, created_by, created_at)
    select 'p' || id, debit_account_id, credit_account_id, amount_cents,
      case when amount_cents % 10 = 0 then 'void' else 'post' end, id, kind, reference, null, null, created_at
    from ledger_transfers where phase = 'pending' and amount_cents % 7 <> 0`.execute(db);
  // On a live PostgreSQL table autovacuum keeps the planner's statistics and the visibility map (which
  // lets a scan read an index alone) up to date; a table filled a moment ago needs asking.
  if (isPostgres(db)) await sql`vacuum analyze`.execute(db);
  const count = await db
    .selectFrom('ledger_transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

const ms = (value: number) => Math.round(value);
function summary(durations: number[]) {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    rounds: sorted.length,
    'p50 ms': ms(sorted[Math.floor((sorted.length - 1) / 2)] as number),
    'max ms': ms(sorted.at(-1) as number),
  };
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await f();
  return performance.now() - started;
}

type Row = {
  database: string;
  call: string;
  group: ReportGroup;
  rounds: number;
  'p50 ms': number;
  'max ms': number;
};

async function bench(label: string, db: Db, schema: string | undefined): Promise<Row[]> {
  await migrateToLatest(db, schema);
  const started = performance.now();
  const rows = await fill(db);
  console.log(
    `${label}: ${rows.toLocaleString('en')} ledger rows, ${MEMBERS.toLocaleString('en')} members, filled in ${ms(performance.now() - started)} ms`,
  );
  const results: Row[] = [];
  for (const group of ['day', 'month'] as const) {
    const query = { from: '2025-01-01', to: '2025-12-31', group };
    const all = await reportsFor(db, ADMIN, query); // warm-up, and a check that the year is all there
    if (all.reports.deposits.rows.length !== (group === 'day' ? 365 : 12)) throw new Error('buckets missing');
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r += 1) times.push(await timed(() => reportsFor(db, ADMIN, query)));
    results.push({ database: label, call: 'GET /admin/reports (all six)', group, ...summary(times) });
    console.log(results.at(-1));
    for (const report of REPORT_IDS) {
      const csvTimes: number[] = [];
      for (let r = 0; r < ROUNDS; r += 1)
        csvTimes.push(
          await timed(async () => {
            const stream = await reportCsvStream(db, ADMIN, { ...query, report });
            for await (const _ of stream);
          }),
        );
      results.push({ database: label, call: `export ${report}`, group, ...summary(csvTimes) });
      console.log(results.at(-1));
    }
  }
  return results;
}

const results: Row[] = [];

if (DIALECTS.includes('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reports-'));
  const { db } = createDatabase({ databaseUrl: undefined, databaseSchema: undefined, dataDir: dir });
  try {
    results.push(...(await bench('SQLite', db, undefined)));
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (DIALECTS.includes('postgres')) {
  const schema = `bench_reports_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const { db } = createDatabase({ databaseUrl: POSTGRES_URL, databaseSchema: schema, dataDir: tmpdir() });
  try {
    results.push(...(await bench('PostgreSQL', db, schema)));
  } finally {
    await db.destroy();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

console.table(results);
