import { createFileRoute, Link } from '@tanstack/react-router';
import { TicketThread } from '../../../features/tickets/components/ticket-thread.tsx';

export const Route = createFileRoute('/user/queries/$ticketId')({ component: TicketPage });

function TicketPage() {
  const { ticketId } = Route.useParams();
  return (
    <div className="stack">
      <h1>Support ticket</h1>
      <TicketThread ticketId={ticketId} viewer="member" />
      <Link to="/user/queries">All your tickets</Link>
    </div>
  );
}
