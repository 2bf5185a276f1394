import { createFileRoute, Link } from '@tanstack/react-router';
import { TEAM_TEXT } from '../../../shared/team.ts';
import { referralLink } from '../../../shared/users.ts';
import { useMemberSession } from '../../features/auth/use-session-watch.ts';
import { DirectMembers } from '../../features/team/components/direct-members.tsx';
import { REFERRAL_SHARE } from '../../features/users/components/referral-card.tsx';
import { ShareLink } from '../../ui/share-link.tsx';

export const Route = createFileRoute('/user/direct-members')({ component: DirectMembersPage });

function DirectMembersPage() {
  const member = useMemberSession()?.auth;
  return (
    <div className="stack">
      <header>
        <h1>{TEAM_TEXT.directTitle}</h1>
        <p className="muted">Members who joined with your referral link.</p>
        <Link to="/user/refferral-tree" className="button">
          {TEAM_TEXT.treeTitle}
        </Link>
      </header>
      {member ? (
        <DirectMembers
          memberId={member.id}
          emptyAction={
            // An empty team's next step is the link that starts one.
            <div className="card" data-testid="direct-members-invite">
              <p>Invite someone: they join your team when they sign up with your referral link.</p>
              <ShareLink
                link={referralLink(window.location.origin, member.refferal_code)}
                {...REFERRAL_SHARE}
              />
            </div>
          }
        />
      ) : null}
    </div>
  );
}
