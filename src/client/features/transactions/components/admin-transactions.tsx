import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { kindLabel } from '../../../../shared/ledger-kinds.ts';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import {
  type ADMIN_TRANSACTION_TABS,
  type AdminTransaction,
  type MatrixRow,
  TRANSACTION_TYPES,
  type TransactionStatus,
  type TransactionType,
} from '../../../../shared/transactions.ts';
import { badgeColour } from '../../../../shared/transfers.ts';
import { LongWordBreaks } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DateTime } from '../../../ui/date-time.tsx';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { Tabs } from '../../../ui/tabs.tsx';
import {
  ADMIN_TRANSACTIONS_LIMIT,
  type AdminTransactionFilter,
  allTransactionsQuery,
  matrixQuery,
  transactionsExportUrl,
} from '../api.ts';
import { StatusSelect } from './transaction-filters.tsx';
import { statusLabel, TransactionDescription } from './transaction-row.tsx';
import '../transactions.css';

export type AdminTxTab = (typeof ADMIN_TRANSACTION_TABS)[number];

export type AdminTxSearch = {
  tab: AdminTxTab;
  type?: TransactionType;
  status?: TransactionStatus;
  user?: string;
  search?: string;
  page: number;
};

const COLUMNS: DataColumn<AdminTransaction>[] = (() => {
  // A 1366 px laptop holds every column: the time may go under the date, long names and sources (a
  // 30-character username) wrap at their joints, and a description's hashes and links read start…end
  // with a Copy button for the whole value, never past the box.
  const all: DataColumn<AdminTransaction>[] = [
    { id: 'date', header: 'Date', cell: (t) => <DateTime iso={t.created_at} /> },
    {
      id: 'member',
      header: 'Member',
      cell: (t) => (
        <span data-testid="tx-member">
          <LongWordBreaks text={t.username} />
        </span>
      ),
    },
    {
      id: 'type',
      header: 'Type',
      // The status under the type: one column fewer, so a seven-figure amount still fits the laptop.
      cell: (t) => (
        <>
          {kindLabel(t.transaction_type)}
          <br />
          <span className={`badge ${badgeColour(t.status)}`} data-status={t.status}>
            {statusLabel(t.status)}
          </span>
        </>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      cell: (t) => (
        <span data-testid="tx-amount">
          {formatUsd(t.direction === 'credit' ? t.amount : `-${t.amount}`, 'always')}
        </span>
      ),
      className: 'num',
    },
    { id: 'source', header: 'Source', cell: (t) => <LongWordBreaks text={t.source} /> },
    {
      id: 'description',
      header: 'Description',
      cell: (t) => (t.description ? <TransactionDescription text={t.description} /> : '—'),
    },
  ];
  return all;
})();

const MATRIX_COLUMNS: DataColumn<MatrixRow>[] = [
  {
    id: 'month',
    header: 'Month',
    cell: (m) => m.month,
    sortValue: (m) => m.month,
    csv: (m) => m.month,
    descFirst: true,
  },
  {
    id: 'type',
    header: 'Type',
    cell: (m) => kindLabel(m.transaction_type),
    sortValue: (m) => m.transaction_type,
    csv: (m) => m.transaction_type,
  },
  {
    id: 'count',
    header: 'Count',
    cell: (m) => m.count,
    sortValue: (m) => m.count,
    csv: (m) => m.count,
    className: 'num',
  },
  {
    id: 'amount',
    header: 'Total',
    cell: (m) => <span data-testid="matrix-amount">{formatUsd(m.amount)}</span>,
    sortValue: (m) => parseCents(m.amount) ?? 0,
    csv: (m) => m.amount,
    className: 'num',
    descFirst: true,
  },
];

/** What each tab fixes of the filter: top-ups, everything, or transfers waiting for review. */
function filterOf(s: AdminTxSearch): AdminTransactionFilter {
  const base = { user: s.user, search: s.search, page: s.page };
  if (s.tab === 'topups') return { ...base, transaction_type: 'topup', status: s.status };
  if (s.tab === 'review') return { ...base, transaction_type: 'transfer', status: 'pending' };
  return { ...base, transaction_type: s.type, status: s.status };
}

export function AdminTransactions({
  search,
  onSearch,
  review,
}: {
  search: AdminTxSearch;
  onSearch: (next: AdminTxSearch) => void;
  /**
   * The Transfers to review tab: the transfers feature's list (sender and recipient, each decision
   * confirmed), given by the route; features never import each other.
   */
  review: ReactNode;
}) {
  const filter = filterOf(search);
  // The review tab shows the transfers feature's list instead: nothing to ask here.
  const query = useQuery({ ...allTransactionsQuery(filter), enabled: search.tab !== 'review' });
  const [member, setMember] = useState(search.user ?? '');
  // Back and forward change the address while the screen stays: the box follows it.
  useEffect(() => setMember(search.user ?? ''), [search.user]);
  const set = (changes: Partial<AdminTxSearch>) => onSearch({ ...search, page: 1, ...changes });
  const data = query.data;
  const applyMember = (event: FormEvent) => {
    event.preventDefault();
    set({ user: member.trim() || undefined });
  };

  return (
    <div className="stack">
      <Tabs
        label="Transactions"
        active={search.tab}
        onChange={(tab) => set({ tab, type: undefined, status: undefined })}
        tabs={[
          { key: 'topups', label: 'Top-ups' },
          { key: 'all', label: 'All transactions' },
          { key: 'review', label: 'Transfers to review' },
        ]}
      >
        {search.tab === 'review' ? (
          review
        ) : (
          <section className="card">
            <DataTable
              caption="Transactions"
              columns={COLUMNS}
              rows={data?.transactions}
              rowKey={(t) => t.transaction_id}
              rowProps={(t) => ({ 'data-transaction-id': t.transaction_id })}
              status={query}
              empty="No transactions match."
              noun={['transaction', 'transactions']}
              testId="admin-transactions"
              searchLabel="Search source, description or id"
              pageSize={ADMIN_TRANSACTIONS_LIMIT}
              server={{
                page: search.page,
                pages: Math.max(1, data?.totalPages ?? 1),
                total: data?.total ?? 0,
                onPage: (page) => onSearch({ ...search, page }),
                search: search.search,
                onSearch: (text) => set({ search: text.trim() || undefined }),
                csvHref: transactionsExportUrl(filter),
              }}
              toolbar={
                <form className="row" onSubmit={applyMember}>
                  {search.tab === 'all' ? (
                    <SelectField
                      label="Type"
                      name="type"
                      value={search.type ?? ''}
                      onChange={(e) =>
                        set({ type: (e.target.value || undefined) as TransactionType | undefined })
                      }
                    >
                      <option value="">All types</option>
                      {TRANSACTION_TYPES.map((t) => (
                        <option key={t} value={t}>
                          {kindLabel(t)}
                        </option>
                      ))}
                    </SelectField>
                  ) : null}
                  <StatusSelect value={search.status} onChange={(status) => set({ status })} />
                  <FormField
                    label="Member"
                    name="user"
                    value={member}
                    placeholder="Id, e-mail or username"
                    onChange={(e) => setMember(e.target.value)}
                  />
                  <button type="submit" className="button">
                    Apply
                  </button>
                </form>
              }
            />
          </section>
        )}
      </Tabs>
      <MonthlyTotals />
    </div>
  );
}

/** GET /tr/matrix: per month and type, how many and how much. */
function MonthlyTotals() {
  const query = useQuery(matrixQuery());
  return (
    <section className="card" aria-labelledby="matrix-title">
      <h2 id="matrix-title">Totals by month</h2>
      <DataTable
        caption="Totals by month and type"
        columns={MATRIX_COLUMNS}
        rows={query.data?.matrix}
        rowKey={(m) => `${m.month}:${m.transaction_type}`}
        status={query}
        empty="No transactions yet."
        noun={['total', 'totals']}
        testId="transaction-matrix"
        csvName="transaction-totals"
        initialSort={{ id: 'month', desc: true }}
      />
    </section>
  );
}
