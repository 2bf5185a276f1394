import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import '../payments.css';
import { coinAmount, cryptoUnits, type Payment } from '../../../../shared/payments.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { myPaymentsQuery } from '../api.ts';
import { PaymentStatusBadge, paymentStatusLabel } from './payment-status-badge.tsx';

/** Nothing arrived yet reads as a dash, not "0 USDT". */
const received = (paid: string | null) => (cryptoUnits(paid) ? coinAmount(paid ?? '') : '—');

// Each cell is one element: on a phone a stacked cell lays its label and its content side by side,
// so a second node would become a column of its own.
const COLUMNS: DataColumn<Payment>[] = [
  {
    id: 'deposit',
    header: 'Deposit (USD)',
    cell: (p) => <strong data-testid="deposit-amount">{formatUsd(p.price_amount)} USD</strong>,
    sortValue: (p) => parseCents(p.price_amount) ?? 0,
    csv: (p) => p.price_amount,
    className: 'num',
    descFirst: true,
  },
  {
    id: 'status',
    header: 'Status',
    cell: (p) => <PaymentStatusBadge status={p.payment_status} />,
    sortValue: (p) => paymentStatusLabel(p.payment_status),
    csv: (p) => paymentStatusLabel(p.payment_status),
  },
  {
    id: 'date',
    header: 'Date',
    cell: (p) => <span data-testid="deposit-date">{formatDateTime(p.created_at)}</span>,
    sortValue: (p) => p.created_at,
    csv: (p) => p.created_at,
    descFirst: true,
  },
  {
    id: 'id',
    header: 'Payment ID',
    cell: (p) => (
      <span className="break" data-testid="deposit-id">
        {p.payment_id}
      </span>
    ),
    searchText: (p) => p.payment_id,
    csv: (p) => p.payment_id,
  },
  {
    id: 'asked',
    header: 'Amount to send',
    cell: (p) => <span data-testid="deposit-asked">{coinAmount(p.pay_amount)}</span>,
    csv: (p) => coinAmount(p.pay_amount),
  },
  {
    id: 'received',
    header: 'Received',
    cell: (p) => <span data-testid="deposit-received">{received(p.actually_paid)}</span>,
    csv: (p) => (cryptoUnits(p.actually_paid) ? coinAmount(p.actually_paid ?? '') : ''),
  },
  {
    id: 'credited',
    header: 'Credited to your Active Wallet (USD)',
    cell: (p) => (
      <span data-testid="deposit-credited">{p.credited_amount ? formatUsd(p.credited_amount) : '—'}</span>
    ),
    csv: (p) => p.credited_amount ?? '',
    className: 'num',
  },
];

/** The member's own deposits, newest first: what was asked, what arrived and what the Active Wallet got. */
export function DepositHistory() {
  const query = useQuery(myPaymentsQuery);
  // Stacked on a phone: every fact of a deposit stays on screen, each named, without scrolling sideways.
  return (
    <div className="deposit-history">
      <DataTable
        caption="Your deposits"
        columns={COLUMNS}
        rows={query.data?.payments}
        rowKey={(p) => p.payment_id}
        rowProps={(p) => ({ 'data-payment-id': p.payment_id })}
        status={query}
        empty={<span data-testid="deposits-empty">No deposits yet.</span>}
        emptyAction={
          <Link to="/user/add-money" className="button">
            Add money
          </Link>
        }
        noun={['deposit', 'deposits']}
        testId="deposit-history"
        layout="stacked"
        searchLabel="Search by payment ID"
        csvName="deposits"
        initialSort={{ id: 'date', desc: true }}
        pageSize={10}
      />
    </div>
  );
}
