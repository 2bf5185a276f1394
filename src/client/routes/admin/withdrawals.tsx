import { createFileRoute } from '@tanstack/react-router';
import { WITHDRAWAL_TEXT } from '../../../shared/withdrawals.ts';
import { AdminWithdrawals } from '../../features/withdrawals/components/admin-withdrawals.tsx';
import { RecordPayout } from '../../features/withdrawals/components/record-payout.tsx';
import { adminWithdrawalSearch } from '../../features/withdrawals/search.ts';

const KINDS = ['income', 'compound'] as const;

export const Route = createFileRoute('/admin/withdrawals')({
  // The filters are in the address: a reload or a shared link shows the same list.
  validateSearch: adminWithdrawalSearch(KINDS),
  component: AdminWithdrawalsPage,
});

function AdminWithdrawalsPage() {
  const filter = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <header>
        <h1>{WITHDRAWAL_TEXT.adminIncomeTitle}</h1>
        <p className="muted">{WITHDRAWAL_TEXT.adminIncomeIntro}</p>
      </header>
      <AdminWithdrawals
        kinds={KINDS}
        filter={filter}
        csvName="withdrawals"
        onFilter={(next) => navigate({ search: next as typeof filter })}
      />
      <RecordPayout />
    </div>
  );
}
