import { createFileRoute, Link } from '@tanstack/react-router';
import { NOTIFICATION_MESSAGES } from '../../../shared/notifications.ts';
import { CreateNotificationForm } from '../../features/notifications/components/create-notification-form.tsx';

export const Route = createFileRoute('/admin/notifications')({ component: AdminNotificationsPage });

function AdminNotificationsPage() {
  return (
    <div className="stack">
      <h1>{NOTIFICATION_MESSAGES.createTitle}</h1>
      <p>
        <Link to="/admin/notification/list">All notifications</Link>
      </p>
      <CreateNotificationForm />
    </div>
  );
}
