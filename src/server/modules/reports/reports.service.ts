import { Readable } from 'node:stream';
import { csvCell } from '../../../shared/csv.ts';
import { addDays } from '../../../shared/dates.ts';
import { formatCents } from '../../../shared/money.ts';
import {
  bucketsOf,
  DEPOSIT_SOURCES,
  INCOME_KINDS,
  REPORTS,
  type ReportExportQuery,
  type ReportId,
  type ReportQuery,
  type ReportRow,
  type Reports,
  type ReportTable,
  reportCsvRows,
} from '../../../shared/reports.ts';
import type { Db } from '../../db/database.ts';
import { forbidden } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  type BucketSum,
  depositSums,
  incomeSums,
  memberCounts,
  type Period,
  transferSums,
  withdrawalSums,
} from './reports.repository.ts';

// The admin's reports (docs/rules.md "Reports"). The database groups; here the grouped sums (at most
// a few rows per bucket) are laid out on every bucket of the period, so a quiet day is a row of zeros
// and the charts and tables of one period line up. Reads only: nothing here writes or moves money.

function adminOnly(asker: SessionUser): void {
  if (asker.user.role !== 'admin') throw forbidden();
}

/** Cents per column per bucket, every bucket present; counts are kept apart as whole numbers. */
type Grid = Map<string, Map<string, number>>;

function gridOf(buckets: string[]): Grid {
  return new Map(buckets.map((b) => [b, new Map<string, number>()]));
}

function add(grid: Grid, bucket: string, key: string, value: number): void {
  const cells = grid.get(bucket);
  // A row outside the period's buckets would be a bug in the period's bounds: fail loudly, never drop it.
  if (!cells) throw new Error(`report row in bucket ${bucket} outside the period`);
  cells.set(key, (cells.get(key) ?? 0) + value);
}

/** The table of one report from its grid: money formatted, the totals row summed (cumulative: its last value). */
function tableOf(id: ReportId, grid: Grid): ReportTable {
  const { columns } = REPORTS[id];
  const rows: ReportRow[] = [];
  const totals = new Map<string, number>();
  for (const [bucket, cells] of grid) {
    const row: ReportRow = { bucket };
    for (const c of columns) {
      const value = cells.get(c.key) ?? 0;
      row[c.key] = c.unit === 'money' ? formatCents(value) : value;
      totals.set(c.key, c.cumulative ? value : (totals.get(c.key) ?? 0) + value);
    }
    rows.push(row);
  }
  const total: ReportRow = { bucket: 'total' };
  for (const c of columns) {
    const value = totals.get(c.key) ?? 0;
    total[c.key] = c.unit === 'money' ? formatCents(value) : value;
  }
  return { rows, totals: total };
}

const DEPOSIT_KEYS = new Set<string>(DEPOSIT_SOURCES.map((s) => s.key));
const INCOME_KEYS = new Set<string>(INCOME_KINDS.map((k) => k.kind));

function depositsGrid(buckets: string[], sums: BucketSum[]): Grid {
  const grid = gridOf(buckets);
  for (const s of sums) {
    add(grid, s.bucket, DEPOSIT_KEYS.has(s.key) ? s.key : 'other', s.cents);
    add(grid, s.bucket, 'total', s.cents);
    add(grid, s.bucket, 'count', s.count);
  }
  return grid;
}

function incomeGrid(buckets: string[], sums: BucketSum[]): Grid {
  const grid = gridOf(buckets);
  for (const s of sums) {
    add(grid, s.bucket, INCOME_KEYS.has(s.key) ? s.key : 'other', s.cents);
    add(grid, s.bucket, 'total', s.cents);
  }
  return grid;
}

function withdrawalsGrid(buckets: string[], sums: BucketSum[]): Grid {
  const grid = gridOf(buckets);
  for (const s of sums) {
    if (s.key === 'paid') {
      add(grid, s.bucket, 'amount', s.cents);
      add(grid, s.bucket, 'count', s.count);
    } else add(grid, s.bucket, 'fees', s.cents);
  }
  return grid;
}

