import { createFileRoute } from '@tanstack/react-router';
import { WITHDRAWAL_TEXT } from '../../../shared/withdrawals.ts';
import { AdminWithdrawals } from '../../features/withdrawals/components/admin-withdrawals.tsx';
import { RecordPayout } from '../../features/withdrawals/components/record-payout.tsx';
import { adminWithdrawalSearch } from '../../features/withdrawals/search.ts';

export const Route = createFileRoute('/admin/withdrawals')({
  // The filters are in the address: a reload or a shared link shows the same list.
  validateSearch: adminWithdrawalSearch,
  component: AdminWithdrawalsPage,
});

/** The one queue of withdrawal requests, every kind (income, ROI, principal, compound). */
function AdminWithdrawalsPage() {
  const filter = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <header>
        <h1>{WITHDRAWAL_TEXT.adminTitle}</h1>
        <p className="muted">{WITHDRAWAL_TEXT.adminIntro}</p>
      </header>
      <AdminWithdrawals filter={filter} onFilter={(next) => navigate({ search: next })} />
      <RecordPayout />
    </div>
  );
}
