import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import {
  TICKET_STATUSES,
  type Ticket,
  type TicketStatus,
  ticketStatusLabel,
} from '../../../../shared/tickets.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { refreshTickets, setTicketStatus, ticketErrorText } from '../api.ts';

/** Admin: any status; the member is notified of the change. */
export function StatusChanger({ ticket }: { ticket: Ticket }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<TicketStatus>(ticket.status);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState('');
  // A change made elsewhere (another admin, the member's answer) shows up here too.
  useEffect(() => setStatus(ticket.status), [ticket.status]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setDone('');
    try {
      const result = await setTicketStatus(ticket.ticket_id, status);
      setDone(result.message);
      await refreshTickets(queryClient);
    } catch (error) {
      setFailure(ticketErrorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <form className="form row" onSubmit={submit} aria-busy={busy}>
        <SelectField
          label="Ticket status"
          name="status"
          value={status}
          onChange={(e) => setStatus(e.target.value as TicketStatus)}
          disabled={busy}
        >
          {TICKET_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ticketStatusLabel(s)}
            </option>
          ))}
        </SelectField>
        <button type="submit" className="button primary" disabled={busy || status === ticket.status}>
          {busy ? 'Updating...' : 'Update status'}
        </button>
      </form>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </section>
  );
}

/** A member may close their own ticket (only support reopens it); asked to confirm first. */
export function MemberCloseTicket({ ticket }: { ticket: Ticket }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  if (ticket.status === 'closed') return null;

  async function close() {
    setBusy(true);
    try {
      await setTicketStatus(ticket.ticket_id, 'closed');
      setAsking(false);
      await refreshTickets(queryClient);
    } catch (error) {
      setAsking(false);
      setFailure(ticketErrorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="row">
      <button type="button" className="button" onClick={() => setAsking(true)}>
        Close ticket
      </button>
      <Modal open={asking} title="Close this ticket?" onClose={() => setAsking(false)} tone="warning">
        <p>A closed ticket takes no new answers. If you need help again later, open a new ticket.</p>
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Keep it open
          </button>
          <button type="button" className="button danger" disabled={busy} onClick={() => void close()}>
            Close ticket
          </button>
        </div>
      </Modal>
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </div>
  );
}
