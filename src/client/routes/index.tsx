import { createFileRoute, Link } from '@tanstack/react-router';
import { RISK_DISCLAIMER } from '../../shared/messages.ts';
import { PublicHeader } from '../app/layouts/public-layout.tsx';

// The public entry. The full landing page (sections, carousel, counters) is its own piece of work;
// this is its honest core: what the platform is, the risk, and the way in.
export const Route = createFileRoute('/')({ component: Landing });

function Landing() {
  return (
    <div className="landing">
      <div className="disclaimer-bar" role="note">
        <p>{RISK_DISCLAIMER}</p>
      </div>
      <PublicHeader />
      <main id="main">
        <section className="hero">
          <h1>Secure, educational and transparent crypto trading</h1>
          <p>
            Learn how markets work, follow your membership, wallets and referrals in one app on your phone.
          </p>
          <div className="row center">
            <Link to="/registration" className="button primary">
              Start Trading Now
            </Link>
            <a href="#about" className="button">
              Learn More Today
            </a>
          </div>
        </section>
        <section id="about" className="about">
          <h2>About us</h2>
          <p>
            We teach trading step by step and show every figure of your account as it is. Nothing here
            promises a return: crypto prices move both ways, and you decide what you can afford to risk.
          </p>
        </section>
      </main>
    </div>
  );
}
