import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { memberSessionQuery } from '../../../features/auth/session.ts';
import { MemberTickets } from '../../../features/tickets/components/member-tickets.tsx';
import { SupportContact } from '../../../features/tickets/components/support-contact.tsx';

// The list lives at /user/queries/ (an index route) so /user/queries/{ticketId} is a page of its own
// rather than a child drawn inside the list.
export const Route = createFileRoute('/user/queries/')({ component: TicketsPage });

function TicketsPage() {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  return (
    <div className="stack">
      <header className="row ticket-item-head">
        <h1>Support tickets</h1>
        <Link to="/user/query/create" className="button primary">
          New ticket
        </Link>
      </header>
      {memberId ? <MemberTickets memberId={memberId} /> : null}
      <SupportContact />
    </div>
  );
}
