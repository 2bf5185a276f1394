import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import '../notifications.css';
import { type AdminNotification, NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { LongWordBreaks } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DeleteDialog, ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { adminNotificationsQuery, deleteNotification, refreshNotifications } from '../api.ts';

// /admin/notification/list (spec 2; issue 22 item 3): the admins' broadcasts in the spec's table (#,
// Title, Message, All User, Type, Actions) with who received them, and apart from them the notifications
// the app wrote for one member (ticket answers, money events), with that member. Both are the shared
// DataTable with fixed column widths (notifications.css) so they fit a 1366 px laptop; words wrap
// whole, a long e-mail is cut with an ellipsis.

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

const csvText = (n: AdminNotification) =>
  n.users
    ? NOTIFICATION_MESSAGES.recipientsAll
    : n.recipient_preview.map((r) => `${r.fullname} <${r.email}>`).join('; ') +
      (n.recipients.length > n.recipient_preview.length
        ? ` +${n.recipients.length - n.recipient_preview.length}`
        : '');
const searchOf = (n: AdminNotification) =>
  `${n.title} ${n.message} ${n.recipient_preview.map((r) => `${r.fullname} ${r.email}`).join(' ')}`;

/** "#" is the notification's place in the newest-first list, so it stays with it when sorted. */
function columnsFor(
  origin: AdminNotification['origin'],
  position: Map<string, number>,
  onDelete: DeleteRequest,
): DataColumn<AdminNotification>[] {
  const index: DataColumn<AdminNotification> = {
    id: 'index',
    header: '#',
    cell: (n) => position.get(n.id) ?? '',
    className: 'col-index',
  };
  const title: DataColumn<AdminNotification> = {
    id: 'title',
    header: 'Title',
    cell: (n) => n.title,
    sortValue: (n) => n.title.toLowerCase(),
    searchText: searchOf,
    csv: (n) => n.title,
    className: 'col-title',
  };
  const message: DataColumn<AdminNotification> = {
    id: 'message',
    header: 'Message',
    // A withdrawal's notice carries its 66-character transaction hash: it wraps in parts, never mid-part.
    cell: (n) => (
      <span className="notification-cell-message">
        <LongWordBreaks text={n.message} />
      </span>
    ),
    csv: (n) => n.message,
    className: 'col-message',
  };
  const actions: DataColumn<AdminNotification> = {
    id: 'actions',
    header: 'Actions',
    cell: (n) => <DeleteButton notification={n} onDelete={onDelete} />,
    className: 'col-actions',
  };
  if (origin === 'broadcast')
    return [
      index,
      title,
      message,
      {
        id: 'users',
        header: 'All User',
        cell: (n) => (n.users ? 'True' : 'False'),
        csv: (n) => (n.users ? 'True' : 'False'),
        className: 'col-flag',
      },
      {
        id: 'recipients',
        header: 'Recipients',
        cell: (n) => <Recipients notification={n} />,
        csv: csvText,
        className: 'col-recipients',
      },
      {
        id: 'type',
        header: 'Type',
        cell: (n) => n.type,
        sortValue: (n) => n.type,
        csv: (n) => n.type,
        className: 'col-type',
      },
      actions,
    ];
  return [
    index,
    {
      id: 'member',
      header: 'Member',
      cell: (n) => {
        const member = n.recipient_preview[0];
        return member ? (
          <>
            <span className="notification-names">{member.fullname}</span>
            <Email email={member.email} />
          </>
        ) : (
          <span className="muted">{NOTIFICATION_MESSAGES.deletedMember}</span>
        );
      },
      sortValue: (n) => n.recipient_preview[0]?.fullname.toLowerCase() ?? '',
      csv: csvText,
      className: 'col-member',
    },
    title,
    message,
    {
      id: 'sent',
      header: 'Sent',
      cell: (n) => formatDateTime(n.created_at),
      sortValue: (n) => n.created_at,
      descFirst: true,
      csv: (n) => n.created_at,
      className: 'col-date',
    },
    actions,
  ];
}

function NotificationTable({
  origin,
  query,
  onDelete,
}: {
  origin: AdminNotification['origin'];
  query: ReturnType<typeof useQuery<AdminNotification[]>>;
  onDelete: DeleteRequest;
}) {
  const rows = useMemo(() => query.data?.filter((n) => n.origin === origin), [query.data, origin]);
  const columns = useMemo(
    () => columnsFor(origin, new Map(rows?.map((n, i) => [n.id, i + 1])), onDelete),
    [origin, rows, onDelete],
  );
  const broadcast = origin === 'broadcast';
  return (
    <div className={`notification-tables ${broadcast ? 'broadcast-table' : 'system-table'}`}>
      <DataTable
        caption={broadcast ? NOTIFICATION_MESSAGES.broadcastsTitle : NOTIFICATION_MESSAGES.systemTitle}
        columns={columns}
        rows={rows}
        rowKey={(n) => n.id}
        rowProps={(n) => ({ 'data-notification-id': n.id })}
        status={query}
        empty={broadcast ? NOTIFICATION_MESSAGES.broadcastsEmpty : NOTIFICATION_MESSAGES.systemEmpty}
        noun={['notification', 'notifications']}
        testId={broadcast ? 'admin-notifications' : 'system-notifications'}
        searchLabel={NOTIFICATION_MESSAGES.searchList}
        csvName={broadcast ? 'notifications' : 'member-notifications'}
      />
    </div>
  );
}

export function AdminNotificationList() {
  const query = useQuery(adminNotificationsQuery);
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
    <>
      <section className="card" aria-labelledby="notification-list-title">
        <h2 id="notification-list-title">{NOTIFICATION_MESSAGES.broadcastsTitle}</h2>
        <NotificationTable origin="broadcast" query={query} onDelete={setDeleting} />
      </section>
      <section className="card" aria-labelledby="system-notification-list-title">
        <h2 id="system-notification-list-title">{NOTIFICATION_MESSAGES.systemTitle}</h2>
        <p className="muted">{NOTIFICATION_MESSAGES.systemHint}</p>
        <NotificationTable origin="system" query={query} onDelete={setDeleting} />
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
