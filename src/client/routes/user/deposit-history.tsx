import { createFileRoute, Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { PAYMENT_MESSAGES } from '../../../shared/payments.ts';
import { DepositHistory } from '../../features/payments/components/deposit-history.tsx';
import { DepositQrLinks } from '../../features/qr-links/components/deposit-qr-links.tsx';
import { Spinner } from '../../ui/spinner.tsx';

// The manual deposit form and list load after the crypto payments: a phone downloads them only here.
const ManualDepositsSection = lazy(
  () => import('../../features/deposits/components/manual-deposits-section.tsx'),
);
const Web3DepositsSection = lazy(() => import('../../features/web3/components/my-web3-deposits.tsx'));

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
      <Link to="/user/web3-deposit" className="button">
        Deposit USDT on BNB Smart Chain
      </Link>
      <DepositQrLinks />
      <Suspense fallback={<Spinner label="Loading on-chain deposits" />}>
        <Web3DepositsSection />
      </Suspense>
      <Suspense fallback={<Spinner label="Loading manual deposits" />}>
        <ManualDepositsSection />
      </Suspense>
    </div>
  );
}
