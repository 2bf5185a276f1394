import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { NOTIFICATION_MESSAGES } from '../../../shared/notifications.ts';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { MemberNotifications } from '../../features/notifications/components/member-notifications.tsx';
import { PushToggle } from '../../features/push/components/push-toggle.tsx';

export const Route = createFileRoute('/user/notifications')({ component: NotificationsPage });

function NotificationsPage() {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  return (
    <div className="stack">
      <h1>{NOTIFICATION_MESSAGES.memberTitle}</h1>
      {memberId ? <PushToggle /> : null}
      {memberId ? <MemberNotifications memberId={memberId} /> : null}
    </div>
  );
}
