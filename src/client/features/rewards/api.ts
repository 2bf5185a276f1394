import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { MemberRewards, Reward, RewardClaimRow } from '../../../shared/rewards.ts';
import { api } from '../../lib/http.ts';

// Rewards (docs/api.md "Rewards"): the ladder an admin keeps, a member's standing and claims.

const path = (id: string) => encodeURIComponent(id);
export type RewardFields = { rank: string; business_needed: string; amount: string };

export const rewardPlansQuery = queryOptions({
  queryKey: ['rewards', 'plans'],
  queryFn: () => api<{ rewards: Reward[] }>('GET', '/rewards'),
});

export const memberRewardsQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['rewards', 'member', memberId],
    queryFn: () => api<MemberRewards>('GET', `/rewards/user/${path(memberId)}`),
    staleTime: 0,
  });

export const rewardClaimsQuery = queryOptions({
  queryKey: ['rewards', 'claims'],
  queryFn: () => api<{ claims: RewardClaimRow[] }>('GET', '/rewards/claims'),
  staleTime: 0,
});

export const createRewardPlan = (fields: RewardFields) =>
  api<{ message: string; reward: Reward }>('POST', '/rewards', fields);
export const updateRewardPlan = (id: string, fields: RewardFields) =>
  api<{ message: string; reward: Reward }>('PUT', `/rewards/${path(id)}`, fields);
export const deleteRewardPlan = (id: string) => api<{ message: string }>('DELETE', `/rewards/${path(id)}`);

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
