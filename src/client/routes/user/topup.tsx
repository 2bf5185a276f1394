import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { ActiveWalletCard } from '../../features/topups/components/subscription-view.tsx';
import { TopupForm } from '../../features/topups/components/topup-form.tsx';
import { TopupList } from '../../features/topups/components/topup-list.tsx';

import { RiskNote } from '../../ui/risk-note.tsx';

export const Route = createFileRoute('/user/topup')({ component: TopupPage });

function TopupPage() {
  const member = useQuery(memberSessionQuery).data?.auth;
  return (
    <div className="stack">
      <header>
        <h1>Invest</h1>
        <p className="muted">Buy a plan for yourself or for another member, paid from your Active Wallet.</p>
      </header>
      <RiskNote className="compact" />
      {member ? (
        <>
          <ActiveWalletCard />
          <TopupForm self={member} />
          <TopupList memberId={member.id} />
        </>
      ) : null}
      <Link to="/user/subscription">See the plans</Link>
      <Link to="/user/transaction/$table_name" params={{ table_name: 'topup_transaction' }}>
        Investments among all your transactions
      </Link>
    </div>
  );
}
