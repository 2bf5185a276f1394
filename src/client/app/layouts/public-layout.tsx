import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { RiskNote } from '../../ui/risk-note.tsx';

/** The public pages' header: the brand and the way in. */
export function PublicHeader() {
  return (
    <header className="public-header">
      <Link to="/" className="brand">
        Member Platform
      </Link>
      <nav aria-label="Account">
        <Link to="/login" className="nav-link">
          Login
        </Link>
        <Link to="/registration" className="button primary small">
          Sign Up
        </Link>
      </nav>
    </header>
  );
}

/** Header and footer of the public pages (login, registration, status pages). */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="public-shell">
      <PublicHeader />
      <main id="main" className="public-main">
        {children}
      </main>
      <footer className="public-footer">
        <RiskNote />
      </footer>
    </div>
  );
}
