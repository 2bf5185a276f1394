import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { LANDING_LINKS, landingHref } from '../../../shared/landing.ts';
import { RiskNote } from '../../ui/risk-note.tsx';

/**
 * The landing page's sections. Plain links, not router links: the landing page is a static page of its
 * own (src/landing), so the browser loads it and scrolls to the section named after the #.
 */
function SectionLinks() {
  return (
    <ul>
      {LANDING_LINKS.map((link) => (
        <li key={link.anchor}>
          <a href={landingHref(link.anchor)} className="nav-link">
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The public pages' header: the brand, the landing page's sections and the way in. Wide screens show
 * the sections inline; narrow ones fold them into a disclosure (only one of the two is displayed).
 */
export function PublicHeader() {
  return (
    <header className="public-header">
      <a href="/" className="brand">
        Member Platform
      </a>
      <nav aria-label="Sections" className="public-sections">
        <SectionLinks />
      </nav>
      <details className="public-menu">
        <summary>Menu</summary>
        <nav aria-label="Sections">
          <SectionLinks />
        </nav>
      </details>
      <nav aria-label="Account">
        <Link to="/registration" className="button primary small">
          Sign Up
        </Link>
        <Link to="/login" className="nav-link">
          Login
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
