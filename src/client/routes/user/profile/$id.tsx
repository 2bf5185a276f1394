import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { ProfilePage } from '../../../features/account/components/profile-page.tsx';
import { SessionsCard } from '../../../features/account/components/sessions-card.tsx';
import { TwoFactorCard } from '../../../features/account/components/two-factor-card.tsx';
import { currentMember, memberSessionQuery } from '../../../features/auth/session.ts';

// /user/profile/{id}: a member's own profile only; another id is the not-found page, the same answer
// as for an id that does not exist, so it tells nobody whose ids are real.
export const Route = createFileRoute('/user/profile/$id')({
  beforeLoad: ({ context, params }) => {
    if (currentMember(context.queryClient)?.auth.id !== params.id) throw notFound();
  },
  component: MemberProfile,
});

function MemberProfile() {
  const queryClient = useQueryClient();
  return (
    <ProfilePage
      onAuth={(auth) =>
        queryClient.setQueryData(memberSessionQuery.queryKey, (session) =>
          session ? { ...session, auth } : session,
        )
      }
      onVerified={() => queryClient.invalidateQueries({ queryKey: memberSessionQuery.queryKey })}
    >
      <TwoFactorCard />
      <SessionsCard />
    </ProfilePage>
  );
}
