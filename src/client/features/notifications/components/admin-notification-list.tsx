import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import '../notifications.css';
import { type AdminNotification, NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { DeleteDialog, ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { adminNotificationsQuery, deleteNotification, refreshNotifications } from '../api.ts';

// /admin/notification/list (spec 2; issue 22 item 3): the admins' broadcasts in the spec's table (#,
// Title, Message, All User, Type, Actions) with who received them, and apart from them the notifications
// the app wrote for one member (ticket answers, money events), with that member. Both tables have fixed
// column widths so they fit a 1366 px laptop; words wrap whole, a long e-mail is cut with an ellipsis.

type DeleteRequest = (notification: AdminNotification) => void;

function DeleteButton({
  notification,
  onDelete,
}: {
  notification: AdminNotification;
  onDelete: DeleteRequest;
}) {
  return (
    <button
      type="button"
      className="button small danger"
      aria-label={`Delete ${notification.title}`}
      onClick={() => onDelete(notification)}
    >
      Delete
    </button>
  );
}

function Email({ email }: { email: string }) {
  return (
    <span className="muted notification-email" title={email}>
      {email}
    </span>
  );
}

function Recipients({ notification }: { notification: AdminNotification }) {
  if (notification.users) return <>{NOTIFICATION_MESSAGES.recipientsAll}</>;
  const names = notification.recipient_preview.map((r) => r.fullname);
  const more = notification.recipients.length - names.length;
  return (
    <>
      <span className="notification-count">
        {NOTIFICATION_MESSAGES.recipientsCount(notification.recipients.length)}
      </span>
      {names.length > 0 ? (
        <span className="muted notification-names">
          {names.join(', ')}
          {more > 0 ? ` +${more}` : ''}
        </span>
      ) : null}
    </>
  );
}

function BroadcastTable({ rows, onDelete }: { rows: AdminNotification[]; onDelete: DeleteRequest }) {
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="admin-notifications-empty">
        {NOTIFICATION_MESSAGES.broadcastsEmpty}
      </p>
    );
  return (
    <div className="table-scroll" data-testid="admin-notifications-box">
      <table className="table notification-table broadcast-table" data-testid="admin-notifications">
        <caption className="visually-hidden">{NOTIFICATION_MESSAGES.broadcastsTitle}</caption>
        <colgroup>
          <col className="col-index" />
          <col className="col-title" />
          <col />
          <col className="col-flag" />
          <col className="col-recipients" />
          <col className="col-type" />
          <col className="col-actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Title</th>
            <th scope="col">Message</th>
            <th scope="col">All User</th>
            <th scope="col">Recipients</th>
            <th scope="col">Type</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((n, index) => (
            <tr key={n.id} data-notification-id={n.id}>
              <td>{index + 1}</td>
              <td>{n.title}</td>
              <td className="notification-cell-message">{n.message}</td>
              <td>{n.users ? 'True' : 'False'}</td>
              <td>
                <Recipients notification={n} />
              </td>
              <td>{n.type}</td>
              <td>
                <DeleteButton notification={n} onDelete={onDelete} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SystemTable({ rows, onDelete }: { rows: AdminNotification[]; onDelete: DeleteRequest }) {
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="system-notifications-empty">
        {NOTIFICATION_MESSAGES.systemEmpty}
      </p>
    );
  return (
    <div className="table-scroll" data-testid="system-notifications-box">
      <table className="table notification-table system-table" data-testid="system-notifications">
        <caption className="visually-hidden">{NOTIFICATION_MESSAGES.systemTitle}</caption>
        <colgroup>
          <col className="col-index" />
          <col className="col-member" />
          <col className="col-title" />
          <col />
          <col className="col-date" />
          <col className="col-actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Member</th>
            <th scope="col">Title</th>
            <th scope="col">Message</th>
            <th scope="col">Sent</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((n, index) => {
            const member = n.recipient_preview[0];
            return (
              <tr key={n.id} data-notification-id={n.id}>
                <td>{index + 1}</td>
                <td>
                  {member ? (
                    <>
                      <span className="notification-names">{member.fullname}</span>
                      <Email email={member.email} />
                    </>
                  ) : (
                    <span className="muted">{NOTIFICATION_MESSAGES.deletedMember}</span>
                  )}
                </td>
                <td>{n.title}</td>
                <td className="notification-cell-message">{n.message}</td>
                <td>{formatDateTime(n.created_at)}</td>
                <td>
                  <DeleteButton notification={n} onDelete={onDelete} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function AdminNotificationList() {
  const { data, isPending, error, refetch } = useQuery(adminNotificationsQuery);
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<AdminNotification | null>(null);
  const [success, setSuccess] = useState('');
  const [failure, setFailure] = useState('');

  async function confirmDelete() {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    try {
      const result = await deleteNotification(target.id);
      setSuccess(result.message);
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      await refreshNotifications(queryClient);
    }
  }

  const body = (render: (rows: AdminNotification[]) => ReactNode, origin: AdminNotification['origin']) =>
    isPending ? (
      <Spinner label={NOTIFICATION_MESSAGES.loading} />
    ) : error ? (
      <QueryError error={error} onRetry={() => refetch()} />
    ) : (
      render(data.filter((n) => n.origin === origin))
    );

  return (
    <>
      <section className="card" aria-labelledby="notification-list-title">
        <h2 id="notification-list-title">{NOTIFICATION_MESSAGES.broadcastsTitle}</h2>
        {body(
          (rows) => (
            <BroadcastTable rows={rows} onDelete={setDeleting} />
          ),
          'broadcast',
        )}
      </section>
      <section className="card" aria-labelledby="system-notification-list-title">
        <h2 id="system-notification-list-title">{NOTIFICATION_MESSAGES.systemTitle}</h2>
        <p className="muted">{NOTIFICATION_MESSAGES.systemHint}</p>
        {body(
          (rows) => (
            <SystemTable rows={rows} onDelete={setDeleting} />
          ),
          'system',
        )}
      </section>
      <DeleteDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
      <SuccessDialog open={success !== ''} message={success} onClose={() => setSuccess('')} />
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </>
  );
}
