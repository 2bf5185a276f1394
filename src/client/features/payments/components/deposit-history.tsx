import { useQuery } from '@tanstack/react-query';
import '../payments.css';
import { coinAmount, cryptoUnits } from '../../../../shared/payments.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { myPaymentsQuery } from '../api.ts';
import { PaymentStatusBadge } from './payment-status-badge.tsx';

/** Nothing arrived yet reads as a dash, not "0 USDT". */
const received = (paid: string | null) => (cryptoUnits(paid) ? coinAmount(paid ?? '') : '—');

/** The member's own deposits, newest first: what was asked, what arrived and what the Active Wallet got. */
export function DepositHistory() {
  const { data, isPending, error, refetch } = useQuery(myPaymentsQuery);
  if (isPending) return <Spinner label="Loading your deposits" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  if (data.payments.length === 0)
    return (
      <p className="card muted" data-testid="deposits-empty">
        No deposits yet.
      </p>
    );
  // A phone-width list rather than a table: every fact of a deposit stays on screen without scrolling sideways.
  return (
    <ul className="deposit-list" data-testid="deposit-history" aria-label="Your deposits">
      {data.payments.map((p) => (
        <li key={p.payment_id} className="card deposit-item" data-payment-id={p.payment_id}>
          <div className="deposit-head">
            <strong data-testid="deposit-amount">{formatMoney(p.price_amount)} USD</strong>
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
              <dt>Amount to send</dt>
              <dd data-testid="deposit-asked">{coinAmount(p.pay_amount)}</dd>
            </div>
            <div>
              <dt>Received</dt>
              <dd data-testid="deposit-received">{received(p.actually_paid)}</dd>
            </div>
            <div>
              <dt>Credited to your Active Wallet (USD)</dt>
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
