import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import type { MemberReward } from '../../../../shared/rewards.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { Term } from '../../../ui/term.tsx';
import { claimReward, memberRewardsQuery, refreshRewards } from '../api.ts';

/** /user/rewards: the ladder, the member's team business, the next rank, and a Claim on each reached reward. */
export function MemberRewards({ memberId }: { memberId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(memberRewardsQuery(memberId));
  const [claiming, setClaiming] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (query.isPending) return <Spinner label="Loading rewards..." />;
  if (query.error) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const standing = query.data;
  const next = standing.rewards.find((reward) => reward.id === standing.next?.id);

  async function claim(reward: MemberReward) {
    setClaiming(reward.id);
    setMessage(null);
    try {
      const { message: text } = await claimReward(memberId, reward.id, crypto.randomUUID());
      setMessage({ tone: 'success', text });
      await refreshRewards(queryClient);
    } catch (error) {
      setMessage({ tone: 'error', text: errorText(error) });
      await refreshRewards(queryClient);
    } finally {
      setClaiming(null);
    }
  }

  return (
    <div className="stack">
      <section className="card" aria-labelledby="rewards-standing">
        <h2 id="rewards-standing">Your team business</h2>
        <p className="muted term-line">
          <Term id="teamBusiness" />
          <Term id="carryForward" />
          <Term id="cto" />
        </p>
        <p className="big-figure" data-testid="rewards-business">
          {formatUsd(standing.team_business)}
        </p>
        {next ? (
          // The requirement of the next rank, not its prize: the ladder below lists every rank's rule.
          <p className="muted" data-testid="rewards-next">
            Next rank: {next.rank} needs {formatUsd(next.business_needed)} of team business,{' '}
            {formatUsd(standing.next?.business_left ?? '0.00')} more than now.
          </p>
        ) : (
          <p className="muted">You have reached every reward of the ladder.</p>
        )}
        {standing.carried_forward ? (
          <p className="muted" data-testid="rewards-carried">
            Carried forward: {formatUsd(standing.carried_forward.amount)} beyond{' '}
            {standing.carried_forward.from_rank} already counts toward {standing.carried_forward.to_rank}.
          </p>
        ) : null}
      </section>
      {message ? (
        <p
          className={message.tone === 'success' ? 'notice' : 'error'}
          role={message.tone === 'success' ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      ) : null}
      {standing.rewards.length === 0 ? (
        <p className="muted">No rewards are set up yet.</p>
      ) : (
        <ul className="reward-ladder stack" aria-label="Reward ladder">
          {standing.rewards.map((reward) => (
            <li key={reward.id} className="card" data-testid="reward" data-rank={reward.rank}>
              <h3>{reward.rank}</h3>
              <p>
                Needs {formatUsd(reward.business_needed)} of team business · reward {formatUsd(reward.amount)}
              </p>
              {reward.claimed ? (
                <p className="badge green">
                  Claimed {reward.claimed_at ? formatDateTime(reward.claimed_at) : ''}
                </p>
              ) : reward.reached ? (
                <button
                  type="button"
                  className="button primary"
                  disabled={claiming !== null}
                  onClick={() => claim(reward)}
                >
                  {claiming === reward.id ? 'Claiming...' : `Claim ${formatUsd(reward.amount)}`}
                </button>
              ) : (
                <p className="muted">Not reached yet</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
