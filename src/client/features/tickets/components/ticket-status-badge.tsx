import { ticketBadgeColour, ticketStatusLabel } from '../../../../shared/tickets.ts';

/** Open blue, in progress yellow, resolved green, closed grey. */
export function TicketStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${ticketBadgeColour(status)}`} data-status={status} data-testid="ticket-status">
      {ticketStatusLabel(status)}
    </span>
  );
}
