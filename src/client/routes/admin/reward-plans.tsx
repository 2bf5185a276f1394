import { createFileRoute } from '@tanstack/react-router';
import { AchieversGallery } from '../../features/rewards/components/achievers-gallery.tsx';
import { AdminLeadership } from '../../features/rewards/components/admin-leadership.tsx';
import { AdminRewardPlans } from '../../features/rewards/components/admin-reward-plans.tsx';

export const Route = createFileRoute('/admin/reward-plans')({ component: RewardPlansPage });

function RewardPlansPage() {
  return (
    <div className="stack">
      <h1>Reward plans</h1>
      <p className="muted">
        A member reaches a rank when their team business is at least its business needed, and claims its
        reward once.
      </p>
      <AdminRewardPlans />
      <AdminLeadership />
      <AchieversGallery admin />
    </div>
  );
}
