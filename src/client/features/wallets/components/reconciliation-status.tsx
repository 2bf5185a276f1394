import { useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { reconciliationQuery } from '../api.ts';

/** The books at a glance: do all accounts sum to zero, and does every cached balance match its entries? */
export function ReconciliationStatus() {
  const { data, isPending, isFetching, error, refetch } = useQuery(reconciliationQuery);
  return (
    <section className="card" aria-labelledby="ledger-check-title" aria-busy={isFetching}>
      <h2 id="ledger-check-title">Ledger check</h2>
      {isPending ? (
        <Spinner label="Checking the ledger" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : (
        <>
          <p className="row">
            <span className={`badge ${data.balanced ? 'green' : 'red'}`} data-testid="ledger-status">
              {data.balanced ? 'Balanced' : 'Out of balance'}
            </span>
            <span className="muted">
              {data.accounts_checked} {data.accounts_checked === 1 ? 'account' : 'accounts'} checked,{' '}
              {formatDateTime(data.checked_at)}
            </span>
          </p>
          {data.ledger_sum !== '0.00' ? (
            <p>
              Sum of all accounts: <strong>{formatUsd(data.ledger_sum)}</strong> (should be $0.00)
            </p>
          ) : null}
          {data.mismatches.length > 0 ? (
            <table className="table">
              <caption>Accounts whose balance differs from their entries</caption>
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Balance held</th>
                  <th scope="col">Sum of entries</th>
                </tr>
              </thead>
              <tbody>
                {data.mismatches.map((m) => (
                  <tr key={m.account_id}>
                    <td>{m.code}</td>
                    <td>{m.owner_email ?? 'Platform'}</td>
                    <td>{formatUsd(m.cached)}</td>
                    <td>{formatUsd(m.computed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <button type="button" className="button" disabled={isFetching} onClick={() => refetch()}>
            {isFetching ? 'Checking...' : 'Check again'}
          </button>
        </>
      )}
    </section>
  );
}
