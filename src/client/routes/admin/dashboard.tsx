import { createFileRoute } from '@tanstack/react-router';
import { NeedsActionPanel } from '../../features/needs-action/components/needs-action-panel.tsx';
import { TodayFigures } from '../../features/reports/components/today-figures.tsx';
import { PendingTransfers } from '../../features/transfers/components/pending-transfers.tsx';
import { MemberAccess } from '../../features/users/components/member-access.tsx';
import { MemberCounts } from '../../features/users/components/member-counts.tsx';
import { AdjustmentForm } from '../../features/wallets/components/adjustment-form.tsx';
import { ReconciliationStatus } from '../../features/wallets/components/reconciliation-status.tsx';

export const Route = createFileRoute('/admin/dashboard')({ component: AdminDashboard });

function AdminDashboard() {
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <NeedsActionPanel />
      <TodayFigures />
      <MemberCounts />
      <PendingTransfers />
      <AdjustmentForm />
      <MemberAccess />
      <ReconciliationStatus />
    </div>
  );
}
