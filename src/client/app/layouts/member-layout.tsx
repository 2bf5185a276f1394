import { Link, Outlet } from '@tanstack/react-router';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { useMemberSession } from '../../features/auth/use-session-watch.ts';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { SitePopup } from '../../features/notifications/components/site-popup.tsx';
import { useLiveChannel } from '../../features/notifications/use-live-channel.ts';
import { OfflineNotice } from '../../ui/offline-notice.tsx';
import { RiskNote } from '../../ui/risk-note.tsx';
import { InstallApp, IosInstallHint } from '../pwa/install-app.tsx';

/** The member area: a phone layout with a bottom navigation. */
export function MemberLayout() {
  const session = useMemberSession();
  useLiveChannel(Boolean(session));
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
          <span aria-hidden="true">⌂</span>
          Dashboard
        </Link>
        <Link to="/user/transfer" className="bottom-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <span aria-hidden="true">⇄</span>
          Transfer
        </Link>
        <Link to="/user/scanner" className="bottom-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <span aria-hidden="true">₮</span>
          Pay
        </Link>
        <Link to="/user/queries" className="bottom-nav-item" activeProps={{ 'aria-current': 'page' }}>
          <span aria-hidden="true">?</span>
          Support
        </Link>
        <SignOutButton area="member" className="bottom-nav-item as-button" />
      </nav>
    </div>
  );
}
