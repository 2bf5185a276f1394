import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd } from '../../../../shared/money.ts';
import { formatUtcDay } from '../../../lib/utc-days.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { reportsQuery, todayPeriod } from '../api.ts';
import '../reports.css';

/**
 * The admin dashboard's "Today" card: today's (UTC) deposits, withdrawals paid, income paid, transfers
 * and new members, from one call to the reports (from = to = today); each opens its report.
 */
export function TodayFigures() {
  const period = todayPeriod();
  const { data, isPending, error, refetch } = useQuery(reportsQuery(period));
  if (isPending) return <Spinner label="Loading today's figures" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  const { deposits, withdrawals, income, transfers, members } = data.reports;
  const figures = [
    { key: 'deposits', label: 'Deposits', value: formatUsd(String(deposits.totals.total)) },
    { key: 'withdrawals', label: 'Withdrawals paid', value: formatUsd(String(withdrawals.totals.amount)) },
    { key: 'income', label: 'Income paid', value: formatUsd(String(income.totals.total)) },
    { key: 'transfers', label: 'Transfers', value: formatUsd(String(transfers.totals.amount)) },
    { key: 'members', label: 'New members', value: String(members.totals.new) },
  ] as const;
  return (
    <section className="today-figures" aria-labelledby="today-title">
      <h2 id="today-title">Today, {formatUtcDay(period.from)}</h2>
      <dl className="stat-grid">
        {figures.map((f) => (
          <div className="stat" key={f.key} data-testid={`today-${f.key}`}>
            <dt>
              <Link to="/admin/reports" search={period} hash={`report-${f.key}`}>
                {f.label}
              </Link>
            </dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
