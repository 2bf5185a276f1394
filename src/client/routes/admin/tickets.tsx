import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { TICKET_SEARCH_MAX, TICKET_STATUSES } from '../../../shared/enums.ts';
import { AdminTickets } from '../../features/tickets/components/admin-tickets.tsx';

export const Route = createFileRoute('/admin/tickets')({
  // Filter, search and page are in the address: a reload or a shared link shows the same list.
  validateSearch: v.object({
    status: v.fallback(v.optional(v.picklist(TICKET_STATUSES)), undefined),
    search: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(TICKET_SEARCH_MAX))), undefined),
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: AdminTicketsPage,
});

function AdminTicketsPage() {
  const filter = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Tickets</h1>
      <AdminTickets
        filter={filter}
        onFilter={(next) =>
          navigate({
            search: {
              ...(next.status ? { status: next.status } : {}),
              ...(next.search ? { search: next.search } : {}),
              page: next.page,
            },
          })
        }
      />
    </div>
  );
}
