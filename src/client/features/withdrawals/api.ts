import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import type {
  Withdrawal,
  WithdrawalDetail,
  WithdrawalKind,
  WithdrawalListQuery,
  WithdrawalOptions,
  withdrawalListSchema,
  withdrawalResultSchema,
} from '../../../shared/withdrawals.ts';
import { api } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

// Issue 16, money out: the member's request screen and the admins' decision screens share these calls.

type Message = { message: string };
export type WithdrawalResult = v.InferOutput<typeof withdrawalResultSchema>;
type WithdrawalList = v.InferOutput<typeof withdrawalListSchema>;

const path = (id: string) => encodeURIComponent(id);

/** What the member may withdraw, the limits, their addresses and investments; asked on every visit. */
export const withdrawalOptionsQuery = queryOptions({
  queryKey: ['withdrawals', 'options'],
  queryFn: () => api<WithdrawalOptions>('GET', '/withdrawalrequest/options'),
  staleTime: 0,
});

/** A member's own requests, or (admin) everyone's, filtered by status and kind. */
export const withdrawalListQuery = (filter: WithdrawalListQuery = {}) =>
  queryOptions({
    queryKey: ['withdrawals', 'list', filter.status ?? '', filter.kind ?? ''],
    queryFn: async () => {
      const search = new URLSearchParams();
      if (filter.status) search.set('status', filter.status);
      if (filter.kind) search.set('kind', filter.kind);
      const query = search.toString() ? `?${search.toString()}` : '';
      return (await api<WithdrawalList>('GET', `/withdrawalrequest/list${query}`)).withdrawals;
    },
    staleTime: 0,
  });

/** One request; for an admin with the member's recent deposits, income and totals beside it. */
export const withdrawalDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['withdrawals', 'detail', id],
    queryFn: () => api<WithdrawalDetail>('GET', `/withdrawalrequest/by/${path(id)}`),
    staleTime: 0,
  });

/** Mails the member a 6-digit code for purpose `withdrawal`; their own id and e-mail, from the session. */
export const sendWithdrawalCode = (member: { id: string; email: string }) =>
  api<Message>('POST', '/otp/send', { userId: member.id, email: member.email, purpose: 'withdrawal' });

/** The body of a request as the API takes it: money as "12.50". */
export type WithdrawalRequestBody = {
  otp: string;
  amount?: string;
  network?: 'bep20' | 'trc20';
  topup_id?: string;
  plan_id?: string;
};

const REQUEST_PATHS: Record<WithdrawalKind, string> = {
  income: '/withdrawalrequest/add',
  roi: '/withdrawalrequest/add/roiwithdrawal',
  principal: '/withdrawalrequest/add/principle',
  compound: '/withdrawalrequest/addcompoundwithdrawal',
};

/**
 * One key per press of Send: the CSRF retry inside api() resends it with the same key, so one press
 * never holds money twice; a second press is a new attempt with a new code.
 */
export const requestWithdrawal = (kind: WithdrawalKind, body: WithdrawalRequestBody) =>
  api<WithdrawalResult>('POST', REQUEST_PATHS[kind], body, { 'Idempotency-Key': newIdempotencyKey() });

/** The member cancels their own pending request: the hold is voided. */
export const cancelWithdrawal = (id: string) =>
  api<WithdrawalResult>('DELETE', `/withdrawalrequest/${path(id)}`, undefined, {
    'Idempotency-Key': newIdempotencyKey(),
  });

/** The member changes the amount of their own pending compound request. */
export const changeCompoundAmount = (id: string, amount: string) =>
  api<WithdrawalResult>(
    'PUT',
    '/withdrawalrequest/compound/amount',
    { id, amount },
    { 'Idempotency-Key': newIdempotencyKey() },
  );

const DECISION_PATHS: Record<WithdrawalKind, (id: string) => string> = {
  income: (id) => `/withdrawalrequest/${path(id)}`,
  roi: (id) => `/withdrawalrequest/update/roi/${path(id)}`,
  principal: (id) => `/withdrawalrequest/update/principle/${path(id)}`,
  compound: (id) => `/withdrawalrequest/compound/${path(id)}`,
};

export type DecisionBody = {
  status: 'approved' | 'rejected';
  amount: string;
  user_id: string;
  tx_hash?: string;
  reason?: string;
};

/** An admin decides a request once; the body names its own amount and member (a mismatch is a 409). */
export const decideWithdrawal = (withdrawal: Pick<Withdrawal, 'id' | 'kind'>, body: DecisionBody) =>
  api<WithdrawalResult>('PUT', DECISION_PATHS[withdrawal.kind](withdrawal.id), body, {
    'Idempotency-Key': newIdempotencyKey(),
  });

export type FoundMember = { id: string; fullname: string; username: string; email: string };

/** Admin: the member an e-mail address belongs to (exact match); a 404 says so in the server's words. */
export const findMemberByEmail = async (email: string) =>
  (await api<{ emailuser: FoundMember }>('GET', `/users?email=${encodeURIComponent(email)}`)).emailuser;

/** Admin: records a payout made outside a request (from Income Working, with its fee), once per key. */
export const recordPayout = (body: { user_id: string; amount: string; tx_hash: string; reason: string }) =>
  api<WithdrawalResult>('POST', '/withdrawalrequest/debit', body, { 'Idempotency-Key': newIdempotencyKey() });

/** After money moved or was held: the lists, the options, the balances and the ledger are out of date. */
export async function refreshAfterWithdrawal(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['withdrawals'], ['wallet'], ['ledger'], ['transactions']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
