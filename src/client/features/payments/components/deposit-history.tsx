import { useQuery } from '@tanstack/react-query';
import '../payments.css';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { myPaymentsQuery } from '../api.ts';
import { PaymentStatusBadge } from './payment-status-badge.tsx';

/** The member's own crypto payments, newest first, and what each credited to the Active Wallet. */
export function DepositHistory() {
  const { data, isPending, error, refetch } = useQuery(myPaymentsQuery);
  if (isPending) return <Spinner label="Loading your deposits" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  if (data.payments.length === 0)
    return (
      <p className="card muted" data-testid="deposits-empty">
        No crypto payments yet.
      </p>
    );
  // A phone-width list rather than a table: every fact of a payment stays on screen without scrolling sideways.
  return (
    <ul className="deposit-list" data-testid="deposit-history" aria-label="Your crypto payments">
      {data.payments.map((p) => (
        <li key={p.payment_id} className="card deposit-item" data-payment-id={p.payment_id}>
          <div className="deposit-head">
            <strong data-testid="deposit-amount">{formatMoney(p.price_amount)}</strong>
            <PaymentStatusBadge status={p.payment_status} />
          </div>
          <dl className="facts">
            <div>
              <dt>Date</dt>
              <dd data-testid="deposit-date">{formatDateTime(p.created_at)}</dd>
            </div>
            <div>
              <dt>Payment ID</dt>
              <dd className="break" data-testid="deposit-id">
                {p.payment_id}
              </dd>
            </div>
            <div>
              <dt>Credited</dt>
              <dd data-testid="deposit-credited">
                {p.credited_amount ? formatMoney(p.credited_amount) : '—'}
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
