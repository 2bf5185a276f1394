import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as v from 'valibot';
import { API_BASE } from '../../../shared/constants.ts';
import { addDays, dateOf } from '../../../shared/dates.ts';
import {
  type ReportGroup,
  type ReportId,
  type ReportQuery,
  type Reports,
  reportQuerySchema,
} from '../../../shared/reports.ts';
import { api } from '../../lib/http.ts';

/** The period as it stands in the address bar (from and to are UTC dates, both included). */
export type ReportParams = ReportQuery;

/** The period the screen opens with: the last 30 UTC days, by day. */
export const defaultPeriod = (): ReportParams => ({
  from: addDays(dateOf(), -29),
  to: dateOf(),
  group: 'day',
});

/** The period the address names, checked with the server's schema; the last 30 days when it names none or a bad one. */
export function periodFromAddress(search: { from?: string; to?: string; group?: string }): ReportParams {
  const fallback = defaultPeriod();
  const checked = v.safeParse(reportQuerySchema, {
    from: search.from ?? fallback.from,
    to: search.to ?? fallback.to,
    group: search.group ?? fallback.group,
  });
  return checked.success ? checked.output : fallback;
}

const toQuery = (params: ReportParams & { report?: ReportId }) =>
  new URLSearchParams(
    Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][],
  ).toString();

export const reportsQuery = (params: ReportParams) =>
  queryOptions({
    queryKey: ['reports', params],
    queryFn: () => api<Reports>('GET', `/admin/reports?${toQuery(params)}`),
    // The last period's figures stay on screen while the next one loads: the page does not jump.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** One report's CSV: a plain link, so the browser downloads it with the session cookie. */
export const reportExportUrl = (params: ReportParams, report: ReportId) =>
  `${API_BASE}/admin/reports/export?${toQuery({ ...params, report })}`;

/** Today (UTC) alone, for the dashboard's card. */
export const todayPeriod = (): ReportParams => {
  const today = dateOf();
  return { from: today, to: today, group: 'day' satisfies ReportGroup };
};
