import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { IncomeByKind, IncomeSummary, MemberInvestment } from '../../../../shared/income.ts';
import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import { TRANSACTION_TABLE_LABELS } from '../../../../shared/transactions.ts';
import { formatDateTime } from '../../../lib/format.ts';
import type { GlossaryId } from '../../../ui/glossary.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { Term } from '../../../ui/term.tsx';
import { incomeSummaryQuery } from '../api.ts';
import '../income.css';

// The chart is drawn only once the figures are in, in a chunk of its own.
const IncomeChart = lazy(() => import('./income-chart.tsx'));

const KIND_ROWS: [keyof IncomeByKind, string, GlossaryId][] = [
  ['roi', 'ROI', 'roi'],
  ['activation', 'Activation income', 'activationIncome'],
  ['level', 'Level income', 'levelIncome'],
];

function PeriodCard({ title, figures, testId }: { title: string; figures: IncomeByKind; testId: string }) {
  return (
    <section className="card income-period" aria-label={title} data-testid={testId}>
      <h3>{title}</h3>
      <p className="income-total">{formatUsd(figures.total)}</p>
      <dl className="facts">
        {KIND_ROWS.map(([kind, label, term]) => (
          <div key={kind}>
            <dt>
              <Term id={term}>{label}</Term>
            </dt>
            <dd data-testid={`${testId}-${kind}`}>{formatUsd(figures[kind])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * One investment as it stands: what it is and what it has paid. Its limits are said as the rule they
 * are, never drawn as a bar filling toward the cap or counted down as days still to pay: neither is
 * income anyone has, and a run may pay nothing (a closed account, a plan ended by the cap).
 */
function InvestmentCard({ investment: i }: { investment: MemberInvestment }) {
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
          <dt>Bought</dt>
          <dd>{formatDateTime(i.created_at)}</dd>
        </div>
        <div>
          <dt>ROI paid so far</dt>
          <dd data-testid="investment-roi-paid">{formatUsd(i.roi_paid)}</dd>
        </div>
        <div>
          <dt>Days paid</dt>
          <dd data-testid="investment-days-paid">{i.days_paid}</dd>
        </div>
      </dl>
      <p className="muted" data-testid="investment-rule">
        {`The plan's rule: a daily run may pay ROI at ${formatPercent(i.roi_percent)} of the amount, on at most ${i.duration_days} days, and stops once ROI paid reaches ${formatPercent(i.cap_percent)} of the amount. A day's ROI is not guaranteed.`}
      </p>
    </li>
  );
}

function Investments({ investments }: { investments: IncomeSummary['investments'] }) {
  return (
    <section className="stack" aria-labelledby="income-investments-title">
      <h2 id="income-investments-title">Your investments</h2>
      <p className="muted term-line">
        <Term id="roi" />
        <Term id="incomeCap" />
        <Term id="incomeWorking" />
      </p>
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

/** The member's own income by kind and period, the last 30 days, and what each investment has paid. */
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
          <PeriodCard title="This month (UTC)" figures={summary.month} testId="income-month" />
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
