import { createFileRoute, Link } from '@tanstack/react-router';
import { PAYMENT_MESSAGES } from '../../../shared/payments.ts';
import { DepositHistory } from '../../features/payments/components/deposit-history.tsx';

export const Route = createFileRoute('/user/deposit-history')({ component: DepositHistoryPage });

function DepositHistoryPage() {
  return (
    <div className="stack">
      <h1>Deposit history</h1>
      <DepositHistory />
      <Link to="/user/transaction/$table_name" params={{ table_name: 'deposit_transaction' }}>
        Deposits among all your transactions
      </Link>
      <Link to="/user/scanner" className="button primary">
        {PAYMENT_MESSAGES.newDeposit}
      </Link>
    </div>
  );
}
