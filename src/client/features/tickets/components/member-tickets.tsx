import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { TICKET_MESSAGES, ticketCategoryLabel } from '../../../../shared/tickets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { memberTicketsQuery } from '../api.ts';
import { TicketStatusBadge } from './ticket-status-badge.tsx';
import '../tickets.css';

/** /user/queries: the member's tickets, most recently active first; an answer from support is marked. */
export function MemberTickets({ memberId }: { memberId: string }) {
  const { data, isPending, error, refetch } = useQuery(memberTicketsQuery(memberId));
  if (isPending) return <Spinner label={TICKET_MESSAGES.loading} />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  if (data.tickets.length === 0)
    return (
      <p className="muted" data-testid="tickets-empty">
        {TICKET_MESSAGES.noTickets}
      </p>
    );
  return (
    <ul className="ticket-list" aria-label="Your tickets">
      {data.tickets.map((ticket) => {
        const answered = ticket.last_reply_by === 'admin' && ticket.status !== 'closed';
        return (
          <li key={ticket.ticket_id} className="card ticket-item" data-ticket-id={ticket.ticket_id}>
            <div className="row ticket-item-head">
              <Link
                to="/user/queries/$ticketId"
                params={{ ticketId: ticket.ticket_id }}
                className="ticket-subject"
              >
                {ticket.subject}
              </Link>
              <TicketStatusBadge status={ticket.status} />
            </div>
            <p className="muted ticket-meta">
              {ticket.ticket_id} · {ticketCategoryLabel(ticket.category)} ·{' '}
              {formatDateTime(ticket.last_reply_at)}
            </p>
            {answered ? (
              <p className="ticket-answered" data-testid="support-answered">
                Support answered
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
