import { createFileRoute, Link } from '@tanstack/react-router';
import { TEAM_TEXT } from '../../../shared/team.ts';
import { useMemberSession } from '../../features/auth/use-session-watch.ts';
import { DirectMembers } from '../../features/team/components/direct-members.tsx';

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
      {member ? <DirectMembers memberId={member.id} /> : null}
    </div>
  );
}
