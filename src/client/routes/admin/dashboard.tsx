import { createFileRoute } from '@tanstack/react-router';
import { MemberCounts } from '../../features/users/components/member-counts.tsx';
import { AdjustmentForm } from '../../features/wallets/components/adjustment-form.tsx';
import { ReconciliationStatus } from '../../features/wallets/components/reconciliation-status.tsx';

export const Route = createFileRoute('/admin/dashboard')({ component: AdminDashboard });

function AdminDashboard() {
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <MemberCounts />
      <AdjustmentForm />
      <ReconciliationStatus />
    </div>
  );
}
