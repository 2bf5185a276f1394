import { Link, Outlet } from '@tanstack/react-router';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { useAdminSession } from '../../features/auth/use-session-watch.ts';
import { useLiveChannel } from '../../features/notifications/use-live-channel.ts';
import { OfflineNotice } from '../../ui/offline-notice.tsx';

const ADMIN_LINKS = [
  ['/admin/dashboard', 'Dashboard'],
  ['/admin/users', 'Members'],
  ['/admin/deposits', 'Deposits'],
  ['/admin/reports', 'Reports'],
  ['/admin/tickets', 'Tickets'],
  ['/admin/notifications', 'Notifications'],
  ['/admin/notification/list', 'Notification list'],
] as const;

/** The admin area: a desktop layout with a side navigation. */
export function AdminLayout() {
  const session = useAdminSession();
  useLiveChannel(Boolean(session));
  return (
    <div className="admin-shell">
      <aside className="side-nav">
        <span className="brand">Admin</span>
        <nav aria-label="Admin">
          {ADMIN_LINKS.map(([to, label]) => (
            <Link key={to} to={to} className="side-nav-item" activeProps={{ 'aria-current': 'page' }}>
              {label}
            </Link>
          ))}
        </nav>
        <div className="side-nav-foot">
          <span className="muted" data-testid="admin-name">
            {session?.admin.fullname}
          </span>
          <SignOutButton area="admin" />
        </div>
      </aside>
      <main id="main" className="admin-main">
        <OfflineNotice />
        <Outlet />
      </main>
    </div>
  );
}
