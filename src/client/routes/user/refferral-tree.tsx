import { createFileRoute, Link } from '@tanstack/react-router';
import { TEAM_TEXT } from '../../../shared/team.ts';
import { useMemberSession } from '../../features/auth/use-session-watch.ts';
import { TeamTree } from '../../features/team/components/team-tree.tsx';

// The spec's spelling is kept as the address.
export const Route = createFileRoute('/user/refferral-tree')({ component: ReferralTreePage });

function ReferralTreePage() {
  const member = useMemberSession()?.auth;
  return (
    <div className="stack">
      <header>
        <h1>{TEAM_TEXT.treeTitle}</h1>
        <p className="muted">
          Your whole team, level by level. Team business is every investment below a member.
        </p>
        <Link to="/user/direct-members" className="button">
          {TEAM_TEXT.directTitle}
        </Link>
      </header>
      {member ? <TeamTree memberId={member.id} /> : null}
    </div>
  );
}
