import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type MouseEvent, useState } from 'react';
import '../notifications.css';
import { type MemberNotification, NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { markNotificationSeen, myNotificationsQuery, refreshNotifications } from '../api.ts';

/**
 * /user/notifications: newest first, unread ones marked; opening one marks it seen (spec 4). One with
 * a link (money received, a deposit, an adjustment, a ticket answer) opens its screen: the whole row is
 * the link. One without (an admin's broadcast) unfolds its message in place.
 */
export function MemberNotifications({ memberId }: { memberId: string }) {
  const { data, isPending, error, refetch } = useQuery(myNotificationsQuery(memberId));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Set<string>>(new Set());

  async function markSeen(notification: MemberNotification) {
    if (notification.seen) return;
    // Spec 4: seen becomes true and seen_at the current time at once, here; the server confirms it.
    const seenAt = new Date().toISOString();
    queryClient.setQueryData(myNotificationsQuery(memberId).queryKey, (list) =>
      list?.map((n) => (n.id === notification.id ? { ...n, seen: true, seen_at: seenAt } : n)),
    );
    try {
      await markNotificationSeen(notification.id, memberId);
    } finally {
      await refreshNotifications(queryClient);
    }
  }

  async function toggle(notification: MemberNotification) {
    const opening = !open.has(notification.id);
    setOpen((current) => {
      const next = new Set(current);
      if (opening) next.add(notification.id);
      else next.delete(notification.id);
      return next;
    });
    if (opening) await markSeen(notification);
  }

  function follow(event: MouseEvent<HTMLAnchorElement>, notification: MemberNotification, link: string) {
    // A new tab or window keeps the browser's own behaviour; a plain tap stays in the app.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void markSeen(notification);
    void navigate({ href: link });
  }

  if (isPending) return <Spinner label={NOTIFICATION_MESSAGES.loading} />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  if (data.length === 0)
    return (
      <p className="muted" data-testid="notifications-empty">
        {NOTIFICATION_MESSAGES.empty}
      </p>
    );
  return (
    <ul className="notification-list" aria-label={NOTIFICATION_MESSAGES.memberTitle}>
      {data.map((n) => {
        const expanded = open.has(n.id);
        return (
          <li
            key={n.id}
            className={`notification-item${n.seen ? '' : ' unread'}`}
            data-testid="notification-item"
            data-seen={n.seen ? 'true' : 'false'}
          >
            {n.link ? (
              <a className="notification-link" href={n.link} onClick={(e) => follow(e, n, n.link ?? '')}>
                <span className="notification-link-text">
                  <span className="row">
                    <span className="notification-title">{n.title}</span>
                    {n.seen ? null : <span className="badge blue">{NOTIFICATION_MESSAGES.unread}</span>}
                  </span>
                  <span className="notification-message">{n.message}</span>
                  <span className="muted">{formatDateTime(n.created_at)}</span>
                </span>
                <span className="notification-chevron" aria-hidden="true">
                  ›
                </span>
              </a>
            ) : (
              <button
                type="button"
                className="notification-toggle"
                aria-expanded={expanded}
                aria-controls={`notification-${n.id}`}
                onClick={() => void toggle(n)}
              >
                <span className="row">
                  <span className="notification-title">{n.title}</span>
                  {n.seen ? null : <span className="badge blue">{NOTIFICATION_MESSAGES.unread}</span>}
                </span>
                <span className="muted">{formatDateTime(n.created_at)}</span>
              </button>
            )}
            {!n.link && expanded ? (
              <p className="notification-message" id={`notification-${n.id}`}>
                {n.message}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
