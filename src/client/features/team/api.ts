import { queryOptions } from '@tanstack/react-query';
import type { DirectMember, TeamSearch, TreeNode } from '../../../shared/team.ts';
import { api } from '../../lib/http.ts';

// The member's team (docs/api.md "Team"): direct members, the tree a few levels at a time, search.

const path = (id: string) => encodeURIComponent(id);

export const directMembersQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['team', memberId, 'direct'],
    queryFn: () => api<{ members: DirectMember[] }>('GET', `/referral/list/${path(memberId)}`),
  });

export const teamTreeQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['team', memberId, 'tree'],
    queryFn: () => api<{ tree: TreeNode }>('GET', `/referral/full/${path(memberId)}`),
  });

/** One node's next level (from `offset` for "show more"). */
export const loadChildren = (memberId: string, nodeId: string, offset = 0) =>
  api<{ tree: TreeNode }>(
    'GET',
    `/referral/full/${path(memberId)}?node=${path(nodeId)}&depth=1${offset ? `&offset=${offset}` : ''}`,
  );

export const searchTeam = (memberId: string, q: string) =>
  api<TeamSearch>('GET', `/referral/search/${path(memberId)}?q=${encodeURIComponent(q)}`);

/** The member's own node: team size, team business and direct members, without the levels below. */
export const teamSummaryQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['team', memberId, 'summary'],
    queryFn: async () =>
      (await api<{ tree: TreeNode }>('GET', `/referral/full/${path(memberId)}?depth=1`)).tree,
  });
