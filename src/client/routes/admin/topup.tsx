import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ADMIN_TRANSACTION_TABS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../../shared/enums.ts';
import {
  AdminTransactions,
  type AdminTxSearch,
} from '../../features/transactions/components/admin-transactions.tsx';
import { PendingTransfers } from '../../features/transfers/components/pending-transfers.tsx';

export const Route = createFileRoute('/admin/topup')({
  // Tab, filters and page are in the address: a reload or a shared link shows the same list.
  validateSearch: v.object({
    tab: v.optional(v.fallback(v.picklist(ADMIN_TRANSACTION_TABS), 'topups'), 'topups'),
    type: v.fallback(v.optional(v.picklist(TRANSACTION_TYPES)), undefined),
    status: v.fallback(v.optional(v.picklist(TRANSACTION_STATUSES)), undefined),
    user: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
    search: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: AdminTopupPage,
});

function AdminTopupPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Top-ups and transactions</h1>
      <AdminTransactions
        search={search}
        review={<PendingTransfers />}
        onSearch={(next: AdminTxSearch) =>
          navigate({
            search: Object.fromEntries(
              Object.entries(next).filter(([, value]) => value !== undefined && value !== ''),
            ) as AdminTxSearch,
          })
        }
      />
    </div>
  );
}
