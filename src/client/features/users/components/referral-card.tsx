import { Link } from '@tanstack/react-router';
import { referralLink } from '../../../../shared/users.ts';
import { ShareLink } from '../../../ui/share-link.tsx';

/** The sentences the referral link is copied and shared with, wherever a member hands it on. */
export const REFERRAL_SHARE = {
  label: 'Referral link',
  copiedText: 'Referral link copied',
  share: { title: 'Join me', text: 'Sign up with my referral link' },
} as const;

/** The member's referral link, to copy or hand to the phone's share sheet. */
export function ReferralCard({ code }: { code: string }) {
  return (
    <section className="card" aria-labelledby="referral-title">
      <h2 id="referral-title">Your referral link</h2>
      <p className="muted">
        Referral code <strong data-testid="referral-code">{code}</strong>
      </p>
      <ShareLink link={referralLink(window.location.origin, code)} {...REFERRAL_SHARE} />
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
