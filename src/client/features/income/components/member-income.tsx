import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { IncomeByKind, IncomeSummary, MemberInvestment } from '../../../../shared/income.ts';
import { formatPercent, formatUsd, parseCents } from '../../../../shared/money.ts';
import { TRANSACTION_TABLE_LABELS } from '../../../../shared/transactions.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { incomeSummaryQuery } from '../api.ts';
import '../income.css';

// The chart is drawn only once the figures are in, in a chunk of its own.
const IncomeChart = lazy(() => import('./income-chart.tsx'));

const KIND_ROWS: [keyof IncomeByKind, string][] = [
  ['roi', 'ROI'],
  ['activation', 'Activation income'],
  ['level', 'Level income'],
];

function PeriodCard({ title, figures, testId }: { title: string; figures: IncomeByKind; testId: string }) {
  return (
    <section className="card income-period" aria-label={title} data-testid={testId}>
      <h3>{title}</h3>
      <p className="income-total">{formatUsd(figures.total)}</p>
      <dl className="facts">
        {KIND_ROWS.map(([kind, label]) => (
          <div key={kind}>
            <dt>{label}</dt>
            <dd data-testid={`${testId}-${kind}`}>{formatUsd(figures[kind])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function InvestmentCard({ investment: i }: { investment: MemberInvestment }) {
  // "12.50" percent is 1250 hundredths: read exactly, as money strings are.
  const capBp = parseCents(i.cap_reached_percent) ?? 0;
  return (
    <li className="card income-investment" data-testid="income-investment">
      <div className="income-investment-head">
        <h3>{i.plan_name}</h3>
        <span className={`badge ${i.status === 'active' ? 'green' : 'grey'}`}>
          {i.status === 'active' ? 'Active' : 'Completed'}
        </span>
      </div>
      <dl className="facts">
        <div>
          <dt>Amount</dt>
          <dd>{formatUsd(i.amount)}</dd>
        </div>
        <div>
          <dt>Daily ROI</dt>
          <dd>{formatPercent(i.roi_percent)}</dd>
        </div>
        <div>
          <dt>ROI paid so far</dt>
          <dd data-testid="investment-roi-paid">{formatUsd(i.roi_paid)}</dd>
        </div>
        <div>
          <dt>Days paid</dt>
          <dd>
            {i.days_paid} of {i.duration_days}
          </dd>
        </div>
        <div>
          <dt>Days left</dt>
          <dd data-testid="investment-days-left">{i.days_left}</dd>
        </div>
      </dl>
      <p className="income-cap-label">
        {formatPercent(i.cap_percent)} cap: {formatUsd(i.roi_paid)} of {formatUsd(i.cap)} (
        {formatPercent(i.cap_reached_percent)})
      </p>
      <progress
        className="income-cap"
        max={10_000}
        value={capBp}
        aria-label={`${i.plan_name}: ${formatPercent(i.cap_reached_percent)} of the ${formatPercent(i.cap_percent)} cap reached`}
      />
    </li>
  );
}

function Investments({ investments }: { investments: IncomeSummary['investments'] }) {
  return (
    <section className="stack" aria-labelledby="income-investments-title">
      <h2 id="income-investments-title">Your investments</h2>
      {investments.length === 0 ? (
        <div className="card stack" data-testid="income-investments-empty">
          <p className="muted">You have no investments yet.</p>
          <Link to="/user/subscription" className="button">
            See the plans
          </Link>
        </div>
      ) : (
        <ul className="income-investments">
          {investments.map((investment) => (
            <InvestmentCard key={investment.id} investment={investment} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The member's own income by kind and period, the last 30 days, and each investment's progress. */
export function MemberIncome() {
  const query = useQuery(incomeSummaryQuery);
  if (query.isPending) return <Spinner label="Loading your income" />;
  if (query.error) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const summary = query.data;
  const nothingYet = summary.all_time.total === '0.00';
  return (
    <>
      <section className="stack" aria-labelledby="income-periods-title">
        <h2 id="income-periods-title">Income received</h2>
        {nothingYet ? (
          <p className="card muted" data-testid="income-empty">
            No income yet. Income shows here once it reaches your Income Working wallet.
          </p>
        ) : null}
        <div className="income-periods">
          <PeriodCard title="Today (UTC)" figures={summary.today} testId="income-today" />
          <PeriodCard title="This month" figures={summary.month} testId="income-month" />
          <PeriodCard title="All time" figures={summary.all_time} testId="income-all" />
        </div>
        <nav aria-label="Income transactions" className="income-links">
          {(['roi_transaction', 'activation_transaction', 'level_transaction'] as const).map((table) => (
            <Link
              key={table}
              to="/user/transaction/$table_name"
              params={{ table_name: table }}
              className="button"
            >
              {TRANSACTION_TABLE_LABELS[table]}
            </Link>
          ))}
        </nav>
      </section>
      <section className="card stack" aria-labelledby="income-chart-title">
        <h2 id="income-chart-title">Last 30 days</h2>
        <Suspense fallback={<Spinner label="Loading the chart" />}>
          <IncomeChart days={summary.days} />
        </Suspense>
      </section>
      <Investments investments={summary.investments} />
    </>
  );
}
