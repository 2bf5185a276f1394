import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import {
  TICKET_MESSAGES,
  TICKET_SEARCH_MAX,
  TICKET_STATUSES,
  type TicketStatus,
  ticketCategoryLabel,
  ticketStatusLabel,
} from '../../../../shared/tickets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { adminTicketsQuery } from '../api.ts';
import { TicketStatusBadge } from './ticket-status-badge.tsx';
import '../tickets.css';
import { Pager } from '../../../ui/pager.tsx';

export const ADMIN_TICKETS_LIMIT = 50;

export type AdminTicketsFilter = { status?: TicketStatus; search?: string; page: number };

/** /admin/tickets: every ticket, by status and search, most recently active first. */
export function AdminTickets({
  filter,
  onFilter,
}: {
  filter: AdminTicketsFilter;
  onFilter: (next: AdminTicketsFilter) => void;
}) {
  const { data, isPending, error, refetch, isFetching } = useQuery(
    adminTicketsQuery({ ...filter, limit: ADMIN_TICKETS_LIMIT }),
  );
  const [search, setSearch] = useState(filter.search ?? '');
  useEffect(() => setSearch(filter.search ?? ''), [filter.search]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  function submitSearch(event: FormEvent) {
    event.preventDefault();
    onFilter({ status: filter.status, search: search.trim() || undefined, page: 1 });
  }

  return (
    <section className="card" aria-labelledby="tickets-title">
      <h2 id="tickets-title">Support tickets</h2>
      <div className="row ticket-filters">
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
        <search>
          <form className="row ticket-search" onSubmit={submitSearch}>
            <FormField
              label="Search"
              name="search"
              type="search"
              maxLength={TICKET_SEARCH_MAX}
              placeholder="Ticket id, subject, message, member"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit" className="button">
              Search
            </button>
          </form>
        </search>
      </div>
      {isPending ? (
        <Spinner label={TICKET_MESSAGES.loading} />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : data.tickets.length === 0 ? (
        <p className="muted" data-testid="admin-tickets-empty">
          {TICKET_MESSAGES.noTicketsAdmin}
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table" data-testid="admin-tickets" aria-busy={isFetching}>
              <caption className="visually-hidden">Support tickets</caption>
              <thead>
                <tr>
                  <th scope="col">Ticket</th>
                  <th scope="col">Member</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last activity</th>
                </tr>
              </thead>
              <tbody>
                {data.tickets.map((ticket) => (
                  <tr key={ticket.ticket_id} data-ticket-id={ticket.ticket_id}>
                    <td className="nowrap">
                      <Link to="/admin/ticket/$ticketId" params={{ ticketId: ticket.ticket_id }}>
                        {ticket.ticket_id}
                      </Link>
                    </td>
                    <td>
                      {ticket.member_name}
                      <br />
                      <span className="muted">{ticket.member_email}</span>
                    </td>
                    <td>
                      {ticket.subject}
                      {ticket.last_reply_by === 'user' && ticket.status !== 'closed' ? (
                        <>
                          <br />
                          <span className="muted" data-testid="awaiting-support">
                            Waiting for support
                          </span>
                        </>
                      ) : null}
                    </td>
                    <td>{ticketCategoryLabel(ticket.category)}</td>
                    <td>
                      <TicketStatusBadge status={ticket.status} />
                    </td>
                    <td className="nowrap">{formatDateTime(ticket.last_reply_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of tickets"
            page={filter.page}
            pages={pages}
            total={data.total}
            noun={['ticket', 'tickets']}
            onPage={(page) => onFilter({ ...filter, page })}
          />
        </>
      )}
    </section>
  );
}
