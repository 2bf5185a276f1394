import { type QueryClient, queryOptions } from '@tanstack/react-query';
import {
  SALARY_MESSAGES as M,
  type SalaryDashboard,
  type SalaryPage,
  type SalaryPayment,
  type SalaryTier,
  type SalaryTierStat,
  type SalaryTodayStats,
  type UserSalary,
} from '../../../shared/salary.ts';
import { ApiError, api } from '../../lib/http.ts';

// Salary (docs/api.md "Salary"): the tiers an admin keeps, the spec's six reads, and a month run by hand.

export type SalaryTierFields = {
  name: string;
  min_business: string;
  min_active_directs: number | string;
  amount: string;
};
export type SalaryListFilter = { page: number; limit: number; month?: string; search?: string };

/** Spec 8: the server's message, else the spec's fallback (never the browser's own words). */
async function orFallback<T>(call: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ApiError ? error : new Error(fallback);
  }
}

const toQuery = (filter: SalaryListFilter) => {
  const params = new URLSearchParams({ page: String(filter.page), limit: String(filter.limit) });
  if (filter.month) params.set('month', filter.month);
  if (filter.search) params.set('search', filter.search);
  return params.toString();
};
const path = (id: string) => encodeURIComponent(id);

export const salaryTiersQuery = queryOptions({
  queryKey: ['salary', 'tiers'],
  queryFn: () => api<{ tiers: SalaryTier[] }>('GET', '/salary/tiers'),
  staleTime: 0,
});

export const userSalariesQuery = (filter: SalaryListFilter) =>
  queryOptions({
    queryKey: ['salary', 'user-salaries', filter],
    queryFn: () =>
      orFallback(
        () => api<SalaryPage<UserSalary>>('GET', `/salary/user-salaries?${toQuery(filter)}`),
        M.fetchUserSalariesFailed,
      ),
    staleTime: 0,
  });

export const salaryTransactionsQuery = (filter: SalaryListFilter) =>
  queryOptions({
    queryKey: ['salary', 'transactions', filter],
    queryFn: () =>
      orFallback(
        () => api<SalaryPage<SalaryPayment>>('GET', `/salary/transactions?${toQuery(filter)}`),
        M.fetchTransactionsFailed,
      ),
    staleTime: 0,
  });

export const salaryTodayStatsQuery = queryOptions({
  queryKey: ['salary', 'today-stats'],
  queryFn: () =>
    orFallback(() => api<SalaryTodayStats>('GET', '/salary/today-stats'), M.fetchTodayStatsFailed),
  staleTime: 0,
});

export const salaryHistoryQuery = (userId: string, filter: SalaryListFilter) =>
  queryOptions({
    queryKey: ['salary', 'history', userId, filter],
    queryFn: () =>
      orFallback(
        () =>
          api<SalaryPage<SalaryPayment>>('GET', `/salary/user-history/${path(userId)}?${toQuery(filter)}`),
        M.fetchUserHistoryFailed,
      ),
    staleTime: 0,
  });

export const salaryTierStatsQuery = queryOptions({
  queryKey: ['salary', 'tier-stats'],
  queryFn: () =>
    orFallback(() => api<{ tiers: SalaryTierStat[] }>('GET', '/salary/tier-stats'), M.fetchTierStatsFailed),
  staleTime: 0,
});

export const salaryDashboardQuery = queryOptions({
  queryKey: ['salary', 'admin-dashboard'],
  queryFn: () =>
    orFallback(() => api<SalaryDashboard>('GET', '/salary/admin-dashboard'), M.fetchDashboardFailed),
  staleTime: 0,
});

const tierBody = (fields: SalaryTierFields) => ({
  ...fields,
  min_active_directs: Number(fields.min_active_directs),
});
export const createSalaryTier = (fields: SalaryTierFields) =>
  api<{ message: string; tier: SalaryTier }>('POST', '/salary/tiers', tierBody(fields));
export const updateSalaryTier = (id: string, fields: SalaryTierFields) =>
  api<{ message: string; tier: SalaryTier }>('PUT', `/salary/tiers/${path(id)}`, tierBody(fields));
export const deleteSalaryTier = (id: string) =>
  api<{ message: string }>('DELETE', `/salary/tiers/${path(id)}`);

export const runSalaryMonth = (month: string) =>
  api<{ message: string; run: { month: string; members_paid: number; total: string } }>(
    'POST',
    '/salary/run',
    { month },
  );

export const refreshSalary = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['salary'] });
