import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import { monthBefore, type SalaryDashboard } from '../../../../shared/salary.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { formatUtcMonth } from '../../../lib/utc-days.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { refreshSalary, runSalaryMonth, salaryDashboardQuery, salaryTodayStatsQuery } from '../api.ts';
import { AdminSalaryLists } from './admin-salary-lists.tsx';
import { AdminSalaryTiers } from './admin-salary-tiers.tsx';

// The salary on the reward transactions screen (docs/rules.md "Salary"): the tiers, the server's
// figures (totals by month, the last run and the next, today), a month paid by hand, and the paged
// lists. The screen computes nothing: every figure is the server's.

type MonthTotal = SalaryDashboard['months'][number];
const MONTH_COLUMNS: DataColumn<MonthTotal>[] = [
  {
    id: 'month',
    header: 'Month (UTC)',
    cell: (m) => formatUtcMonth(m.month, { zone: false }),
    sortValue: (m) => m.month,
    descFirst: true,
  },
  { id: 'members', header: 'Members paid', className: 'num', cell: (m) => m.members },
  { id: 'total', header: 'Total', className: 'num', cell: (m) => formatUsd(m.total) },
];

export function AdminSalary() {
  return (
    <section className="card stack" aria-labelledby="salary-title">
      <h2 id="salary-title">Salary</h2>
      <p className="muted">
        On the 1st (UTC) each member is paid the single highest tier they qualified for in the month before:
        the new business their whole team brought in that month, and their active direct members. Once per
        member and month.
      </p>
      <AdminSalaryTiers />
      <SalaryFigures />
      <RunMonth />
      <AdminSalaryLists />
    </section>
  );
}

function SalaryFigures() {
  const dashboard = useQuery(salaryDashboardQuery);
  const today = useQuery(salaryTodayStatsQuery);
  if (dashboard.isPending || today.isPending) return <Spinner />;
  if (dashboard.error) return <QueryError error={dashboard.error} onRetry={() => dashboard.refetch()} />;
  if (today.error) return <QueryError error={today.error} onRetry={() => today.refetch()} />;
  const d = dashboard.data;
  const t = today.data;
  return (
    <div className="stack">
      <dl className="stat-grid" data-testid="salary-figures">
        <div className="stat">
          <dt>Paid in all</dt>
          <dd data-testid="salary-total">{formatUsd(d.total_paid)}</dd>
        </div>
        <div className="stat">
          <dt>Paid today</dt>
          <dd>
            {formatUsd(t.paid_today_total)} ({t.paid_today_count})
          </dd>
        </div>
        <div className="stat">
          <dt>Qualifying for {t.month} so far</dt>
          <dd>
            {t.qualifying_members} ({formatUsd(t.qualifying_total)})
          </dd>
        </div>
        <div className="stat">
          <dt>Last run</dt>
          <dd data-testid="salary-last-run">
            {d.last_run
              ? `${d.last_run.month}: ${d.last_run.status}, ${d.last_run.members_paid} paid`
              : 'Never'}
          </dd>
        </div>
        <div className="stat">
          <dt>Next run</dt>
          <dd>{d.next_run ? formatDateTime(d.next_run) : 'Not scheduled on this server'}</dd>
        </div>
      </dl>
      <DataTable
        caption="Salary paid by month"
        columns={MONTH_COLUMNS}
        rows={d.months}
        rowKey={(m) => m.month}
        empty="No salary has been paid yet."
        noun={['month', 'months']}
        testId="salary-months"
        initialSort={{ id: 'month', desc: true }}
      />
    </div>
  );
}

function RunMonth() {
  const queryClient = useQueryClient();
  const [month, setMonth] = useState(monthBefore());
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function run() {
    setBusy(true);
    setNote(null);
    try {
      const { message, run: done } = await runSalaryMonth(month);
      setNote({
        tone: 'success',
        text: `${message}: ${done.members_paid} paid ${formatUsd(done.total)} for ${done.month}.`,
      });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
      await refreshSalary(queryClient);
    }
  }

  return (
    <div className="stack">
      <h3>Pay a month now</h3>
      <p className="muted">
        The scheduler pays last month on the 1st and any month it missed. Paying by hand pays only members not
        paid for that month yet; a second press pays nothing more.
      </p>
      <div className="row">
        <label className="field">
          <span>Month to pay (UTC)</span>
          <input
            type="month"
            value={month}
            max={monthBefore()}
            onChange={(e) => e.target.value && setMonth(e.target.value)}
          />
        </label>
        <button type="button" className="button primary" disabled={busy} onClick={run}>
          {busy ? 'Paying...' : `Pay the salaries of ${formatUtcMonth(month)}`}
        </button>
      </div>
      {note ? (
        <p
          className={note.tone === 'success' ? 'notice' : 'error'}
          role={note.tone === 'success' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
