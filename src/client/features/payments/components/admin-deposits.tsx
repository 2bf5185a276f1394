import { useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import '../payments.css';
import { useMemo, useState } from 'react';
import { PAY_COIN_LABEL, PAYMENT_STATUSES, type PaymentStatus } from '../../../../shared/payments.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { type AdminPayment, allPaymentsQuery } from '../api.ts';
import { ManualCreditDialog } from './manual-credit-dialog.tsx';
import { PaymentStatusBadge, paymentStatusLabel } from './payment-status-badge.tsx';

export const ADMIN_PAYMENTS_LIMIT = 50;

/**
 * An e-mail address may wrap only after its dots and before the @, never inside a word: without these
 * break points a long address widens the Member column past a laptop's screen.
 */
function breakableEmail(email: string) {
  return email.split(/(?<=\.)|(?=@)/).map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address, in a fixed order
    <span key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </span>
  ));
}

/** A partial payment credits nothing by itself (RULES.md "Deposits"): support may credit it once, by hand. */
const creditable = (p: AdminPayment) => p.payment_status === 'partially_paid' && p.credited_amount === null;

function columns(onCredit: (p: AdminPayment) => void): DataColumn<AdminPayment>[] {
  return [
    {
      id: 'created',
      header: 'Date and payment ID',
      cell: (p) => (
        <>
          {formatDateTime(p.created_at)}
          <br />
          <span className="muted" data-testid="payment-id">
            {p.payment_id}
          </span>
        </>
      ),
      className: 'one-line',
    },
    {
      id: 'member',
      header: 'Member',
      cell: (p) => (
        <>
          {p.member_name}
          <br />
          <span className="muted" data-testid="member-email">
            {breakableEmail(p.member_email)}
          </span>
        </>
      ),
    },
    { id: 'deposit', header: 'Deposit (USD)', cell: (p) => formatUsd(p.price_amount), className: 'usd' },
    {
      id: 'coin',
      // The coin is named once, in full, on a line of its own under the heading (`coin-col` keeps the line break).
      header: `To send / received\n${PAY_COIN_LABEL}`,
      cell: (p) => (
        <>
          {p.pay_amount}
          <br />
          <span className="muted">received {p.actually_paid ?? '0'}</span>
        </>
      ),
      className: 'one-line coin-col',
    },
    {
      id: 'status',
      header: 'Status',
      cell: (p) => <PaymentStatusBadge status={p.payment_status} />,
      className: 'one-line',
    },
    {
      id: 'credited',
      header: 'Credited (USD)',
      cell: (p) => (p.credited_amount ? formatUsd(p.credited_amount) : '—'),
      className: 'usd',
    },
    {
      id: 'action',
      header: 'Action',
      cell: (p) =>
        creditable(p) ? (
          <button type="button" className="button small primary nowrap" onClick={() => onCredit(p)}>
            Credit by hand
          </button>
        ) : null,
    },
  ];
}

/** Every crypto deposit, filtered by status, a page at a time (page and filter live in the address). */
export function AdminDeposits({
  status,
  page,
  onFilter,
}: {
  status: PaymentStatus | undefined;
  page: number;
  onFilter: (next: { status: PaymentStatus | undefined; page: number }) => void;
}) {
  const query = useQuery(allPaymentsQuery({ status, page, limit: ADMIN_PAYMENTS_LIMIT }));
  const [crediting, setCrediting] = useState<AdminPayment | null>(null);
  const [done, setDone] = useState('');
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  const tableColumns = useMemo(
    () =>
      columns((p) => {
        setDone('');
        setCrediting(p);
      }),
    [],
  );

  return (
    <section className="card admin-deposits" aria-labelledby="deposits-title">
      <h2 id="deposits-title">Crypto deposits</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption="Crypto deposits"
        columns={tableColumns}
        rows={data?.payments}
        rowKey={(p) => p.payment_id}
        rowProps={(p) => ({ 'data-payment-id': p.payment_id })}
        status={query}
        empty={`No crypto deposits${status ? ` with the status ${paymentStatusLabel(status)}` : ''}.`}
        noun={['deposit', 'deposits']}
        testId="admin-deposits"
        pageSize={ADMIN_PAYMENTS_LIMIT}
        server={{
          page,
          pages,
          total: data?.total ?? 0,
          onPage: (next) => onFilter({ status, page: next }),
        }}
        toolbar={
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
        }
      />
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
