import { createFileRoute } from '@tanstack/react-router';
import { useMemberSession } from '../../features/auth/use-session-watch.ts';
import { AchieversGallery } from '../../features/rewards/components/achievers-gallery.tsx';
import { MemberRewards } from '../../features/rewards/components/member-rewards.tsx';
import { UnclaimedRewardsNotice } from '../../features/rewards/components/unclaimed-rewards-notice.tsx';
import { MemberSalary } from '../../features/salary/components/member-salary.tsx';
import { RiskNote } from '../../ui/risk-note.tsx';

export const Route = createFileRoute('/user/rewards')({ component: RewardsPage });

function RewardsPage() {
  const member = useMemberSession()?.auth;
  return (
    <div className="stack">
      <header>
        <h1>Rewards</h1>
        <p className="muted">Rewards for the business your team builds. Reaching a rank is not guaranteed.</p>
      </header>
      {member ? <UnclaimedRewardsNotice memberId={member.id} /> : null}
      <RiskNote className="compact" />
      {member ? <MemberRewards memberId={member.id} /> : null}
      {member ? <MemberSalary memberId={member.id} /> : null}
      <AchieversGallery />
    </div>
  );
}
