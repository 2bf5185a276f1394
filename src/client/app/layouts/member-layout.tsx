import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { useMemberSession } from '../../features/auth/use-session-watch.ts';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { SitePopup } from '../../features/notifications/components/site-popup.tsx';
import { useLiveChannel } from '../../features/notifications/use-live-channel.ts';
import { Modal } from '../../ui/modal.tsx';
import { AddMoneyIcon, HomeIcon, MoreIcon, SupportIcon, TransferIcon } from '../../ui/nav-icons.tsx';
import { OfflineNotice } from '../../ui/offline-notice.tsx';
import { RiskNote } from '../../ui/risk-note.tsx';
import { InstallApp, IosInstallHint } from '../pwa/install-app.tsx';
import './member-layout.css';

/** The member screens that are not in the bottom navigation: reached through "More". */
const MORE_LINKS = [
  ['/user/direct-members', 'Team'],
  ['/user/rewards', 'Rewards'],
  ['/user/news', 'News'],
  ['/user/subscription', 'Plans'],
  ['/user/topup', 'Invest'],
  ['/user/income', 'Income'],
  ['/user/withdrawal', 'Withdrawal'],
  ['/user/notifications', 'Notifications'],
  ['/user/deposit-history', 'Deposit history'],
  ['/user/transfer-history', 'Transfer history'],
] as const;

/**
 * "More": the rest of the member's screens and Sign out, in a sheet. Signing out is kept out of the
 * thumb's reach beside Support: one more tap, never by accident.
 */

/** The screens of adding money, all under the bottom bar's "Add money". */
const ADD_MONEY_PATHS = ['/user/add-money', '/user/scanner', '/user/web3-deposit'];
function MoreSheet({ open, onClose, memberId }: { open: boolean; onClose: () => void; memberId?: string }) {
  return (
    <Modal open={open} title="More" onClose={onClose}>
      <div className="more-sheet">
        <ul>
          {memberId ? (
            <li>
              <Link
                to="/user/profile/$id"
                params={{ id: memberId }}
                className="more-sheet-item"
                activeProps={{ 'aria-current': 'page' }}
                onClick={onClose}
              >
                Profile
              </Link>
            </li>
          ) : null}
          {MORE_LINKS.map(([to, label]) => (
            <li key={to}>
              <Link
                to={to}
                className="more-sheet-item"
                activeProps={{ 'aria-current': 'page' }}
                onClick={onClose}
              >
                {label}
              </Link>
            </li>
          ))}
          <li>
            <Link
              to="/user/transaction/$table_name"
              params={{ table_name: 'all_transaction' }}
              className="more-sheet-item"
              activeProps={{ 'aria-current': 'page' }}
              onClick={onClose}
            >
              Transactions
            </Link>
          </li>
        </ul>
        <SignOutButton area="member" className="more-sheet-item sign-out" />
      </div>
    </Modal>
  );
}

/** The member area: a phone layout with a bottom navigation. */
export function MemberLayout() {
  const session = useMemberSession();
  useLiveChannel(Boolean(session));
  const [moreOpen, setMoreOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // Any navigation (a link in the sheet, the back button) closes the sheet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not a value read.
  useEffect(() => setMoreOpen(false), [pathname]);
  return (
    <div className="member-shell">
      <header className="member-header">
        <span className="brand">Member Platform</span>
        <span className="member-name" data-testid="member-name">
          {session?.auth.fullname}
        </span>
        <InstallApp />
        <NotificationBell />
      </header>
      {session ? <SitePopup memberId={session.auth.id} /> : null}
      <main id="main" className="member-main">
        <OfflineNotice />
        <IosInstallHint />
        <Outlet />
        <RiskNote className="compact" />
      </main>
      <nav className="bottom-nav" aria-label="Member">
        <Link to="/user/dashboard" className="bottom-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <HomeIcon />
          Home
        </Link>
        <Link to="/user/transfer" className="bottom-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <TransferIcon />
          Transfer
        </Link>
        <Link
          to="/user/add-money"
          className="bottom-nav-item"
          aria-current={ADD_MONEY_PATHS.includes(pathname) ? 'page' : undefined}
        >
          <AddMoneyIcon />
          Add money
        </Link>
        <Link to="/user/queries" className="bottom-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <SupportIcon />
          Support
        </Link>
        <button
          type="button"
          className="bottom-nav-item as-button"
          aria-haspopup="dialog"
          aria-expanded={moreOpen}
          aria-current={
            MORE_LINKS.some(([to]) => to === pathname) ||
            pathname.startsWith('/user/profile/') ||
            pathname === '/user/refferral-tree' ||
            pathname.startsWith('/user/transaction/')
              ? 'page'
              : undefined
          }
          onClick={() => setMoreOpen(true)}
        >
          <MoreIcon />
          More
        </button>
      </nav>
      <MoreSheet open={moreOpen} onClose={() => setMoreOpen(false)} memberId={session?.auth.id} />
    </div>
  );
}
