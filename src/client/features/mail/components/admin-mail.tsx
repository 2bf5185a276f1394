import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { MAIL_STATUS_LABELS, type OutboxMail } from '../../../../shared/mail.ts';
import { MAIL_STATUSES } from '../../../../shared/mail-statuses.ts';
import { DIALOG } from '../../../../shared/messages.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { ActionNoteView, useAdminAction } from '../../../ui/admin-action.tsx';
import { BreakPoints, LongWordBreaks } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import type { StatusFilter } from '../../../ui/review-table.tsx';
import { outboxQuery, refreshAfterResend, resendMail } from '../api.ts';
import '../mail.css';

type MailStatus = OutboxMail['status'];

const BADGE: Record<MailStatus, string> = { pending: 'yellow', sent: 'green', failed: 'red' };

const COLUMNS: DataColumn<OutboxMail>[] = [
  {
    id: 'to',
    header: 'To',
    cell: (m) => <BreakPoints text={m.to} />,
    sortValue: (m) => m.to,
    searchText: (m) => m.to,
    csv: (m) => m.to,
  },
  {
    id: 'subject',
    header: 'Subject',
    cell: (m) => m.subject,
    sortValue: (m) => m.subject,
    searchText: (m) => m.subject,
    csv: (m) => m.subject,
  },
  {
    id: 'status',
    header: 'Status',
    cell: (m) => (
      <span className={`badge ${BADGE[m.status]}`} data-status={m.status}>
        {MAIL_STATUS_LABELS[m.status]}
      </span>
    ),
    sortValue: (m) => MAIL_STATUS_LABELS[m.status],
    csv: (m) => m.status,
  },
  {
    id: 'attempts',
    header: 'Tries',
    cell: (m) => m.attempts,
    sortValue: (m) => m.attempts,
    csv: (m) => m.attempts,
    className: 'num',
    descFirst: true,
  },
  {
    id: 'error',
    header: 'Last error',
    cell: (m) =>
      m.last_error ? (
        <span className="mail-error">
          <LongWordBreaks text={m.last_error} />
        </span>
      ) : (
        '—'
      ),
    searchText: (m) => m.last_error ?? '',
    csv: (m) => m.last_error,
  },
  {
    id: 'date',
    header: 'Created',
    cell: (m) => formatDateTime(m.created_at),
    sortValue: (m) => m.created_at,
    csv: (m) => m.created_at,
    descFirst: true,
    className: 'nowrap',
  },
  {
    id: 'sent',
    header: 'Sent',
    cell: (m) => (m.sent_at ? formatDateTime(m.sent_at) : '—'),
    sortValue: (m) => m.sent_at ?? '',
    csv: (m) => m.sent_at,
    descFirst: true,
    className: 'nowrap',
  },
];

/**
 * The outbox, newest first (the server's newest 100 of the chosen status), filtered by a status kept
 * in the address; a failed mail can be sent again once the admin has confirmed it.
 */
export function AdminMail({ status, onStatus }: StatusFilter<MailStatus>) {
  const queryClient = useQueryClient();
  const query = useQuery(outboxQuery(status));
  const [resending, setResending] = useState<OutboxMail | null>(null);
  const { busy, note, act } = useAdminAction(() => {
    setResending(null);
    return refreshAfterResend(queryClient);
  });

  const columns = useMemo<DataColumn<OutboxMail>[]>(
    () => [
      ...COLUMNS,
      {
        id: 'action',
        header: 'Action',
        cell: (m) =>
          m.status === 'failed' ? (
            <button type="button" className="button small primary" onClick={() => setResending(m)}>
              Send again
            </button>
          ) : null,
      },
    ],
    [],
  );

  return (
    <section className="card" aria-labelledby="mail-outbox-title">
      <h2 id="mail-outbox-title">Outbox</h2>
      <ActionNoteView note={note} />
      <DataTable
        caption="Outbox"
        columns={columns}
        rows={query.data?.mails}
        rowKey={(m) => m.id}
        status={query}
        initialSort={{ id: 'date', desc: true }}
        pageSize={25}
        noun={['mail', 'mails']}
        testId="admin-mail"
        searchLabel="Search by address, subject or error"
        csvName="mail-outbox"
        rowProps={(m) => ({ 'data-mail-id': m.id, 'data-status': m.status })}
        empty={`No mails${status ? ` with the status ${MAIL_STATUS_LABELS[status]}` : ''}.`}
        toolbar={
          <SelectField
            label="Filter by status"
            name="mail-status"
            value={status ?? ''}
            onChange={(e) => onStatus((e.target.value || undefined) as MailStatus | undefined)}
          >
            <option value="">All statuses</option>
            {MAIL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {MAIL_STATUS_LABELS[s]}
              </option>
            ))}
          </SelectField>
        }
      />
      <Modal
        open={resending !== null}
        title="Send the mail again"
        tone="warning"
        onClose={() => (busy ? undefined : setResending(null))}
      >
        <form
          className="stack"
          aria-label="Send the mail again"
          onSubmit={(event) => {
            event.preventDefault();
            if (resending) void act(() => resendMail(resending.id));
          }}
        >
          <p>
            Send “{resending?.subject}” to {resending?.to} again? It goes back in the outbox and is sent now;
            if the mail server refuses it again, it is retried as a new mail would be.
          </p>
          {resending?.last_error ? <p className="muted">Last error: {resending.last_error}</p> : null}
          <div className="modal-actions">
            <button type="button" className="button" onClick={() => setResending(null)} disabled={busy}>
              {DIALOG.goBack}
            </button>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? 'Sending...' : 'Send again'}
            </button>
          </div>
        </form>
      </Modal>
    </section>
  );
}
