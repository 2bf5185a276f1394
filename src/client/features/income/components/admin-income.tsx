import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { dateOf, yesterday } from '../../../../shared/dates.ts';
import {
  INCOME_MESSAGES,
  type IncomeOverview,
  type IncomeRunResult,
  type IncomeRunRow,
  incomeRunSchema,
  RUN_TRIGGER_LABELS,
} from '../../../../shared/income.ts';
import { formatUsd } from '../../../../shared/money.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { ApiError } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { formatUtcDay, formatUtcMonth } from '../../../lib/utc-days.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import {
  incomeOverviewQuery,
  incomeRunsQuery,
  RUNS_PAGE_SIZE,
  refreshIncome,
  runIncomeDate,
} from '../api.ts';
import '../income.css';

const STATUS_BADGE: Record<IncomeRunRow['status'], [string, string]> = {
  completed: ['green', 'Completed'],
  // Paid up to the run's start; the date is final once the scheduler pays the rest after it ends.
  open: ['yellow', 'Open until the day ends'],
  running: ['blue', 'Running'],
  failed: ['red', 'Failed'],
};

const triggerLabel = (trigger: string) => RUN_TRIGGER_LABELS[trigger] ?? trigger;

/** 850 -> "850 ms", 12_300 -> "12.3 s", 95_000 -> "1 min 35 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const runColumns: DataColumn<IncomeRunRow>[] = [
  {
    id: 'date',
    header: 'Date (UTC)',
    cell: (r) => formatUtcDay(r.date, { zone: false }),
    className: 'nowrap',
  },
  {
    id: 'status',
    header: 'Status',
    cell: (r) => {
      const [tone, label] = STATUS_BADGE[r.status];
      return <span className={`badge ${tone}`}>{label}</span>;
    },
  },
  { id: 'investments', header: 'Investments paid', cell: (r) => r.investments_paid, className: 'num' },
  { id: 'roi', header: 'ROI total', cell: (r) => formatUsd(r.roi_total), className: 'num nowrap' },
  { id: 'level', header: 'Level total', cell: (r) => formatUsd(r.level_total), className: 'num nowrap' },
  { id: 'duration', header: 'Duration', cell: (r) => formatDuration(r.duration_ms), className: 'num nowrap' },
  {
    id: 'trigger',
    header: 'Started by',
    cell: (r) => (
      <>
        {triggerLabel(r.trigger)}
        {r.started_by ? <span className="muted"> ({r.started_by.username})</span> : null}
        <br />
        <span className="muted">{formatDateTime(r.started_at)}</span>
      </>
    ),
  },
  { id: 'attempts', header: 'Attempts', cell: (r) => r.attempts, className: 'num' },
  {
    id: 'error',
    header: 'Error',
    cell: (r) => (r.error ? <span className="income-error">{r.error}</span> : '—'),
  },
];

/** Each date's run, newest first, a page at a time (the page lives in the address). */
export function IncomeRuns({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const query = useQuery(incomeRunsQuery(page));
  const data = query.data;
  return (
    <section className="card stack" aria-labelledby="income-runs-title">
      <h2 id="income-runs-title">Daily runs</h2>
      <DataTable
        caption="Daily income runs"
        columns={runColumns}
        rows={data?.runs}
        rowKey={(r) => r.date}
        rowProps={(r) => ({ 'data-run-date': r.date })}
        status={query}
        empty="No income run yet. The scheduler pays each day at 00:05 UTC, or run a date above."
        noun={['run', 'runs']}
        testId="income-runs"
        pageSize={RUNS_PAGE_SIZE}
        server={{
          page,
          pages: data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1,
          total: data?.total ?? 0,
          onPage,
        }}
      />
    </section>
  );
}

const paidSummary = (run: IncomeRunResult['run']) =>
  `${run.date}: ${run.investments_paid} ${run.investments_paid === 1 ? 'investment' : 'investments'} paid, ROI ${formatUsd(run.roi_total)}, level income ${formatUsd(run.level_total)}.`;

/** Pays one date by hand (default yesterday, UTC); a date already paid pays nothing again. */
export function RunDateForm() {
  const queryClient = useQueryClient();
  const [date, setDate] = useState(() => yesterday());
  const [last, setLast] = useState<IncomeRunResult['run'] | null>(null);
  const { banner, success, error } = useAutoClearBanner();
  const { errors, busy, submit: submitWith } = useSchemaForm();

  function submit(event: FormEvent) {
    event.preventDefault();
    void submitWith(
      incomeRunSchema,
      { date },
      async (input) => {
        try {
          const result = await runIncomeDate(input.date ?? date);
          setLast(result.run);
          success(result.message || INCOME_MESSAGES.runDone);
        } catch (failure) {
          // Spec 8: the server's message, else the spec's own words.
          error(
            failure instanceof ApiError && failure.body.message ? failure.display : INCOME_MESSAGES.runFailed,
          );
          throw failure;
        } finally {
          void refreshIncome(queryClient);
        }
      },
      // The banner is set above: the spec's fallback differs from the shared generic text.
      () => undefined,
    );
  }

  return (
    <section className="card stack" aria-labelledby="income-run-title">
      <h2 id="income-run-title">Run a date</h2>
      <p className="muted">
        Pays the ROI and level income of one UTC date. A date already paid pays nothing more.
      </p>
      <MessageBanner banner={banner} />
      <form className="form income-run-form" onSubmit={submit} noValidate aria-busy={busy}>
        <FormField
          label="Date (UTC)"
          name="date"
          type="date"
          max={dateOf()}
          value={date}
          onChange={(e) => setDate(e.target.value)}
          error={errors.date}
          disabled={busy}
        />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Paying...' : 'Run this date'}
          </button>
        </div>
      </form>
      {last ? (
        <p className="muted" data-testid="income-run-last">
          {paidSummary(last)}
        </p>
      ) : null}
    </section>
  );
}

const monthColumns: DataColumn<IncomeOverview['months'][number]>[] = [
  {
    id: 'month',
    header: 'Month (UTC)',
    cell: (m) => formatUtcMonth(m.month, { zone: false }),
    sortValue: (m) => m.month,
    csv: (m) => m.month,
    descFirst: true,
    className: 'nowrap',
  },
  { id: 'roi', header: 'ROI', cell: (m) => formatUsd(m.roi), csv: (m) => m.roi, className: 'num nowrap' },
  {
    id: 'activation',
    header: 'Activation income',
    cell: (m) => formatUsd(m.activation),
    csv: (m) => m.activation,
    className: 'num nowrap',
  },
  {
    id: 'level',
    header: 'Level income',
    cell: (m) => formatUsd(m.level),
    csv: (m) => m.level,
    className: 'num nowrap',
  },
  {
    id: 'income',
    header: 'Income paid',
    cell: (m) => formatUsd(m.income_total),
    csv: (m) => m.income_total,
    className: 'num nowrap',
  },
  {
    id: 'deposits',
    header: 'Deposits received',
    cell: (m) => formatUsd(m.deposits),
    csv: (m) => m.deposits,
    className: 'num nowrap',
  },
];

/** RULES.md "Daily income": income paid against deposits received, so the operator sees what it owes. */
export function IncomeAgainstDeposits() {
  const query = useQuery(incomeOverviewQuery);
  return (
    <section className="card stack" aria-labelledby="income-overview-title">
      <h2 id="income-overview-title">Income paid and deposits received</h2>
      {query.isPending ? (
        <Spinner label="Loading income and deposits" />
      ) : query.error ? (
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <>
          <dl className="stat-grid" data-testid="income-overview">
            {(
              [
                ['ROI paid', query.data.totals.roi],
                ['Activation income paid', query.data.totals.activation],
                ['Level income paid', query.data.totals.level],
                ['Income paid in all', query.data.totals.income_total],
                ['Deposits received', query.data.totals.deposits],
                ['Deposits less income', query.data.totals.net],
              ] as const
            ).map(([label, amount]) => (
              <div className="stat" key={label}>
                <dt>{label}</dt>
                <dd className={amount.startsWith('-') ? 'income-negative' : undefined}>
                  {formatUsd(amount)}
                </dd>
              </div>
            ))}
          </dl>
          <DataTable
            caption="Income and deposits per month, last 12 months"
            showCaption
            columns={monthColumns}
            rows={query.data.months}
            rowKey={(m) => m.month}
            empty="No months to show."
            noun={['month', 'months']}
            testId="income-months"
            csvName="income-and-deposits"
            pageSize={12}
          />
        </>
      )}
    </section>
  );
}
