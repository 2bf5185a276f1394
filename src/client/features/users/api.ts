import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import type { AuditList } from '../../../shared/audit.ts';
import { API_BASE } from '../../../shared/constants.ts';
import type { DirectMember } from '../../../shared/team.ts';
import type { TicketList } from '../../../shared/tickets.ts';
import type { Topup } from '../../../shared/topups.ts';
import type { TransactionPage } from '../../../shared/transactions.ts';
import type {
  DeletionPreview,
  MemberCounts,
  MemberDetail,
  MemberFilter,
  UserList,
} from '../../../shared/users.ts';
import type { Withdrawal } from '../../../shared/withdrawals.ts';
import { api } from '../../lib/http.ts';

export const memberCountsQuery = queryOptions({
  queryKey: ['users', 'counts'],
  queryFn: () => api<MemberCounts>('GET', '/users/counts'),
});

/** The members list's state as it stands in the address bar; undefined parts are left out. */
export type MemberListParams = Partial<MemberFilter> & { page: number };

const toQuery = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  return search.toString();
};

export const memberListQuery = (params: MemberListParams) =>
  queryOptions({
    queryKey: ['users', 'list', params],
    queryFn: () => api<UserList>('GET', `/users/list?${toQuery(params)}`),
    // The old page stays on screen while the next one loads: the table does not jump.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** The CSV of the current filter (every page): a plain link, so the browser downloads it with the session cookie. */
export const memberExportUrl = ({ page: _page, ...filter }: MemberListParams) =>
  `${API_BASE}/users/export?${toQuery(filter)}`;

export const memberDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'detail', id],
    queryFn: () => api<MemberDetail>('GET', `/users/${encodeURIComponent(id)}/detail`),
    staleTime: 0,
  });

export const deletionPreviewQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'deletion', id],
    queryFn: () => api<DeletionPreview>('GET', `/users/${encodeURIComponent(id)}/deletion`),
    staleTime: 0,
    gcTime: 0,
  });

/** Spec 7: PUT /users/{id} with the edited fields plus updated_at. */
export const saveMember = (id: string, edited: Record<string, unknown>) =>
  api<{ message: string }>('PUT', `/users/${encodeURIComponent(id)}`, {
    ...edited,
    updated_at: new Date().toISOString(),
  });

export const deleteMember = (id: string) =>
  api<{ message: string; outcome: 'erased' | 'deactivated' }>('DELETE', `/users/${encodeURIComponent(id)}`);

export const endMemberSessions = (id: string) =>
  api<{ message: string; ended: number }>('DELETE', `/users/${encodeURIComponent(id)}/sessions`);

/** After any change to a member: every list, count, detail and the audit log are read again. */
export const refreshMembers = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['users'] }),
    queryClient.invalidateQueries({ queryKey: ['audit'] }),
  ]);

export type AuditParams = { member?: string | undefined; admin?: string | undefined; page: number };

export const auditLogQuery = (params: AuditParams) =>
  queryOptions({
    queryKey: ['audit', params],
    queryFn: () => api<AuditList>('GET', `/audit?${toQuery(params)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

// The member page's records: the admin calls that read one member's investments, withdrawals,
// deposits, team and tickets, each asked only when its tab opens.
const memberPath = (id: string) => encodeURIComponent(id);

/** Top-ups the member received or paid for someone, newest first (the call's most: 200). */
export const memberTopupsQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'records', id, 'investments'],
    queryFn: () => api<{ topups: Topup[]; total: number }>('GET', `/topup/by/${memberPath(id)}?limit=200`),
    staleTime: 0,
  });

/** Every withdrawal request of the member, in the queue's order (pending first, oldest first). */
export const memberWithdrawalsQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'records', id, 'withdrawals'],
    queryFn: async () =>
      (await api<{ withdrawals: Withdrawal[] }>('GET', `/withdrawalrequest/list?user_id=${memberPath(id)}`))
        .withdrawals,
    staleTime: 0,
  });

/** Deposits credited to the member from the ledger (payments, on-chain and manual), newest 100. */
export const memberDepositsQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'records', id, 'deposits'],
    queryFn: () =>
      api<TransactionPage>('GET', `/tr/user/${memberPath(id)}?transaction_type=deposit&limit=100`),
    staleTime: 0,
  });

/** The member's direct members, each with their own investment and team. */
export const memberTeamQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'records', id, 'team'],
    queryFn: async () =>
      (await api<{ members: DirectMember[] }>('GET', `/referral/list/${memberPath(id)}`)).members,
    staleTime: 0,
  });

/** The member's tickets, most recently active first. */
export const memberTicketsQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', 'records', id, 'tickets'],
    queryFn: async () => (await api<TicketList>('GET', `/tickets/${memberPath(id)}`)).tickets,
    staleTime: 0,
  });
