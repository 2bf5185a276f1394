import * as v from 'valibot';
import { addDays, isCalendarDate } from './dates.ts';

// Admin reports (issue 19 item 2, docs/rules.md "Reports"): figures of a period of whole UTC days,
// per day or per month, computed by the database from the ledger. One definition per report (its
// columns, their labels and units) drives the API's rows, the CSV file and the table on screen, so
// the three cannot disagree.

export const REPORT_GROUPS = ['day', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** The longest period per grouping, in days (from and to included): a year by day, ten years by month. */
export const REPORT_MAX_DAYS: Record<ReportGroup, number> = { day: 366, month: 3653 };

export const REPORT_MESSAGES = {
  dateInvalid: 'Enter a date as YYYY-MM-DD',
  groupInvalid: 'group is day or month',
  reportInvalid: 'report is deposits, withdrawals, income, transfers, members or income_vs_deposits',
  toBeforeFrom: 'The end date must be on or after the start date',
  tooLong: (group: ReportGroup) =>
    group === 'day'
      ? `A report by day covers at most ${REPORT_MAX_DAYS.day} days; choose a shorter period or group by month`
      : 'A report by month covers at most 10 years',
  empty: 'Nothing in this period.',
} as const;

const dateField = v.pipe(
  v.string(REPORT_MESSAGES.dateInvalid),
  v.trim(),
  v.check(isCalendarDate, REPORT_MESSAGES.dateInvalid),
);

/** Days from `from` to `to`, both included (negative when `to` is before `from`). */
export const daysIn = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

const periodEntries = {
  from: dateField,
  to: dateField,
  group: v.optional(v.picklist(REPORT_GROUPS, REPORT_MESSAGES.groupInvalid), 'day'),
};

type PeriodShape = { from: string; to: string; group: ReportGroup };

// A malformed date already has its own field error; the period checks speak only of two real dates.
const bothDates = (p: PeriodShape) => isCalendarDate(p.from) && isCalendarDate(p.to);

/** The period's checks on the object's output: a field error on `to`, as a person reads the form. */
function withPeriodChecks<T extends PeriodShape>(schema: v.GenericSchema<unknown, T>) {
  return v.pipe(
    schema,
    v.forward(
      v.check((p) => !bothDates(p) || p.to >= p.from, REPORT_MESSAGES.toBeforeFrom),
      ['to'] as never,
    ),
    v.forward(
      v.check(
        (p) => !bothDates(p) || p.to < p.from || daysIn(p.from, p.to) <= REPORT_MAX_DAYS[p.group],
        (issue) => REPORT_MESSAGES.tooLong((issue.input as T).group),
      ),
      ['to'] as never,
    ),
  );
}

/** GET /admin/reports: a period of whole UTC days, from and to included, grouped by day or month. */
export const reportQuerySchema = withPeriodChecks(v.object(periodEntries));
export type ReportQuery = v.InferOutput<typeof reportQuerySchema>;

export const REPORT_IDS = [
  'deposits',
  'withdrawals',
  'income',
  'transfers',
  'members',
  'income_vs_deposits',
] as const;
export type ReportId = (typeof REPORT_IDS)[number];

/** GET /admin/reports/export: one report of the period as a CSV file. */
export const reportExportQuerySchema = withPeriodChecks(
  v.object({ ...periodEntries, report: v.picklist(REPORT_IDS, REPORT_MESSAGES.reportInvalid) }),
);
export type ReportExportQuery = v.InferOutput<typeof reportExportQuerySchema>;

export type ReportColumn = {
  key: string;
  label: string;
  /** money: a decimal string with 2 decimals; count: a whole number. */
  unit: 'money' | 'count';
  /** A running total over the period: its total is its last value, not a sum. */
  cumulative?: true;
  /** Drawn on the report's chart (the table always shows every column). */
  chart?: true;
};

export type ReportDefinition = { title: string; description: string; columns: readonly ReportColumn[] };

/** The kinds of income the platform pays (ledger kinds), in the order the report shows them. */
export const INCOME_KINDS = [
  { kind: 'roi', label: 'ROI' },
  { kind: 'level_income', label: 'Level income' },
  { kind: 'activation_income', label: 'Activation income' },
  { kind: 'reward', label: 'Rewards' },
  { kind: 'salary', label: 'Salary' },
  { kind: 'cto', label: 'CTO' },
] as const;

/** Where a deposit came from, by its ledger reference (docs/rules.md "Reports"). */
export const DEPOSIT_SOURCES = [
  { key: 'crypto', label: 'Crypto payments', referencePrefix: 'payment:' },
  { key: 'onchain', label: 'On-chain (web3)', referencePrefix: 'web3-deposit:' },
  { key: 'manual', label: 'Manual', referencePrefix: 'manual-deposit:' },
] as const;

export const REPORTS: Record<ReportId, ReportDefinition> = {
  deposits: {
    title: 'Deposits',
    description: 'Money credited to members from the platform’s deposits account, by where it came from.',
    columns: [
      ...DEPOSIT_SOURCES.map((s) => ({ key: s.key, label: s.label, unit: 'money', chart: true }) as const),
      { key: 'other', label: 'Other', unit: 'money' },
      { key: 'total', label: 'Total', unit: 'money' },
      { key: 'count', label: 'Deposits', unit: 'count' },
    ],
  },
  withdrawals: {
    title: 'Withdrawals paid',
    description: 'Net amounts paid out to members (fees apart), when the payout was recorded.',
    columns: [
      { key: 'amount', label: 'Paid', unit: 'money', chart: true },
      { key: 'count', label: 'Withdrawals', unit: 'count' },
      { key: 'fees', label: 'Fees', unit: 'money' },
    ],
  },
  income: {
    title: 'Income paid',
    description: 'Income paid to members from the platform’s income account, by kind.',
    columns: [
      ...INCOME_KINDS.map((k) => ({ key: k.kind, label: k.label, unit: 'money', chart: true }) as const),
      { key: 'other', label: 'Other', unit: 'money' },
      { key: 'total', label: 'Total', unit: 'money' },
    ],
  },
  transfers: {
    title: 'Transfers',
    description: 'Completed transfers from one member to another (moves between one’s own wallets left out).',
    columns: [
      { key: 'amount', label: 'Amount', unit: 'money', chart: true },
      { key: 'count', label: 'Transfers', unit: 'count' },
    ],
  },
  members: {
    title: 'Members',
    description: 'Members who signed up, and members activated (their first investment).',
    columns: [
      { key: 'new', label: 'New members', unit: 'count', chart: true },
      { key: 'activated', label: 'Activated', unit: 'count', chart: true },
    ],
  },
  income_vs_deposits: {
    title: 'Income paid against deposits',
    description:
      'Income paid and deposits received per period. Net is deposits minus income; the "to date" columns add up from the first day shown.',
    columns: [
      { key: 'income', label: 'Income paid', unit: 'money' },
      { key: 'deposits', label: 'Deposits', unit: 'money' },
      { key: 'net', label: 'Net', unit: 'money' },
      {
        key: 'cumulative_income',
        label: 'Income to date',
        unit: 'money',
        cumulative: true,
        chart: true,
      },
      {
        key: 'cumulative_deposits',
        label: 'Deposits to date',
        unit: 'money',
        cumulative: true,
        chart: true,
      },
      { key: 'cumulative_net', label: 'Net to date', unit: 'money', cumulative: true },
    ],
  },
};

/** A row: `bucket` ('YYYY-MM-DD' or 'YYYY-MM') and one value per column (money as "12.34", counts as numbers). */
// objectWithRest rather than record (the same rows): record would join the valibot code that every
// member's screens share, and the member dashboard's download has a budget.
const rowSchema = v.objectWithRest({}, v.union([v.string(), v.number()]));
export type ReportRow = Record<string, string | number>;

const reportTableSchema = v.object({ rows: v.array(rowSchema), totals: rowSchema });
export type ReportTable = v.InferOutput<typeof reportTableSchema>;

export const reportsSchema = v.object({
  from: v.string(),
  to: v.string(),
  group: v.picklist(REPORT_GROUPS),
  reports: v.object(
    Object.fromEntries(REPORT_IDS.map((id) => [id, reportTableSchema])) as Record<
      ReportId,
      typeof reportTableSchema
    >,
  ),
});
export type Reports = v.InferOutput<typeof reportsSchema>;

/** Every bucket of the period in order, so a bucket with no activity is a row of zeros. */
export function bucketsOf(from: string, to: string, group: ReportGroup): string[] {
  const buckets: string[] = [];
  if (group === 'day') {
    for (let day = from; day <= to; day = addDays(day, 1)) buckets.push(day);
    return buckets;
  }
  let [year, month] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const bucket = `${year}-${String(month).padStart(2, '0')}`;
    if (bucket > last) return buckets;
    buckets.push(bucket);
    month += 1;
    if (month === 13) [year, month] = [year + 1, 1];
  }
}

/** The header and the lines of one report's CSV file: the table on screen, its totals row last. */
export function reportCsvRows(id: ReportId, group: ReportGroup, table: ReportTable) {
  const { columns } = REPORTS[id];
  const header = [group === 'day' ? 'Day (UTC)' : 'Month (UTC)', ...columns.map((c) => c.label)];
  const line = (row: ReportRow, bucket: string) => [bucket, ...columns.map((c) => row[c.key] ?? '')];
  return {
    header,
    lines: [...table.rows.map((row) => line(row, String(row.bucket))), line(table.totals, 'Total')],
  };
}
