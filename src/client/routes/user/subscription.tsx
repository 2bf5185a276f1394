import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { SubscriptionView } from '../../features/topups/components/subscription-view.tsx';

import { RiskNote } from '../../ui/risk-note.tsx';

export const Route = createFileRoute('/user/subscription')({ component: SubscriptionPage });

function SubscriptionPage() {
  const member = useQuery(memberSessionQuery).data?.auth;
  return (
    <div className="stack">
      <header>
        <h1>Plans</h1>
        <p className="muted">Buy a plan from your Active Wallet, or redeem an activation code.</p>
      </header>
      <RiskNote className="compact" />
      {member ? <SubscriptionView memberId={member.id} /> : null}
    </div>
  );
}
