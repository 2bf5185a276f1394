import { type QueryClient, queryOptions } from '@tanstack/react-query';
import {
  REWARD_MESSAGES as M,
  type MemberRewardRow,
  type MemberRewards,
  type Reward,
  type RewardClaimRow,
  type UnclaimedRewards,
} from '../../../shared/rewards.ts';
import { ApiError, api } from '../../lib/http.ts';

// Rewards (docs/api.md "Rewards"): the ladder an admin keeps, a member's standing and claims.

const path = (id: string) => encodeURIComponent(id);
export type RewardFields = { rank: string; business_needed: string; amount: string };

/** Spec 8 "Rewards": the server's message, else the spec's fallback (never the browser's own words). */
async function orFallback<T>(call: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError)
      throw error.body.message ? error : new ApiError(error.status, { ...error.body, message: fallback });
    throw new Error(fallback);
  }
}

export const rewardPlansQuery = queryOptions({
  queryKey: ['rewards', 'plans'],
  queryFn: () => orFallback(() => api<{ rewards: Reward[] }>('GET', '/rewards'), M.fetchFailed),
});

export const memberRewardsQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['rewards', 'member', memberId],
    queryFn: () =>
      orFallback(() => api<MemberRewards>('GET', `/rewards/user/${path(memberId)}`), M.fetchError),
    staleTime: 0,
  });

export const rewardClaimsQuery = queryOptions({
  queryKey: ['rewards', 'claims'],
  queryFn: () => api<{ claims: RewardClaimRow[] }>('GET', '/rewards/claims'),
  staleTime: 0,
});

/** The rewards a member reached and has not claimed (the notice on /user/rewards). */
export const unclaimedRewardsQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['rewards', 'unclaimed', memberId],
    queryFn: () =>
      orFallback(
        () => api<UnclaimedRewards>('GET', `/users/get/defaulterreward/${path(memberId)}`),
        M.fetchError,
      ),
    staleTime: 0,
  });

/** Admin: every member who reached a reward, by team business. */
export const membersAndRewardsQuery = queryOptions({
  queryKey: ['rewards', 'members'],
  queryFn: () =>
    orFallback(() => api<{ members: MemberRewardRow[] }>('GET', '/users/rewards'), M.fetchFailed),
  staleTime: 0,
});

/** Admin: remind every member with rewards to claim; the key makes a retry of one press answer as the first. */
export const sendRewardReminders = (key: string) =>
  api<{ message: string; sent: number }>('POST', '/users/send/reward', {}, { 'Idempotency-Key': key });

export const createRewardPlan = (fields: RewardFields) =>
  orFallback(() => api<{ message: string; reward: Reward }>('POST', '/rewards', fields), M.createFailed);
export const updateRewardPlan = (id: string, fields: RewardFields) =>
  orFallback(
    () => api<{ message: string; reward: Reward }>('PUT', `/rewards/${path(id)}`, fields),
    M.updateFailed,
  );
export const deleteRewardPlan = (id: string) =>
  orFallback(() => api<{ message: string }>('DELETE', `/rewards/${path(id)}`), M.deleteFailed);

/** One claim per press: the key makes a retry of the same press answer as the first. */
export const claimReward = (memberId: string, rewardId: string, key: string) =>
  api<{ message: string }>(
    'POST',
    `/rewards/user/claim/${path(memberId)}`,
    { reward_id: rewardId },
    { 'Idempotency-Key': key },
  );

export const refreshRewards = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['rewards'] });

// The spec's DELETE /leadership/{id} and PUT /cto/{id}: an admin's exclusions of a member, and the way back.
export const removeFromLeadership = (memberId: string) =>
  api<{ message: string }>('DELETE', `/leadership/${path(memberId)}`);
export const restoreToLeadership = (memberId: string) =>
  api<{ message: string }>('POST', `/leadership/${path(memberId)}/restore`);
export const excludeFromCto = (memberId: string, reason: string) =>
  api<{ message: string }>('PUT', `/cto/${path(memberId)}`, reason ? { reason } : {});
export const restoreToCto = (memberId: string) =>
  api<{ message: string }>('POST', `/cto/${path(memberId)}/restore`);

/** After an exclusion or a restore: the leadership list and the CTO preview read them. */
export const refreshExclusions = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['rewards', 'leadership'] }),
    queryClient.invalidateQueries({ queryKey: ['cto'] }),
  ]);
