import { queryOptions } from '@tanstack/react-query';
import type { MemberCounts } from '../../../shared/users.ts';
import { api } from '../../lib/http.ts';

export const memberCountsQuery = queryOptions({
  queryKey: ['users', 'counts'],
  queryFn: () => api<MemberCounts>('GET', '/users/counts'),
});
