import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import {
  TICKET_MESSAGE_MAX,
  TICKET_MESSAGES,
  type Ticket,
  type TicketResponse,
  ticketCategoryLabel,
  ticketResponseCreateSchema,
} from '../../../../shared/tickets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { TextAreaField } from '../../../ui/form-field.tsx';
import { ImageField } from '../../../ui/image-field.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import {
  addTicketResponse,
  refreshTickets,
  ticketQuery,
  ticketResponsesQuery,
  uploadTicketImage,
  withFallback,
} from '../api.ts';
import { TicketStatusBadge } from './ticket-status-badge.tsx';
import { MemberCloseTicket, StatusChanger } from './ticket-status-controls.tsx';
import '../tickets.css';

export type Viewer = 'member' | 'admin';

/** One ticket with its whole conversation and the answer form: /user/queries/{id} and /admin/ticket/{id}. */
export function TicketThread({ ticketId, viewer }: { ticketId: string; viewer: Viewer }) {
  const ticket = useQuery(ticketQuery(ticketId));
  const responses = useQuery(ticketResponsesQuery(ticketId));
  if (ticket.isPending) return <Spinner label={TICKET_MESSAGES.loading} />;
  if (ticket.error) return <QueryError error={ticket.error} onRetry={() => ticket.refetch()} />;
  const current = ticket.data.ticket;
  return (
    <div className="stack">
      <TicketFacts ticket={current} viewer={viewer} />
      <section className="card" aria-labelledby="conversation-title">
        <h2 id="conversation-title">Conversation</h2>
        <ol className="ticket-thread" aria-label="Conversation">
          <Message
            author={viewer === 'member' ? 'You' : current.member_name}
            from="user"
            at={current.created_at}
            text={current.message}
            imageUrl={current.image_url}
          />
          {responses.data?.responses.map((response) => (
            <Message
              key={response.id}
              author={authorLabel(response, viewer)}
              from={response.author_role}
              at={response.created_at}
              text={response.message}
              imageUrl={response.image_url}
            />
          ))}
        </ol>
        {responses.isPending ? <Spinner label="Loading the conversation" /> : null}
        {responses.error ? <QueryError error={responses.error} onRetry={() => responses.refetch()} /> : null}
        {responses.data?.responses.length === 0 ? (
          <p className="muted">{viewer === 'member' ? TICKET_MESSAGES.noResponses : 'No answers yet.'}</p>
        ) : null}
      </section>
      {current.status === 'closed' ? (
        <p className="card muted" data-testid="ticket-closed-note">
          {TICKET_MESSAGES.closedNoResponses}
        </p>
      ) : (
        <ReplyForm ticket={current} viewer={viewer} />
      )}
      {viewer === 'admin' ? <StatusChanger ticket={current} /> : <MemberCloseTicket ticket={current} />}
    </div>
  );
}

const authorLabel = (response: TicketResponse, viewer: Viewer) =>
  viewer === 'member' && response.author_role === 'user' ? 'You' : response.author_name;

function TicketFacts({ ticket, viewer }: { ticket: Ticket; viewer: Viewer }) {
  return (
    <section className="card" aria-labelledby="ticket-facts-title">
      <h2 id="ticket-facts-title" className="ticket-subject-title">
        {ticket.subject}
      </h2>
      <dl className="facts">
        <div>
          <dt>Ticket</dt>
          <dd data-testid="ticket-id">{ticket.ticket_id}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <TicketStatusBadge status={ticket.status} />
          </dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{ticketCategoryLabel(ticket.category)}</dd>
        </div>
        {viewer === 'admin' ? (
          <div>
            <dt>Member</dt>
            <dd>
              {/* Support reads the member's money, team and other tickets on their page. */}
              <Link to="/admin/check/profile/$id" params={{ id: ticket.user_id }} data-testid="ticket-member">
                {ticket.member_name}
              </Link>
              <br />
              <span className="muted">{ticket.member_email}</span>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Opened</dt>
          <dd>{formatDateTime(ticket.created_at)}</dd>
        </div>
        <div>
          <dt>Last activity</dt>
          <dd>{formatDateTime(ticket.updated_at)}</dd>
        </div>
      </dl>
    </section>
  );
}

function Message({
  author,
  from,
  at,
  text,
  imageUrl,
}: {
  author: string;
  from: 'user' | 'admin';
  at: string;
  text: string;
  imageUrl: string | null;
}) {
  return (
    <li className={`ticket-message from-${from}`} data-author-role={from}>
      <p className="ticket-message-head">
        <strong>{author}</strong> <span className="muted">{formatDateTime(at)}</span>
      </p>
      <p className="ticket-message-text">{text}</p>
      {imageUrl ? (
        <a href={imageUrl} target="_blank" rel="noopener" className="ticket-image-link">
          <img src={imageUrl} alt={`Attached by ${author}`} loading="lazy" />
        </a>
      ) : null}
    </li>
  );
}

function ReplyForm({ ticket, viewer }: { ticket: Ticket; viewer: Viewer }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (fileProblem) return;
    setDone('');
    void submitWith(
      ticketResponseCreateSchema,
      { message },
      async (input) => {
        const result = await withFallback(async () => {
          const image = file ? (await uploadTicketImage(file, ticket.ticket_id)).name : undefined;
          return addTicketResponse(ticket.ticket_id, { ...input, ...(image ? { image } : {}) });
        });
        setMessage('');
        setFile(null);
        setDone(result.message);
        await refreshTickets(queryClient);
      },
      (text) => setFailure(text),
    );
  }

  const hint =
    viewer === 'member' && ticket.status === 'resolved'
      ? 'Answering reopens this resolved ticket.'
      : `${message.length}/${TICKET_MESSAGE_MAX}`;
  return (
    <section className="card" aria-labelledby="reply-title">
      <h2 id="reply-title">{viewer === 'member' ? 'Answer' : 'Answer the member'}</h2>
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <TextAreaField
          label="Your answer"
          name="message"
          rows={4}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          error={errors.message}
          hint={hint}
          disabled={busy}
        />
        <ImageField
          label="Image (optional)"
          file={file}
          onFile={(chosen, problem) => {
            setFile(chosen);
            setFileProblem(problem);
            setErrors((current) => ({ ...current, image: '' }));
          }}
          error={fileProblem ?? (errors.image || undefined)}
          disabled={busy}
        />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Sending...' : 'Send answer'}
        </button>
        {done ? (
          <p className="notice" role="status">
            {done}
          </p>
        ) : null}
      </form>
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </section>
  );
}
