import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { kindLabel } from '../../../../shared/ledger-kinds.ts';
import {
  isTransactionTable,
  TRANSACTION_FIT_LABELS,
  TRANSACTION_FITS,
  TRANSACTION_STATUSES,
  TRANSACTION_TABLE_LABELS,
  TRANSACTION_TABLES,
  TRANSACTIONS_PER_PAGE,
  type Transaction,
  type TransactionFit,
  type TransactionStatus,
  type TransactionTable,
} from '../../../../shared/transactions.ts';
import { badgeColour } from '../../../../shared/transfers.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { memberSessionQuery } from '../../auth/session.ts';
import { filterOf, memberTransactionsQuery } from '../api.ts';
import '../transactions.css';

/** What the address holds besides table_name and fit (docs/app.md). */
export type TransactionSearch = {
  status?: TransactionStatus;
  source?: string;
  search?: string;
  page?: number;
};

const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

// Each cell is one element: a stacked phone card lays its label and its content side by side.
const COLUMNS: DataColumn<Transaction>[] = [
  {
    id: 'amount',
    header: 'Amount',
    cell: (t) => (
      <strong className={t.direction === 'credit' ? 'tx-in' : 'tx-out'} data-testid="tx-amount">
        {t.direction === 'credit' ? '+' : '−'}
        {formatMoney(t.amount)}
      </strong>
    ),
    className: 'num',
  },
  {
    id: 'type',
    header: 'Type',
    cell: (t) => <span data-testid="tx-type">{kindLabel(t.transaction_type)}</span>,
  },
  {
    id: 'source',
    header: 'Source',
    cell: (t) => (
      <Link
        to="/transactions/$source"
        params={{ source: t.source }}
        className="tx-source-link"
        data-testid="tx-source"
      >
        {t.source}
      </Link>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    cell: (t) => (
      <span className={`badge ${badgeColour(t.status)}`} data-status={t.status}>
        {statusLabel(t.status)}
      </span>
    ),
  },
  {
    id: 'date',
    header: 'Date',
    cell: (t) => <span data-testid="tx-date">{formatDateTime(t.created_at)}</span>,
  },
  {
    id: 'description',
    header: 'Description',
    cell: (t) => <span className="break">{t.description ?? '—'}</span>,
  },
];

/** Where a link to another list goes: same filters, first page. */
type Navigate = (to: { table: TransactionTable; fit?: TransactionFit; search: TransactionSearch }) => void;

/**
 * The member's transactions of one kind (`table`), narrowed by `fit`, newest first, 10 a page
 * (spec 9), with the type, status, source and search filters of GET /tr/user.
 */
export function MemberTransactions({
  table,
  fit,
  search,
  onNavigate,
}: {
  table: string;
  fit?: string;
  search: TransactionSearch;
  onNavigate: Navigate;
}) {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  const knownFit = fit === undefined || (TRANSACTION_FITS as readonly string[]).includes(fit);
  if (!isTransactionTable(table) || !knownFit) return <UnknownList />;
  const validFit = fit as TransactionFit | undefined;
  return memberId ? (
    <TransactionList
      memberId={memberId}
      table={table}
      fit={validFit}
      search={search}
      onNavigate={onNavigate}
    />
  ) : null;
}

function UnknownList() {
  return (
    <div className="card" role="alert">
      <p>There is no such list of transactions.</p>
      <Link to="/user/transaction/$table_name" params={{ table_name: 'all_transaction' }} className="button">
        All transactions
      </Link>
    </div>
  );
}

function TransactionList({
  memberId,
  table,
  fit,
  search,
  onNavigate,
}: {
  memberId: string;
  table: TransactionTable;
  fit: TransactionFit | undefined;
  search: TransactionSearch;
  onNavigate: Navigate;
}) {
  const filter = filterOf(table, fit, search);
  const query = useQuery(memberTransactionsQuery(memberId, filter));
  const data = query.data;
  const go = (
    next: Partial<{ table: TransactionTable; fit: TransactionFit | undefined }>,
    changes: TransactionSearch,
  ) =>
    onNavigate({
      table: next.table ?? table,
      fit: 'fit' in next ? next.fit : fit,
      search: { ...search, page: undefined, ...changes },
    });
  const statusFromFit = fit === 'pending' || fit === 'completed' || fit === 'failed';
  const [source, setSource] = useState(search.source ?? '');
  // A source link or /transactions/{source} changes the address while this list stays on screen.
  useEffect(() => setSource(search.source ?? ''), [search.source]);
  const applySource = (event: FormEvent) => {
    event.preventDefault();
    go({}, { source: source.trim() || undefined });
  };

  return (
    <div className="stack member-transactions">
      <form className="tx-filters" onSubmit={applySource} aria-label="Filter transactions">
        <SelectField
          label="Type"
          name="table_name"
          value={table}
          onChange={(e) => go({ table: e.target.value as TransactionTable, fit: undefined }, {})}
        >
          {Object.keys(TRANSACTION_TABLES).map((name) => (
            <option key={name} value={name}>
              {TRANSACTION_TABLE_LABELS[name as TransactionTable]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Show"
          name="fit"
          value={fit ?? ''}
          onChange={(e) => go({ fit: (e.target.value || undefined) as TransactionFit | undefined }, {})}
        >
          <option value="">Everything</option>
          {TRANSACTION_FITS.map((f) => (
            <option key={f} value={f}>
              {TRANSACTION_FIT_LABELS[f]}
            </option>
          ))}
        </SelectField>
        {statusFromFit ? null : (
          <SelectField
            label="Status"
            name="status"
            value={search.status ?? ''}
            onChange={(e) =>
              go({}, { status: (e.target.value || undefined) as TransactionStatus | undefined })
            }
          >
            <option value="">Any status</option>
            {TRANSACTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </SelectField>
        )}
        <FormField
          label="Source"
          name="source"
          value={source}
          placeholder="A username or plan"
          maxLength={100}
          onChange={(e) => setSource(e.target.value)}
        />
        <button type="submit" className="button">
          Apply source
        </button>
      </form>
      <DataTable
        caption={TRANSACTION_TABLE_LABELS[table]}
        columns={COLUMNS}
        rows={data?.transactions}
        rowKey={(t) => t.transaction_id}
        rowProps={(t) => ({ 'data-transaction-id': t.transaction_id })}
        status={query}
        empty={<span data-testid="transactions-empty">No transactions found.</span>}
        noun={['transaction', 'transactions']}
        testId="member-transactions"
        layout="stacked"
        searchLabel="Search transactions"
        pageSize={TRANSACTIONS_PER_PAGE}
        server={{
          page: filter.page,
          pages: Math.max(1, data?.totalPages ?? 1),
          total: data?.total ?? 0,
          onPage: (page) => onNavigate({ table, fit, search: { ...search, page } }),
          search: search.search,
          onSearch: (text) => go({}, { search: text.trim() || undefined }),
        }}
      />
      {table === 'roi_transaction' && fit !== 'invest' ? (
        <Link to="/user/transaction/roi_transaction/invest" className="button">
          The investments that earn this ROI
        </Link>
      ) : null}
    </div>
  );
}
