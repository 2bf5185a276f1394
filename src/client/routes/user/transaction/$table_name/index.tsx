import { createFileRoute } from '@tanstack/react-router';
import { transactionSearchSchema } from '../../../../../shared/enums.ts';
import { MemberTransactions } from '../../../../features/transactions/components/member-transactions.tsx';
import {
  TransactionsPage,
  useTransactionNavigate,
} from '../../../../features/transactions/components/transactions-page.tsx';

// docs/app.md: /user/transaction/{table_name} lists one kind of the member's transactions.
export const Route = createFileRoute('/user/transaction/$table_name/')({
  validateSearch: transactionSearchSchema,
  component: TransactionTablePage,
});

function TransactionTablePage() {
  const { table_name } = Route.useParams();
  const search = Route.useSearch();
  const onNavigate = useTransactionNavigate();
  return (
    <TransactionsPage table={table_name}>
      <MemberTransactions table={table_name} search={search} onNavigate={onNavigate} />
    </TransactionsPage>
  );
}
