import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import '../notifications.css';
import { NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { notificationsHomeQuery } from '../api.ts';

/** The member header's bell: the unread count, kept current by the live channel. */
export function NotificationBell() {
  const unread = useQuery(notificationsHomeQuery).data?.unread ?? 0;
  const label = unread
    ? `${NOTIFICATION_MESSAGES.bellLabel}, ${unread} unread`
    : NOTIFICATION_MESSAGES.bellLabel;
  return (
    <Link to="/user/notifications" className="bell" aria-label={label} data-testid="notification-bell">
      <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {unread > 0 ? (
        <span className="bell-count" data-testid="unread-count">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
