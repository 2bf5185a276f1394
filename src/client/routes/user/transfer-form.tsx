import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { TransferForm } from '../../features/transfers/components/transfer-form.tsx';

export const Route = createFileRoute('/user/transfer-form')({ component: TransferFormPage });

function TransferFormPage() {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  return (
    <div className="stack">
      <h1>Transfer fund</h1>
      {memberId ? <TransferForm selfId={memberId} /> : null}
      <Link to="/user/transfer">Back to the Transfer Dashboard</Link>
    </div>
  );
}
