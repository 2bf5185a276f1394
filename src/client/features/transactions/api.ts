import { queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import { API_BASE } from '../../../shared/constants.ts';
import {
  type AdminTransactionPage,
  type matrixSchema,
  TRANSACTION_MESSAGES,
  TRANSACTION_TABLES,
  type TransactionFit,
  type TransactionPage,
  type TransactionStatus,
  type TransactionTable,
  type TransactionType,
} from '../../../shared/transactions.ts';
import { ApiError, api } from '../../lib/http.ts';

export type Matrix = v.InferOutput<typeof matrixSchema>['matrix'];

/** What the screen asks GET /tr/user for; empty values are left out of the address. */
export type TransactionFilter = {
  transaction_type?: TransactionType;
  status?: TransactionStatus;
  direction?: 'credit' | 'debit';
  source?: string;
  search?: string;
  page: number;
};

/**
 * docs/app.md: `table_name` picks the type (all_transaction: every type) and `fit` narrows it: in/out
 * by direction, a status, or `invest` (the top-ups that earn the ROI). The address's own filters add to it.
 */
export function filterOf(
  table: TransactionTable,
  fit: TransactionFit | undefined,
  extra: { status?: TransactionStatus; source?: string; search?: string; page?: number },
): TransactionFilter {
  const filter: TransactionFilter = {
    transaction_type: TRANSACTION_TABLES[table] ?? undefined,
    status: extra.status,
    source: extra.source || undefined,
    search: extra.search || undefined,
    page: extra.page ?? 1,
  };
  if (fit === 'in') filter.direction = 'credit';
  if (fit === 'out') filter.direction = 'debit';
  if (fit === 'pending' || fit === 'completed' || fit === 'failed') filter.status = fit;
  if (fit === 'invest') filter.transaction_type = 'topup';
  return filter;
}

const toQuery = (filter: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== '') query.set(key, String(value));
  return query.toString();
};

/** Spec 8: the server's message, else the spec's fallback (never the browser's own words). */
async function orFallback<T>(call: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ApiError ? error : new Error(fallback);
  }
}

/** A member's transactions, one page (spec 9: 10) at a time, newest first; re-asked on every visit. */
export const memberTransactionsQuery = (memberId: string, filter: TransactionFilter) =>
  queryOptions({
    queryKey: ['transactions', 'member', memberId, filter],
    queryFn: () =>
      orFallback(
        () => api<TransactionPage>('GET', `/tr/user/${encodeURIComponent(memberId)}?${toQuery(filter)}`),
        TRANSACTION_MESSAGES.fetchUserFailed,
      ),
    staleTime: 0,
  });

export type AdminTransactionFilter = Omit<TransactionFilter, 'direction'> & { user?: string };

/** Every member's transactions for an admin, 20 a page. Not under the persisted ['admin'] key. */
export const ADMIN_TRANSACTIONS_LIMIT = 20;
export const allTransactionsQuery = (filter: AdminTransactionFilter) =>
  queryOptions({
    queryKey: ['transactions', 'all', filter],
    queryFn: () =>
      orFallback(
        () =>
          api<AdminTransactionPage>(
            'GET',
            `/tr/all?${toQuery({ ...filter, limit: ADMIN_TRANSACTIONS_LIMIT })}`,
          ),
        TRANSACTION_MESSAGES.fetchFailed,
      ),
    staleTime: 0,
  });

export const transactionsExportUrl = ({ page: _page, ...filter }: AdminTransactionFilter) =>
  `${API_BASE}/tr/export?${toQuery(filter)}`;

export const matrixQuery = (month?: string) =>
  queryOptions({
    queryKey: ['transactions', 'matrix', month ?? null],
    queryFn: () =>
      orFallback(
        () => api<{ matrix: Matrix }>('GET', `/tr/matrix${month ? `?month=${month}` : ''}`),
        TRANSACTION_MESSAGES.summaryFailed,
      ),
    staleTime: 0,
  });
