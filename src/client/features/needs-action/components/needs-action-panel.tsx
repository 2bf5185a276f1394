import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import type { NeedsAction, NeedsActionKey } from '../../../../shared/needs-action.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { needsActionQuery } from '../api.ts';
import '../needs-action.css';

type Row = {
  key: NeedsActionKey;
  label: string;
  /** The screen that resolves these items, with its filter in the address. */
  link: (children: ReactNode) => ReactNode;
};

const linkProps = { className: 'needs-action-link' } as const;

// Each filter is one the target route's validateSearch accepts (src/client/routes/admin/*.tsx). Both
// withdrawal lines open the one queue at its pending requests, oldest first, every kind.
const ROWS: Row[] = [
  {
    key: 'withdrawals',
    label: 'Withdrawals to decide (income, compound)',
    link: (c) => (
      <Link to="/admin/withdrawals" search={{ status: 'pending' }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'roi_withdrawals',
    label: 'Withdrawals to decide (ROI, principal)',
    link: (c) => (
      <Link to="/admin/withdrawals" search={{ status: 'pending' }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'manual_deposits',
    label: 'Manual deposits to review',
    link: (c) => (
      <Link to="/admin/deposits" search={{ manual: 'pending', page: 1 }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'web3_deposits',
    label: 'On-chain deposits awaiting an admin',
    link: (c) => (
      <Link to="/admin/web3" search={{ status: 'awaiting_admin' }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'transfers_on_hold',
    label: 'Transfers to review',
    link: (c) => (
      <Link to="/admin/topup" search={{ tab: 'review', page: 1 }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'tickets_open',
    label: 'Open tickets',
    link: (c) => (
      <Link to="/admin/tickets" search={{ status: 'open', page: 1 }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'tickets_in_progress',
    label: 'Tickets in progress',
    link: (c) => (
      <Link to="/admin/tickets" search={{ status: 'in_progress', page: 1 }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'income_runs',
    label: 'Daily income runs not completed',
    link: (c) => (
      <Link to="/admin/income" search={{ page: 1 }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'salary_runs',
    label: 'Salary runs not completed',
    link: (c) => (
      <Link to="/admin/reward-transactions" {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    key: 'mails_failed',
    label: 'Mails that failed for good',
    link: (c) => (
      <Link to="/admin/mail" search={{ status: 'failed' }} {...linkProps}>
        {c}
      </Link>
    ),
  },
  {
    // The outbox has no "retrying" filter: pending lists these with the mails not tried yet.
    key: 'mails_retrying',
    label: 'Mails being retried',
    link: (c) => (
      <Link to="/admin/mail" search={{ status: 'pending' }} {...linkProps}>
        {c}
      </Link>
    ),
  },
];

/** "5 min", "3 h", "2 days": how long the oldest item has waited, against the server's own clock. */
function waitedFor(sinceIso: string, nowIso: string): string {
  const minutes = Math.max(0, Math.floor((Date.parse(nowIso) - Date.parse(sinceIso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

function detail(data: NeedsAction, key: NeedsActionKey): string {
  if (key === 'income_runs') return `Earliest date ${data.income_runs.oldest_date ?? ''}`;
  if (key === 'salary_runs') return `Earliest month ${data.salary_runs.oldest_month ?? ''}`;
  const item = data[key];
  const parts: string[] = [];
  if (item.oldest_at) parts.push(`oldest waiting ${waitedFor(item.oldest_at, data.as_of)}`);
  if ('amount' in item && item.amount !== '0.00') parts.push(`${formatUsd(item.amount)} waiting`);
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** First on the admin dashboard: what waits for an admin, each line leading to the screen that resolves it. */
export function NeedsActionPanel() {
  const { data, isPending, error, refetch } = useQuery(needsActionQuery);
  return (
    <section className="card" aria-labelledby="needs-action-title">
      <h2 id="needs-action-title">Needs action</h2>
      {isPending ? (
        <Spinner label="Loading what needs action" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : (
        <ul className="needs-action" data-testid="needs-action">
          {ROWS.map((row) => {
            const count = data[row.key].count;
            const body = (
              <>
                <span className="needs-action-label">{row.label}</span>
                <span
                  className={`badge ${count > 0 ? 'yellow' : 'grey'}`}
                  data-testid={`needs-action-count-${row.key}`}
                >
                  {count}
                </span>
                <span className="muted needs-action-detail">
                  {count > 0 ? detail(data, row.key) : 'Nothing waiting'}
                </span>
              </>
            );
            return (
              <li key={row.key} data-testid={`needs-action-${row.key}`} data-count={count}>
                {row.link(body)}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
