import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import '../notifications.css';
import { type MemberNotification, NOTIFICATION_MESSAGES } from '../../../../shared/notifications.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { markNotificationSeen, myNotificationsQuery, refreshNotifications } from '../api.ts';

/** /user/notifications: newest first, unread ones marked; opening one marks it seen (spec 4). */
export function MemberNotifications({ memberId }: { memberId: string }) {
  const { data, isPending, error, refetch } = useQuery(myNotificationsQuery(memberId));
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Set<string>>(new Set());

  async function toggle(notification: MemberNotification) {
    const opening = !open.has(notification.id);
    setOpen((current) => {
      const next = new Set(current);
      if (opening) next.add(notification.id);
      else next.delete(notification.id);
      return next;
    });
    if (!opening || notification.seen) return;
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
            {expanded ? (
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
