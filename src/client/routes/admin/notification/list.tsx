import { createFileRoute, Link } from '@tanstack/react-router';
import { NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { AdminNotificationList } from '../../../features/notifications/components/admin-notification-list.tsx';

export const Route = createFileRoute('/admin/notification/list')({ component: AdminNotificationListPage });

function AdminNotificationListPage() {
  return (
    <div className="stack">
      <h1>{NOTIFICATION_MESSAGES.listTitle}</h1>
      <p>
        <Link to="/admin/notifications">{NOTIFICATION_MESSAGES.createTitle}</Link>
      </p>
      <AdminNotificationList />
    </div>
  );
}
