import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { RiskNote } from '../../ui/risk-note.tsx';

/** Header and footer of the public pages (login, registration, status pages). */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="public-shell">
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
      <main id="main" className="public-main">
        {children}
      </main>
      <footer className="public-footer">
        <RiskNote />
      </footer>
    </div>
  );
}
