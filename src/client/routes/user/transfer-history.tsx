import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import * as v from 'valibot';
import { HISTORY_TABS } from '../../../shared/enums.ts';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { TransferHistoryView } from '../../features/transfers/components/transfer-history.tsx';

export const Route = createFileRoute('/user/transfer-history')({
  validateSearch: v.object({ tab: v.optional(v.fallback(v.picklist(HISTORY_TABS), 'overview'), 'overview') }),
  component: TransferHistoryPage,
});

function TransferHistoryPage() {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Transfer history</h1>
      <TransferHistoryView
        memberId={memberId}
        tab={tab}
        onTab={(next) => navigate({ search: { tab: next }, replace: true, resetScroll: false })}
      />
      <Link to="/user/transaction/$table_name" params={{ table_name: 'transfer_transaction' }}>
        Transfers among all your transactions
      </Link>
      <Link to="/user/transfer">Back to the Transfer Dashboard</Link>
    </div>
  );
}
