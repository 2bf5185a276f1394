import { createFileRoute, Link } from '@tanstack/react-router';
import { TicketThread } from '../../../features/tickets/components/ticket-thread.tsx';

export const Route = createFileRoute('/admin/ticket/$ticketId')({ component: AdminTicketPage });

function AdminTicketPage() {
  const { ticketId } = Route.useParams();
  return (
    <div className="stack">
      <h1>Ticket</h1>
      <TicketThread ticketId={ticketId} viewer="admin" />
      <Link to="/admin/tickets">All tickets</Link>
    </div>
  );
}
