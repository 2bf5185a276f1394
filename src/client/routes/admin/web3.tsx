import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { WEB3_DEPOSIT_STATUSES } from '../../../shared/enums.ts';
import { AdminWeb3Deposits, Web3SettingsCard } from '../../features/web3/components/admin-web3.tsx';

export const Route = createFileRoute('/admin/web3')({
  // The filter is in the address: a reload or a shared link shows the same list.
  validateSearch: v.object({ status: v.fallback(v.optional(v.picklist(WEB3_DEPOSIT_STATUSES)), undefined) }),
  component: AdminWeb3Page,
});

function AdminWeb3Page() {
  const { status } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>On-chain deposits</h1>
      <Web3SettingsCard />
      <AdminWeb3Deposits
        status={status}
        onStatus={(next) => navigate({ search: next ? { status: next } : {} })}
      />
    </div>
  );
}