function transfersGrid(buckets: string[], sums: BucketSum[]): Grid {
  const grid = gridOf(buckets);
  for (const s of sums) {
    add(grid, s.bucket, 'amount', s.cents);
    add(grid, s.bucket, 'count', s.count);
  }
  return grid;
}

function membersGrid(buckets: string[], sums: BucketSum[]): Grid {
  const grid = gridOf(buckets);
  for (const s of sums) add(grid, s.bucket, s.key, s.count);
  return grid;
}

/** Income paid against deposits received, per bucket and running from the period's first bucket. */
function incomeVsDepositsGrid(buckets: string[], deposits: Grid, income: Grid): Grid {
  const grid = gridOf(buckets);
  let incomeRunning = 0;
  let depositsRunning = 0;
  for (const bucket of buckets) {
    const incomeCents = income.get(bucket)?.get('total') ?? 0;
    const depositCents = deposits.get(bucket)?.get('total') ?? 0;
    incomeRunning += incomeCents;
    depositsRunning += depositCents;
    add(grid, bucket, 'income', incomeCents);
    add(grid, bucket, 'deposits', depositCents);
    add(grid, bucket, 'net', depositCents - incomeCents);
    add(grid, bucket, 'cumulative_income', incomeRunning);
    add(grid, bucket, 'cumulative_deposits', depositsRunning);
    add(grid, bucket, 'cumulative_net', depositsRunning - incomeRunning);
  }
  return grid;
}

const periodOf = (q: ReportQuery): Period => ({ fromIso: q.from, toIso: addDays(q.to, 1), group: q.group });

/** The tables of `ids` for the period; only the queries those reports need are run. */
async function tablesFor(db: Db, q: ReportQuery, ids: readonly ReportId[]) {
  const period = periodOf(q);
  const buckets = bucketsOf(q.from, q.to, q.group);
  const wants = (...of: ReportId[]) => of.some((id) => ids.includes(id));
  const none = Promise.resolve([] as BucketSum[]);
  const [deposits, income, withdrawals, transfers, members] = await Promise.all([
    wants('deposits', 'income_vs_deposits') ? depositSums(db, period) : none,
    wants('income', 'income_vs_deposits') ? incomeSums(db, period) : none,
    wants('withdrawals') ? withdrawalSums(db, period) : none,
    wants('transfers') ? transferSums(db, period) : none,
    wants('members') ? memberCounts(db, period) : none,
  ]);
  const depositGrid = depositsGrid(buckets, deposits);
  const income_ = incomeGrid(buckets, income);
  const grids: Record<ReportId, () => Grid> = {
    deposits: () => depositGrid,
    income: () => income_,
    withdrawals: () => withdrawalsGrid(buckets, withdrawals),
    transfers: () => transfersGrid(buckets, transfers),
    members: () => membersGrid(buckets, members),
    income_vs_deposits: () => incomeVsDepositsGrid(buckets, depositGrid, income_),
  };
  return Object.fromEntries(ids.map((id) => [id, tableOf(id, grids[id]())])) as Record<ReportId, ReportTable>;
}

/** GET /admin/reports: every report of the period. */
export async function reportsFor(db: Db, asker: SessionUser, q: ReportQuery): Promise<Reports> {
  adminOnly(asker);
  const reports = await tablesFor(db, q, Object.keys(REPORTS) as ReportId[]);
  return { from: q.from, to: q.to, group: q.group, reports };
}

/**
 * GET /admin/reports/export: one report as CSV, the same rows and figures as its table on screen
 * (shared/reports.ts reportCsvRows), cells defused by the shared csvCell, streamed a line at a time.
 */
export async function reportCsvStream(db: Db, asker: SessionUser, q: ReportExportQuery): Promise<Readable> {
  adminOnly(asker);
  const table = (await tablesFor(db, q, [q.report]))[q.report];
  const { header, lines } = reportCsvRows(q.report, q.group, table);
  function* csvLines() {
    yield `\uFEFF${header.map(csvCell).join(',')}\r\n`;
    for (const cells of lines) yield `${cells.map(csvCell).join(',')}\r\n`;
  }
  return Readable.from(csvLines());
}

export const reportFileName = (q: ReportExportQuery) => `${q.report}-${q.from}-to-${q.to}-by-${q.group}.csv`;
