import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import {
  isTransactionFit,
  isTransactionTable,
  TRANSACTION_FIT_LABELS,
  TRANSACTION_TABLE_LABELS,
  type TransactionFit,
  type TransactionTable,
} from '../../../../shared/transactions.ts';
import type { TransactionSearch } from './transaction-filters.tsx';

const clean = (search: TransactionSearch) =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined && value !== ''));

/** Moves between the lists: /user/transaction/{table_name}[/{fit}] with the filters in the address. */
export function useTransactionNavigate() {
  const navigate = useNavigate();
  return ({
    table,
    fit,
    search,
  }: {
    table: TransactionTable;
    fit?: TransactionFit;
    search: TransactionSearch;
  }) =>
    fit === 'invest' && table === 'roi_transaction'
      ? navigate({ to: '/user/transaction/roi_transaction/invest', search: clean(search) })
      : fit
        ? navigate({
            to: '/user/transaction/$table_name/$fit',
            params: { table_name: table, fit },
            search: clean(search),
          })
        : navigate({
            to: '/user/transaction/$table_name',
            params: { table_name: table },
            search: clean(search),
          });
}

/** The heading a list's kind and narrowing give it: "Transfers: Money out". */
export function transactionsTitle(table: string, fit?: string) {
  const kind = isTransactionTable(table) ? TRANSACTION_TABLE_LABELS[table] : 'Transactions';
  return fit && isTransactionFit(fit) ? `${kind}: ${TRANSACTION_FIT_LABELS[fit]}` : kind;
}

export function TransactionsPage({
  table,
  fit,
  children,
}: {
  table: string;
  fit?: string;
  children: ReactNode;
}) {
  return (
    <div className="stack">
      <h1>{transactionsTitle(table, fit)}</h1>
      {children}
      {table === 'all_transaction' && !fit ? null : (
        <Link to="/user/transaction/$table_name" params={{ table_name: 'all_transaction' }}>
          All your transactions
        </Link>
      )}
    </div>
  );
}
