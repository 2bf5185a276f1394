import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from '@tanstack/react-router';
import { TWO_FACTOR_TEXT } from '../../../shared/two-factor.ts';
import { twoFactorStatusQuery } from '../../features/account/api.ts';
import { TwoFactorCard } from '../../features/account/components/two-factor-card.tsx';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { useAdminSession } from '../../features/auth/use-session-watch.ts';
import { useLiveChannel } from '../../features/notifications/use-live-channel.ts';
import { OfflineNotice } from '../../ui/offline-notice.tsx';

const ADMIN_LINKS = [
  ['/admin/dashboard', 'Dashboard'],
  ['/admin/users', 'Members'],
  ['/admin/deposits', 'Deposits'],
  ['/admin/web3', 'On-chain USDT'],
  ['/admin/plans', 'Plans'],
  ['/admin/income', 'Income'],
  ['/admin/topup', 'Top-ups'],
  ['/admin/withdrawals', 'Withdrawals'],
  ['/admin/roi-request', 'ROI requests'],
  ['/admin/reward-plans', 'Reward plans'],
  ['/admin/reward-transactions', 'Reward claims'],
  ['/admin/reports', 'Reports'],
  ['/admin/tickets', 'Tickets'],
  ['/admin/mail', 'Mail'],
  ['/admin/news', 'News'],
  ['/admin/qr-links', 'QR links'],
  ['/admin/notifications', 'Notifications'],
  ['/admin/notification/list', 'Notification list'],
  ['/admin/settings', 'Settings'],
] as const;

/** The admin area: a desktop layout with a side navigation. */
export function AdminLayout() {
  const session = useAdminSession();
  useLiveChannel(Boolean(session));
  // While two-factor sign-in is required of admins and this one has none, the server refuses every
  // other admin call: the area shows only the set-up until it is done.
  const twoFactor = useQuery({ ...twoFactorStatusQuery, enabled: Boolean(session) });
  const mustEnrol = twoFactor.data?.required === true && !twoFactor.data.enabled;
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
        {mustEnrol ? (
          <div className="stack">
            <h1>{TWO_FACTOR_TEXT.settingsTitle}</h1>
            <p className="notice" role="status">
              {TWO_FACTOR_TEXT.adminRequiredNotice}
            </p>
            <TwoFactorCard title={TWO_FACTOR_TEXT.adminTitle} />
          </div>
        ) : (
          <Outlet />
        )}
      </main>
    </div>
  );
}
