import { createFileRoute } from '@tanstack/react-router';
import { transactionSearchSchema } from '../../../../../shared/enums.ts';
import { MemberTransactions } from '../../../../features/transactions/components/member-transactions.tsx';
import {
  TransactionsPage,
  useTransactionNavigate,
} from '../../../../features/transactions/components/transactions-page.tsx';

// Spec 2 names this one: the investments (top-ups) whose ROI the ROI list shows (docs/app.md).
export const Route = createFileRoute('/user/transaction/roi_transaction/invest')({
  validateSearch: transactionSearchSchema,
  component: InvestmentsPage,
});

function InvestmentsPage() {
  const search = Route.useSearch();
  const onNavigate = useTransactionNavigate();
  return (
    <TransactionsPage table="roi_transaction" fit="invest">
      <MemberTransactions table="roi_transaction" fit="invest" search={search} onNavigate={onNavigate} />
    </TransactionsPage>
  );
}
