import { useQuery } from '@tanstack/react-query';
import { REWARD_MESSAGES } from '../../../../shared/rewards.ts';
import { unclaimedRewardsQuery } from '../api.ts';

/** /user/rewards: "You have N rewards ready to claim" when the member reached rewards not claimed yet. */
export function UnclaimedRewardsNotice({ memberId }: { memberId: string }) {
  const query = useQuery(unclaimedRewardsQuery(memberId));
  const count = query.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <p className="notice" role="status" data-testid="rewards-ready">
      {REWARD_MESSAGES.readyToClaim(count)}
    </p>
  );
}
