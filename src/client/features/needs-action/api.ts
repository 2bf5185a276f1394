import { queryOptions } from '@tanstack/react-query';
import { NEEDS_ACTION_REFRESH_MS, type NeedsAction } from '../../../shared/needs-action.ts';
import { api } from '../../lib/http.ts';

/**
 * The dashboard's "Needs action". Nothing about withdrawals, deposits or runs is pushed on the live
 * channel, so it asks again on an interval while the tab is in view (and on return to the tab).
 */
export const needsActionQuery = queryOptions({
  queryKey: ['needs-action'],
  queryFn: () => api<NeedsAction>('GET', '/admin/needs-action'),
  // The app's default keeps data fresh for a while; these counts are asked again on every visit.
  staleTime: 0,
  refetchOnWindowFocus: true,
  refetchInterval: NEEDS_ACTION_REFRESH_MS,
  refetchIntervalInBackground: false,
});
