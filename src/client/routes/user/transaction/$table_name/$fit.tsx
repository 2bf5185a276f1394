import { createFileRoute } from '@tanstack/react-router';
import { transactionSearchSchema } from '../../../../../shared/enums.ts';
import { MemberTransactions } from '../../../../features/transactions/components/member-transactions.tsx';
import {
  TransactionsPage,
  useTransactionNavigate,
} from '../../../../features/transactions/components/transactions-page.tsx';

// docs/app.md: /user/transaction/{table_name}/{fit} narrows a kind by direction, status or `invest`.
export const Route = createFileRoute('/user/transaction/$table_name/$fit')({
  validateSearch: transactionSearchSchema,
  component: TransactionFitPage,
});

function TransactionFitPage() {
  const { table_name, fit } = Route.useParams();
  const search = Route.useSearch();
  const onNavigate = useTransactionNavigate();
  return (
    <TransactionsPage table={table_name} fit={fit}>
      <MemberTransactions table={table_name} fit={fit} search={search} onNavigate={onNavigate} />
    </TransactionsPage>
  );
}
