import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import '../notifications.css';
import { type AdminNotification, NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { errorText } from '../../../lib/http.ts';
import { DeleteDialog, ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { adminNotificationsQuery, deleteNotification, refreshNotifications } from '../api.ts';

/** /admin/notification/list (spec 2): #, Title, Message, All User (True/False), Type, Actions. */
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

  return (
    <section className="card" aria-labelledby="notification-list-title">
      <h2 id="notification-list-title">{NOTIFICATION_MESSAGES.listTitle}</h2>
      {isPending ? (
        <Spinner label={NOTIFICATION_MESSAGES.loading} />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : data.length === 0 ? (
        <p className="muted" data-testid="admin-notifications-empty">
          {NOTIFICATION_MESSAGES.listEmpty}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table notification-table" data-testid="admin-notifications">
            <caption className="visually-hidden">{NOTIFICATION_MESSAGES.listTitle}</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Title</th>
                <th scope="col">Message</th>
                <th scope="col">All User</th>
                <th scope="col">Type</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.map((n, index) => (
                <tr key={n.id} data-notification-id={n.id}>
                  <td>{index + 1}</td>
                  <td>{n.title}</td>
                  <td>{n.message}</td>
                  <td>{n.users ? 'True' : 'False'}</td>
                  <td>{n.type}</td>
                  <td>
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={`Delete ${n.title}`}
                      onClick={() => setDeleting(n)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DeleteDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
      <SuccessDialog open={success !== ''} message={success} onClose={() => setSuccess('')} />
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </section>
  );
}
