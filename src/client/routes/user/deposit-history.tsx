import { createFileRoute, Link } from '@tanstack/react-router';
import { DepositHistory } from '../../features/payments/components/deposit-history.tsx';

export const Route = createFileRoute('/user/deposit-history')({ component: DepositHistoryPage });

function DepositHistoryPage() {
  return (
    <div className="stack">
      <h1>Deposit history</h1>
      <DepositHistory />
      <Link to="/user/scanner">Make a crypto payment</Link>
    </div>
  );
}
