import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { TICKET_MESSAGES, type Ticket, ticketCategoryLabel } from '../../../../shared/tickets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { memberTicketsQuery } from '../api.ts';
import { TicketStatusBadge } from './ticket-status-badge.tsx';
import '../tickets.css';

const answeredBySupport = (ticket: Ticket) => ticket.last_reply_by === 'admin' && ticket.status !== 'closed';

const COLUMNS: DataColumn<Ticket>[] = [
  {
    id: 'subject',
    header: 'Subject',
    cell: (ticket) => (
      <>
        <Link
          to="/user/queries/$ticketId"
          params={{ ticketId: ticket.ticket_id }}
          className="row-link ticket-subject"
        >
          {ticket.subject}
        </Link>
        {answeredBySupport(ticket) ? (
          <span className="ticket-answered" data-testid="support-answered">
            Support answered
          </span>
        ) : null}
      </>
    ),
    sortValue: (ticket) => ticket.subject.toLowerCase(),
    searchText: (ticket) => `${ticket.subject} ${ticket.ticket_id}`,
  },
  {
    id: 'status',
    header: 'Status',
    cell: (ticket) => <TicketStatusBadge status={ticket.status} />,
    sortValue: (ticket) => ticket.status,
  },
  {
    id: 'category',
    header: 'Category',
    cell: (ticket) => ticketCategoryLabel(ticket.category),
  },
  {
    id: 'updated',
    header: 'Last reply',
    cell: (ticket) => formatDateTime(ticket.last_reply_at),
    sortValue: (ticket) => ticket.last_reply_at,
    descFirst: true,
    className: 'nowrap',
  },
  { id: 'id', header: 'Ticket', cell: (ticket) => ticket.ticket_id, className: 'nowrap' },
];

/** /user/queries: the member's tickets, most recently active first; an answer from support is marked. */
export function MemberTickets({ memberId }: { memberId: string }) {
  const query = useQuery(memberTicketsQuery(memberId));
  return (
    <DataTable
      caption="Your tickets"
      columns={COLUMNS}
      rows={query.data?.tickets}
      rowKey={(ticket) => ticket.ticket_id}
      rowProps={(ticket) => ({ 'data-ticket-id': ticket.ticket_id })}
      status={query}
      empty={TICKET_MESSAGES.noTickets}
      emptyAction={
        <Link to="/user/query/create" className="button">
          Ask support a question
        </Link>
      }
      noun={['ticket', 'tickets']}
      testId="tickets"
      layout="stacked"
      initialSort={{ id: 'updated', desc: true }}
      pageSize={10}
    />
  );
}
