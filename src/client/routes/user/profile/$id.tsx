import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { SESSION } from '../../../../shared/messages.ts';
import { TwoFactorCard } from '../../../features/account/components/two-factor-card.tsx';
import { memberSessionQuery } from '../../../features/auth/session.ts';
import { StatusPage } from '../../../ui/status-page.tsx';

export const Route = createFileRoute('/user/profile/$id')({ component: ProfilePage });

/** The member's own profile; another member's id shows the not-found view (nothing about them leaks). */
function ProfilePage() {
  const { id } = Route.useParams();
  const { data: session } = useQuery(memberSessionQuery);
  if (!session) return null;
  if (session.auth.id !== id)
    return <StatusPage code="404" title={SESSION.notFoundTitle} text={SESSION.notFoundText} />;
  return (
    <div className="stack">
      <h1>Profile</h1>
      <TwoFactorCard />
    </div>
  );
}
