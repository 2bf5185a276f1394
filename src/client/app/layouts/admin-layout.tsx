import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useLocation } from '@tanstack/react-router';
import { TWO_FACTOR_TEXT } from '../../../shared/two-factor.ts';
import { twoFactorStatusQuery } from '../../features/account/api.ts';
import { TwoFactorCard } from '../../features/account/components/two-factor-card.tsx';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { useAdminSession } from '../../features/auth/use-session-watch.ts';
import { useLiveChannel } from '../../features/notifications/use-live-channel.ts';
import { OfflineNotice } from '../../ui/offline-notice.tsx';

type NavEntry = {
  to: string;
  label: string;
  /** A tab of the screen this entry opens (`?tab=`): the entry is current only on that tab. */
  tab?: string;
};

// The side navigation in the four groups staff think in; every admin screen is in exactly one.
const NAV_GROUPS: { title: string; entries: NavEntry[] }[] = [
  {
    title: 'Money',
    entries: [
      { to: '/admin/deposits', label: 'Deposits' },
      { to: '/admin/web3', label: 'On-chain USDT' },
      { to: '/admin/withdrawals', label: 'Withdrawals' },
      { to: '/admin/topup', label: 'Transfers to review', tab: 'review' },
      { to: '/admin/topup', label: 'Top-ups' },
      { to: '/admin/income', label: 'Income' },
      { to: '/admin/reward-transactions', label: 'Reward claims' },
      { to: '/admin/reports', label: 'Reports' },
    ],
  },
  {
    title: 'Members',
    entries: [
      { to: '/admin/users', label: 'Members' },
      { to: '/admin/tickets', label: 'Tickets' },
    ],
  },
  {
    title: 'Content',
    entries: [
      { to: '/admin/news', label: 'News' },
      { to: '/admin/notifications', label: 'Notifications' },
      { to: '/admin/notification/list', label: 'Notification list' },
      { to: '/admin/qr-links', label: 'QR links' },
    ],
  },
  {
    title: 'System',
    entries: [
      { to: '/admin/plans', label: 'Plans' },
      { to: '/admin/reward-plans', label: 'Reward plans' },
      { to: '/admin/mail', label: 'Mail' },
      { to: '/admin/settings', label: 'Settings' },
    ],
  },
];
const ENTRIES = NAV_GROUPS.flatMap((group) => group.entries);

/**
 * The entry for where the admin is: its path and, where two entries share a path, its tab (the other
 * entry of that path is current on every other tab).
 */
function isCurrent(entry: NavEntry, pathname: string, tab: unknown): boolean {
  if (entry.to !== pathname) return false;
  if (entry.tab) return tab === entry.tab;
  return !ENTRIES.some((other) => other.to === pathname && other.tab !== undefined && other.tab === tab);
}

function NavLink({ entry }: { entry: NavEntry }) {
  const location = useLocation();
  const tab = (location.search as Record<string, unknown>).tab;
  return (
    <Link
      // The entries' paths are the admin routes'; the router checks each against its route tree.
      to={entry.to as '/admin/dashboard'}
      search={entry.tab ? ({ tab: entry.tab, page: 1 } as never) : undefined}
      className="side-nav-item"
      // The router marks a link current by itself only on its exact address (path and search, so
      // Top-ups is not marked on the review tab); isCurrent marks it on the rest of its screen.
      activeOptions={{ exact: true, includeSearch: true }}
      aria-current={isCurrent(entry, location.pathname, tab) ? 'page' : undefined}
    >
      {entry.label}
    </Link>
  );
}

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
          <NavLink entry={{ to: '/admin/dashboard', label: 'Dashboard' }} />
          {NAV_GROUPS.map((group) => (
            <div key={group.title} className="side-nav-group">
              <h2 className="side-nav-heading">{group.title}</h2>
              {group.entries.map((entry) => (
                <NavLink key={entry.label} entry={entry} />
              ))}
            </div>
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
