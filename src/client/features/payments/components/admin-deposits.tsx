import { useQuery } from '@tanstack/react-query';
import '../payments.css';
import { useState } from 'react';
import { PAY_COIN_LABEL, PAYMENT_STATUSES, type PaymentStatus } from '../../../../shared/payments.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { SelectField } from '../../../ui/form-field.tsx';
import { Pager } from '../../../ui/pager.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { type AdminPayment, allPaymentsQuery } from '../api.ts';
import { ManualCreditDialog } from './manual-credit-dialog.tsx';
import { PaymentStatusBadge, paymentStatusLabel } from './payment-status-badge.tsx';

export const ADMIN_PAYMENTS_LIMIT = 50;

/** A partial payment credits nothing by itself (RULES.md "Deposits"): support may credit it once, by hand. */
const creditable = (p: AdminPayment) => p.payment_status === 'partially_paid' && p.credited_amount === null;

/** Every crypto deposit, filtered by status, a page at a time. */
export function AdminDeposits({
  status,
  page,
  onFilter,
}: {
  status: PaymentStatus | undefined;
  page: number;
  onFilter: (next: { status: PaymentStatus | undefined; page: number }) => void;
}) {
  const { data, isPending, error, refetch } = useQuery(
    allPaymentsQuery({ status, page, limit: ADMIN_PAYMENTS_LIMIT }),
  );
  const [crediting, setCrediting] = useState<AdminPayment | null>(null);
  const [done, setDone] = useState('');
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  return (
    <section className="card" aria-labelledby="deposits-title">
      <h2 id="deposits-title">Crypto deposits</h2>
      <div className="filters">
        <SelectField
          label="Status"
          name="status"
          value={status ?? ''}
          onChange={(e) =>
            onFilter({ status: (e.target.value || undefined) as PaymentStatus | undefined, page: 1 })
          }
        >
          <option value="">All statuses</option>
          {PAYMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {paymentStatusLabel(s)}
            </option>
          ))}
        </SelectField>
      </div>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {isPending ? (
        <Spinner label="Loading crypto deposits" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : data.payments.length === 0 ? (
        <p className="muted" data-testid="admin-deposits-empty">
          No crypto deposits{status ? ` with the status ${paymentStatusLabel(status)}` : ''}.
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table deposits-table" data-testid="admin-deposits">
              <caption className="visually-hidden">Crypto deposits</caption>
              <thead>
                <tr>
                  <th scope="col">Date and payment ID</th>
                  <th scope="col">Member</th>
                  <th scope="col">Deposit (USD)</th>
                  <th scope="col">
                    To send / received
                    <br />
                    <span className="muted">{PAY_COIN_LABEL}</span>
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Credited (USD)</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {data.payments.map((p) => (
                  <tr key={p.payment_id} data-payment-id={p.payment_id}>
                    <td className="nowrap">
                      {formatDateTime(p.created_at)}
                      <br />
                      <span className="muted" data-testid="payment-id">
                        {p.payment_id}
                      </span>
                    </td>
                    <td className="member-cell">
                      {p.member_name}
                      <br />
                      <span className="muted">{p.member_email}</span>
                    </td>
                    <td className="nowrap">{formatMoney(p.price_amount)}</td>
                    <td className="nowrap">
                      {p.pay_amount}
                      <br />
                      <span className="muted">received {p.actually_paid ?? '0'}</span>
                    </td>
                    <td>
                      <PaymentStatusBadge status={p.payment_status} />
                    </td>
                    <td className="nowrap">{p.credited_amount ? formatMoney(p.credited_amount) : '—'}</td>
                    <td>
                      {creditable(p) ? (
                        <button
                          type="button"
                          className="button small primary nowrap"
                          onClick={() => {
                            setDone('');
                            setCrediting(p);
                          }}
                        >
                          Credit by hand
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of crypto deposits"
            page={page}
            pages={pages}
            total={data.total}
            noun={['deposit', 'deposits']}
            onPage={(next) => onFilter({ status, page: next })}
          />
        </>
      )}
      <ManualCreditDialog
        payment={crediting}
        onClose={() => setCrediting(null)}
        onCredited={(message) => {
          setCrediting(null);
          setDone(message);
        }}
      />
    </section>
  );
}
