import { createFileRoute, Link } from '@tanstack/react-router';
import { TicketForm } from '../../../features/tickets/components/ticket-form.tsx';

export const Route = createFileRoute('/user/query/create')({ component: CreateTicketPage });

function CreateTicketPage() {
  return (
    <div className="stack">
      <header>
        <h1>Contact support</h1>
        <p className="muted">Tell us what happened; support answers in your ticket and you are notified.</p>
      </header>
      <TicketForm />
      <Link to="/user/queries">Your tickets</Link>
    </div>
  );
}
