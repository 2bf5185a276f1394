import { HEADER_SCROLL_THRESHOLD_PX } from '../../shared/constants.ts';
import { LANDING_LINKS, MARQUEE_SPEED_PX_PER_S } from '../../shared/landing.ts';
import { RISK_DISCLAIMER } from '../../shared/messages.ts';
import { BRAND, HERO } from '../content.ts';
import { Icon, Logo } from '../icons.tsx';

/**
 * The scrolling risk warning. The note is the still window; inside it the text moves, followed by a
 * copy hidden from screen readers so the loop has no gap. It can be paused (WCAG 2.2.2), stops under hover and focus, and does not move at
 * all for visitors who ask for reduced motion.
 */
export function RiskBar() {
  return (
    <aside className="risk-bar" aria-label="Risk warning" data-marquee data-speed={MARQUEE_SPEED_PX_PER_S}>
      <div className="marquee" role="note">
        <div className="marquee-track" data-marquee-track>
          <p className="marquee-text">{RISK_DISCLAIMER}</p>
          <p className="marquee-text marquee-copy" aria-hidden="true">
            {RISK_DISCLAIMER}
          </p>
        </div>
      </div>
      <button type="button" className="marquee-toggle" aria-pressed="false" data-marquee-toggle>
        <Icon name="pause" size={18} className="marquee-pause" />
        <Icon name="play" size={18} className="marquee-play" />
        <span className="visually-hidden">Pause the scrolling risk warning</span>
      </button>
    </aside>
  );
}

function SectionLinks() {
  return (
    <ul>
      {LANDING_LINKS.map((link) => (
        <li key={link.anchor}>
          <a className="nav-link" href={`#${link.anchor}`}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * Sticky header; past the threshold it turns from the hero's navy into a light bar (colours only, so
 * nothing moves). Wide screens show the section links inline; narrow ones fold them into a native
 * disclosure that works without script. Only one of the two is displayed at any width.
 */
export function SiteHeader() {
  return (
    <header className="site-header" data-site-header data-scroll-threshold={HEADER_SCROLL_THRESHOLD_PX}>
      <div className="container header-bar">
        <a className="brand" href="#top">
          <Logo />
          <span className="brand-name">{BRAND}</span>
        </a>
        <nav className="nav-inline" aria-label="Sections">
          <SectionLinks />
        </nav>
        <details className="nav-menu" data-nav-menu>
          <summary>
            <span className="menu-bars" aria-hidden="true" />
            Menu
          </summary>
          <nav className="nav-panel" aria-label="Sections">
            <SectionLinks />
          </nav>
        </details>
        <div className="header-actions">
          <a className="btn btn-gold" href="/registration">
            Sign Up
          </a>
          <a className="btn btn-quiet" href="/login">
            Login
          </a>
        </div>
      </div>
    </header>
  );
}

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero-grid">
        <div className="hero-copy">
          <p className="eyebrow">{HERO.eyebrow}</p>
          <h1 id="hero-title">{HERO.title}</h1>
          <p className="hero-text">{HERO.text}</p>
          <div className="hero-actions">
            <a className="btn btn-gold btn-lg" href="/registration">
              {HERO.primary}
            </a>
            <a className="btn btn-outline btn-lg" href="#about">
              {HERO.secondary}
            </a>
          </div>
        </div>
        <HeroArt />
      </div>
    </section>
  );
}

/** A price chart that goes down as well as up: the honest picture of a market. */
function HeroArt() {
  const candles = [
    [30, 150, 118, 162, 110],
    [62, 122, 96, 132, 88],
    [94, 100, 126, 134, 92],
    [126, 124, 84, 130, 76],
    [158, 88, 104, 112, 80],
    [190, 104, 70, 110, 62],
    [222, 72, 92, 100, 60],
    [254, 90, 56, 96, 48],
  ] as const;
  return (
    <svg
      className="hero-art"
      viewBox="0 0 300 200"
      width="300"
      height="200"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="1" y="1" width="298" height="198" rx="18" fill="#13305a" stroke="#29507f" />
      <path d="M20 40h260M20 80h260M20 120h260M20 160h260" stroke="#29507f" strokeWidth="1" />
      {candles.map(([x, open, close, low, high]) => {
        const up = close < open;
        return (
          <g key={x} stroke={up ? '#4ade80' : '#f87171'} fill={up ? '#4ade80' : '#f87171'}>
            <path d={`M${x} ${high}V${low}`} strokeWidth="2" />
            <rect x={x - 7} y={Math.min(open, close)} width="14" height={Math.abs(open - close)} rx="2" />
          </g>
        );
      })}
      <path
        d="M30 150 62 122 94 126 126 84 158 104 190 70 222 92 254 56"
        fill="none"
        stroke="#f5b700"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
