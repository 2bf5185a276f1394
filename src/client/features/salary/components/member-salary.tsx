import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { Term } from '../../../ui/term.tsx';
import { salaryHistoryQuery, salaryTiersQuery } from '../api.ts';

// /user/rewards "Salary": the tiers (what each needs, in a calendar month) and the member's own salary
// history, a page at a time. Loaded with the rewards screen only (never the dashboard).

const PAGE_SIZE = 6;

export function MemberSalary({ memberId }: { memberId: string }) {
  return (
    <section className="stack" aria-labelledby="salary-title">
      <h2 id="salary-title">Salary</h2>
      <p className="muted term-line">
        <Term id="salary" />
      </p>
      <p className="muted">
        A monthly salary is paid on the 1st (UTC) for the month before, only when the new business your whole
        team brought in that month and your activated direct members meet a tier: then the highest tier you
        met, once. A month that meets no tier pays nothing: a salary is not guaranteed.
      </p>
      <SalaryTiers />
      <SalaryHistory memberId={memberId} />
    </section>
  );
}

function SalaryTiers() {
  const query = useQuery(salaryTiersQuery);
  if (query.isPending) return <Spinner label="Loading salary tiers..." />;
  if (query.error) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  if (query.data.tiers.length === 0) return <p className="muted">No salary tiers are set up yet.</p>;
  return (
    <ul className="stack" aria-label="Salary tiers">
      {query.data.tiers.map((tier) => (
        <li key={tier.id} className="card" data-testid="salary-tier">
          <h3>{tier.name}</h3>
          <p>
            New team business in a month {formatUsd(tier.min_business)} · activated direct members{' '}
            {tier.min_active_directs} · salary {formatUsd(tier.amount)}
          </p>
        </li>
      ))}
    </ul>
  );
}

function SalaryHistory({ memberId }: { memberId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...salaryHistoryQuery(memberId, { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Spinner label="Loading salary history..." />;
  if (query.error) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const history = query.data;
  return (
    <div className="card stack">
      <h3>Your salary history</h3>
      {history.total === 0 ? (
        <p className="muted">No salary has been paid to you yet.</p>
      ) : (
        <>
          <ul className="stack" aria-label="Salary history" data-testid="salary-history">
            {history.data.map((payment) => (
              <li key={payment.id} data-testid="salary-payment">
                <strong>
                  {payment.month}: {formatUsd(payment.amount)}
                </strong>{' '}
                ({payment.tier_name})
                <br />
                <span className="muted">
                  New team business {formatUsd(payment.new_business)} · {payment.active_directs} active
                  directs · paid {formatDateTime(payment.created_at)}
                </span>
              </li>
            ))}
          </ul>
          {history.total_pages > 1 ? (
            <nav className="row" aria-label="Pages of salary history">
              <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span className="muted">
                Page {history.current_page} of {history.total_pages}
              </span>
              <button
                type="button"
                className="button"
                disabled={page >= history.total_pages}
                onClick={() => setPage(page + 1)}
              >
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
