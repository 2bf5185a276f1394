import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { PAYMENT_STATUSES } from '../../../shared/payments.ts';
import { AdminDeposits } from '../../features/payments/components/admin-deposits.tsx';

export const Route = createFileRoute('/admin/deposits')({
  // The filter and page are in the address: a reload or a shared link shows the same list.
  validateSearch: v.object({
    status: v.fallback(v.optional(v.picklist(PAYMENT_STATUSES)), undefined),
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: AdminDepositsPage,
});

function AdminDepositsPage() {
  const { status, page } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Deposits</h1>
      <AdminDeposits
        status={status}
        page={page}
        onFilter={(next) =>
          navigate({ search: { ...(next.status ? { status: next.status } : {}), page: next.page } })
        }
      />
    </div>
  );
}
