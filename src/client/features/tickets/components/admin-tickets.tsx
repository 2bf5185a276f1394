import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  type AdminTicketList,
  TICKET_MESSAGES,
  TICKET_SEARCH_MAX,
  TICKET_STATUSES,
  type TicketStatus,
  ticketCategoryLabel,
  ticketStatusLabel,
} from '../../../../shared/tickets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { BreakPoints } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { adminTicketsQuery } from '../api.ts';
import { TicketStatusBadge } from './ticket-status-badge.tsx';
import '../tickets.css';

export const ADMIN_TICKETS_LIMIT = 50;

type AdminTicket = AdminTicketList['tickets'][number];

export type AdminTicketsFilter = { status?: TicketStatus; search?: string; page: number };

/** The whole row opens the ticket: its id is the row's one link. */
const COLUMNS: DataColumn<AdminTicket>[] = [
  {
    id: 'ticket',
    header: 'Ticket',
    className: 'nowrap',
    cell: (ticket) => (
      <Link className="row-link" to="/admin/ticket/$ticketId" params={{ ticketId: ticket.ticket_id }}>
        {ticket.ticket_id}
      </Link>
    ),
  },
  {
    id: 'member',
    header: 'Member',
    cell: (ticket) => (
      <>
        <Link to="/admin/check/profile/$id" params={{ id: ticket.user_id }}>
          {ticket.member_name}
        </Link>
        <br />
        <span className="muted">
          <BreakPoints text={ticket.member_email} />
        </span>
      </>
    ),
  },
  {
    id: 'subject',
    header: 'Subject',
    cell: (ticket) => (
      <>
        {ticket.subject}
        {ticket.last_reply_by === 'user' && ticket.status !== 'closed' ? (
          <>
            <br />
            <span className="muted" data-testid="awaiting-support">
              Waiting for support
            </span>
          </>
        ) : null}
      </>
    ),
  },
  { id: 'category', header: 'Category', cell: (ticket) => ticketCategoryLabel(ticket.category) },
  { id: 'status', header: 'Status', cell: (ticket) => <TicketStatusBadge status={ticket.status} /> },
  {
    id: 'last-activity',
    header: 'Last activity',
    className: 'nowrap',
    cell: (ticket) => formatDateTime(ticket.last_reply_at),
  },
];

/** /admin/tickets: every ticket, by status and search, most recently active first. */
export function AdminTickets({
  filter,
  onFilter,
}: {
  filter: AdminTicketsFilter;
  onFilter: (next: AdminTicketsFilter) => void;
}) {
  const query = useQuery(adminTicketsQuery({ ...filter, limit: ADMIN_TICKETS_LIMIT }));
  const { data } = query;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  return (
    <section className="card" aria-labelledby="tickets-title">
      <h2 id="tickets-title">Support tickets</h2>
      <DataTable
        caption="Support tickets"
        columns={COLUMNS}
        rows={data?.tickets}
        rowKey={(ticket) => ticket.ticket_id}
        rowProps={(ticket) => ({ 'data-ticket-id': ticket.ticket_id })}
        status={query}
        empty={TICKET_MESSAGES.noTicketsAdmin}
        noun={['ticket', 'tickets']}
        testId="admin-tickets"
        searchLabel="Search (ticket id, subject, message, member)"
        pageSize={ADMIN_TICKETS_LIMIT}
        toolbar={
          <SelectField
            label="Status"
            name="status"
            value={filter.status ?? ''}
            onChange={(e) =>
              onFilter({
                status: (e.target.value || undefined) as TicketStatus | undefined,
                search: filter.search,
                page: 1,
              })
            }
          >
            <option value="">All statuses</option>
            {TICKET_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ticketStatusLabel(s)}
              </option>
            ))}
          </SelectField>
        }
        server={{
          page: filter.page,
          pages,
          total: data?.total ?? 0,
          onPage: (page) => onFilter({ ...filter, page }),
          search: filter.search ?? '',
          // The address keeps at most TICKET_SEARCH_MAX characters (the server's limit).
          onSearch: (text) =>
            onFilter({
              status: filter.status,
              search: text.slice(0, TICKET_SEARCH_MAX) || undefined,
              page: 1,
            }),
        }}
      />
    </section>
  );
}
