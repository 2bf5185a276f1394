import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, notFound } from '@tanstack/react-router';
import type { SelfTradeSaved } from '../../../../shared/trade.ts';
import { ChangePasswordCard } from '../../../features/account/components/change-password-card.tsx';
import { ProfilePage } from '../../../features/account/components/profile-page.tsx';
import { SessionsCard } from '../../../features/account/components/sessions-card.tsx';
import { TwoFactorCard } from '../../../features/account/components/two-factor-card.tsx';
import { currentMember, memberSessionQuery } from '../../../features/auth/session.ts';
import { SelfTradeCard } from '../../../features/trade/components/self-trade-card.tsx';

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
  const session = useQuery(memberSessionQuery).data;
  // The saved pair goes into the session's `auth` (persisted), where the card reads it back.
  const onTradeSaved = (saved: SelfTradeSaved) =>
    queryClient.setQueryData(memberSessionQuery.queryKey, (current) =>
      current
        ? {
            ...current,
            auth: { ...current.auth, self_trade_pair: saved.pair, self_trade_updated_at: saved.updated_at },
          }
        : current,
    );
  return (
    <ProfilePage
      onAuth={(auth) =>
        queryClient.setQueryData(memberSessionQuery.queryKey, (current) =>
          current ? { ...current, auth } : current,
        )
      }
      onVerified={() => queryClient.invalidateQueries({ queryKey: memberSessionQuery.queryKey })}
    >
      {session ? (
        <SelfTradeCard
          memberId={session.auth.id}
          pair={session.auth.self_trade_pair}
          updatedAt={session.auth.self_trade_updated_at}
          onSaved={onTradeSaved}
        />
      ) : null}
      <ChangePasswordCard />
      <TwoFactorCard />
      <SessionsCard />
    </ProfilePage>
  );
}
