import { createFileRoute } from '@tanstack/react-router';
import { WITHDRAWAL_TEXT } from '../../../shared/withdrawals.ts';
import { AdminWithdrawals } from '../../features/withdrawals/components/admin-withdrawals.tsx';
import { adminWithdrawalSearch } from '../../features/withdrawals/search.ts';

const KINDS = ['roi', 'principal'] as const;

export const Route = createFileRoute('/admin/roi-request')({
  // The filters are in the address: a reload or a shared link shows the same list.
  validateSearch: adminWithdrawalSearch(KINDS),
  component: RoiRequestPage,
});

function RoiRequestPage() {
  const filter = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <header>
        <h1>{WITHDRAWAL_TEXT.adminRoiTitle}</h1>
        <p className="muted">{WITHDRAWAL_TEXT.adminRoiIntro}</p>
      </header>
      <AdminWithdrawals
        kinds={KINDS}
        filter={filter}
        csvName="roi-requests"
        onFilter={(next) => navigate({ search: next as typeof filter })}
      />
    </div>
  );
}
