import { createFileRoute } from '@tanstack/react-router';
import { AdminCto } from '../../features/rewards/components/admin-cto.tsx';
import { AdminMembersRewards } from '../../features/rewards/components/admin-members-rewards.tsx';
import { AdminRewardClaims } from '../../features/rewards/components/admin-reward-claims.tsx';
import { AdminSalary } from '../../features/salary/components/admin-salary.tsx';

export const Route = createFileRoute('/admin/reward-transactions')({ component: RewardTransactionsPage });

function RewardTransactionsPage() {
  return (
    <div className="stack">
      <h1>Reward transactions</h1>
      <AdminMembersRewards />
      <AdminRewardClaims />
      <AdminCto />
      <AdminSalary />
    </div>
  );
}
