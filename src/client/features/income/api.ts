import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import type {
  IncomeOverview,
  IncomeRunList,
  IncomeRunResult,
  IncomeSummary,
} from '../../../shared/income.ts';
import { api } from '../../lib/http.ts';

// The daily income screens (docs/api.md "Income"): the admin's runs, its income paid against deposits
// received and the run of a date by hand; the member's own income and investments.

export const RUNS_PAGE_SIZE = 20;

export const incomeRunsQuery = (page: number) =>
  queryOptions({
    queryKey: ['income', 'runs', page],
    queryFn: () => api<IncomeRunList>('GET', `/income/runs?page=${page}&limit=${RUNS_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const incomeOverviewQuery = queryOptions({
  queryKey: ['income', 'overview'],
  queryFn: () => api<IncomeOverview>('GET', '/income/overview?months=12'),
  staleTime: 0,
});

export const incomeSummaryQuery = queryOptions({
  queryKey: ['income', 'summary'],
  queryFn: () => api<IncomeSummary>('GET', '/income/summary'),
  staleTime: 0,
});

export const runIncomeDate = (date: string) => api<IncomeRunResult>('POST', '/income/run', { date });

/** A run changes the runs, the totals and every member's income. */
export const refreshIncome = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['income'] });
