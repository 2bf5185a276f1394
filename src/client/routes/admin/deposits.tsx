import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { DEPOSIT_STATUSES, PAYMENT_STATUSES } from '../../../shared/enums.ts';
import { AdminManualDeposits } from '../../features/deposits/components/admin-manual-deposits.tsx';
import { AdminDeposits } from '../../features/payments/components/admin-deposits.tsx';

export const Route = createFileRoute('/admin/deposits')({
  // The filter and page are in the address: a reload or a shared link shows the same list.
  validateSearch: v.object({
    status: v.fallback(v.optional(v.picklist(PAYMENT_STATUSES)), undefined),
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
    /** The manual deposits' status filter. */
    manual: v.fallback(v.optional(v.picklist(DEPOSIT_STATUSES)), undefined),
  }),
  component: AdminDepositsPage,
});

function AdminDepositsPage() {
  const { status, page, manual } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Deposits</h1>
      <AdminDeposits
        status={status}
        page={page}
        onFilter={(next) =>
          navigate({
            search: {
              ...(next.status ? { status: next.status } : {}),
              page: next.page,
              ...(manual ? { manual } : {}),
            },
          })
        }
      />
      <AdminManualDeposits
        status={manual}
        onStatus={(next) =>
          navigate({
            search: { ...(status ? { status } : {}), page, ...(next ? { manual: next } : {}) },
          })
        }
      />
    </div>
  );
}
