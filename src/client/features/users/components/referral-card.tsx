import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { COPIED_LABEL_MS } from '../../../../shared/constants.ts';
import { referralLink } from '../../../../shared/users.ts';

/** The member's referral link, to copy or hand to the phone's share sheet. */
export function ReferralCard({ code }: { code: string }) {
  const link = referralLink(window.location.origin, code);
  const [copied, setCopied] = useState(false);
  const canShare = typeof navigator.share === 'function';

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success('Referral link copied');
      setTimeout(() => setCopied(false), COPIED_LABEL_MS);
    } catch {
      toast.error('Copying is not allowed here. Select the link and copy it by hand.');
    }
  }

  async function share() {
    try {
      await navigator.share({ title: 'Join me', text: 'Sign up with my referral link', url: link });
    } catch {
      // The member closed the share sheet: nothing to report.
    }
  }

  return (
    <section className="card" aria-labelledby="referral-title">
      <h2 id="referral-title">Your referral link</h2>
      <p className="muted">
        Referral code <strong data-testid="referral-code">{code}</strong>
      </p>
      <label className="visually-hidden" htmlFor="referral-link">
        Referral link
      </label>
      <input
        id="referral-link"
        className="copy-field"
        readOnly
        value={link}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="row">
        <button type="button" className="button primary" onClick={copy}>
          {copied ? 'Copied!' : 'Copy link'}
        </button>
        {canShare ? (
          <button type="button" className="button" onClick={share}>
            Share
          </button>
        ) : null}
      </div>
      <p className="row">
        <Link to="/user/direct-members" className="button">
          Direct members
        </Link>
        <Link to="/user/refferral-tree" className="button">
          Referral tree
        </Link>
      </p>
    </section>
  );
}
