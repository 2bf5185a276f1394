import { Link, Outlet } from '@tanstack/react-router';
import { SignOutButton } from '../../features/auth/components/sign-out-button.tsx';
import { useAdminSession } from '../../features/auth/use-session-watch.ts';

/** The admin area: a desktop layout with a side navigation. */
export function AdminLayout() {
  const session = useAdminSession();
  return (
    <div className="admin-shell">
      <aside className="side-nav">
        <span className="brand">Admin</span>
        <nav aria-label="Admin">
          <Link to="/admin/dashboard" className="side-nav-item" activeProps={{ 'aria-current': 'page' }}>
            Dashboard
          </Link>
          <Link to="/admin/deposits" className="side-nav-item" activeProps={{ 'aria-current': 'page' }}>
            Deposits
          </Link>
        </nav>
        <div className="side-nav-foot">
          <span className="muted" data-testid="admin-name">
            {session?.admin.fullname}
          </span>
          <SignOutButton area="admin" />
        </div>
      </aside>
      <main id="main" className="admin-main">
        <Outlet />
      </main>
    </div>
  );
}
