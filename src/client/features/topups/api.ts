import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import { GENERIC } from '../../../shared/messages.ts';
import { formatCents } from '../../../shared/money.ts';
import type { actPlanListSchema, Plan, planListSchema } from '../../../shared/plans.ts';
import type { Topup, topupListSchema, topupMemberSchema, topupResultSchema } from '../../../shared/topups.ts';
import type { MemberBalance } from '../../../shared/wallets.ts';
import { ApiError, api, NetworkError } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

export type TopupResult = v.InferOutput<typeof topupResultSchema>;
export type TopupList = v.InferOutput<typeof topupListSchema>;
export type TopupMember = v.InferOutput<typeof topupMemberSchema>['member'];

/** The Active Wallet pays every top-up: the same balance (and cache entry) the wallet cards show. */
export const balanceQuery = queryOptions({
  queryKey: ['wallet', 'balance'],
  queryFn: () => api<MemberBalance>('GET', '/wallet/balance'),
  staleTime: 0,
  networkMode: 'offlineFirst',
});

/** The active plans a member can buy: plans with a range first, then fixed-price activation plans. */
export const activePlansQuery = queryOptions({
  queryKey: ['plans', 'member'],
  queryFn: async (): Promise<Plan[]> => {
    const [{ plans }, { actplans }] = await Promise.all([
      api<v.InferOutput<typeof planListSchema>>('GET', '/plans/list'),
      api<v.InferOutput<typeof actPlanListSchema>>('GET', '/actplan/list'),
    ]);
    // The server answers members with active plans only; checked again so nothing closed is offered.
    return [...plans, ...actplans].filter((plan) => plan.status === 'active');
  },
  staleTime: 0,
});

/** Every top-up the member paid or received, newest first (the server's order). */
export const topupListQuery = queryOptions({
  queryKey: ['topups', 'mine'],
  queryFn: () => api<TopupList>('GET', '/topup/list?limit=200'),
  staleTime: 0,
});

export async function findTopupMember(q: string): Promise<TopupMember> {
  const { member } = await api<v.InferOutput<typeof topupMemberSchema>>(
    'GET',
    `/topup/member?q=${encodeURIComponent(q)}`,
  );
  return member;
}

export type TopupOrder = { memberId: string; payerId: string; planId: string; amountCents: number };

/**
 * Which call pays (docs/api.md): another member is an entry paid by me (`userby_id` = me); myself is
 * /topup/add, or /topup/addretopup once I hold a top-up of my own. /topup/add is also right for a
 * later purchase, so when the list cannot tell (an older one off its page) the safe call is chosen.
 * One key per confirmed review: the CSRF retry inside api() resends it, so money moves once.
 */
export function payTopup(order: TopupOrder, holdsOwnTopup: boolean): Promise<TopupResult> {
  const amount = formatCents(order.amountCents);
  const headers = { 'Idempotency-Key': newIdempotencyKey() };
  if (order.memberId !== order.payerId)
    return api<TopupResult>(
      'POST',
      '/topup/entry',
      { id: order.memberId, userby_id: order.payerId, plan_id: order.planId, amount },
      headers,
    );
  return api<TopupResult>(
    'POST',
    holdsOwnTopup ? '/topup/addretopup' : '/topup/add',
    { plan_id: order.planId, amount },
    headers,
  );
}

export function redeemCode(code: string): Promise<TopupResult> {
  return api<TopupResult>('POST', '/codes/redeem', { code }, { 'Idempotency-Key': newIdempotencyKey() });
}

/** Whether the member already holds a top-up of their own (received, whoever paid it). */
export const holdsOwnTopup = (list: TopupList | undefined, memberId: string) =>
  Boolean(list?.topups.some((topup: Topup) => topup.user_id === memberId));

/**
 * After a top-up: the balance, the lists, the ledger and the session (the first top-up makes the
 * member active, and the dashboard's badge reads the session).
 */
export async function refreshAfterTopup(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['wallet'], ['topups'], ['ledger'], ['transfers'], ['auth']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/**
 * Why a payment failed, and whether trying again can help: only when nothing answered or the server
 * failed; a rule's refusal (a short wallet, a closed plan, a used code) says its reason alone.
 */
export function payFailure(error: unknown): { reason: string; retry: boolean } {
  if (error instanceof ApiError && error.status >= 100)
    return { reason: error.display, retry: error.status >= 500 || error.status === 429 };
  return { reason: error instanceof NetworkError ? error.message : GENERIC.somethingWentWrong, retry: true };
}
