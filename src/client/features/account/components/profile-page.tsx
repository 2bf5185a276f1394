import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PROFILE_TEXT } from '../../../../shared/profile.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { type MemberAuth, profileQuery, useSaveProfile } from '../profile-api.ts';
import { AddressesCard } from './address-card.tsx';
import { EmailVerificationCard } from './email-verification-card.tsx';
import { ProfileDetailsCard } from './profile-details-card.tsx';
import '../account.css';

/**
 * /user/profile/{id}: the member's own profile, phone first: a list of cards (<section className="card">);
 * `children` are further cards that other parts of the account add below these. `onAuth` gets the
 * member's new `auth` after a save; `onVerified` refreshes the session after the e-mail is verified.
 */
export function ProfilePage({
  onAuth,
  onVerified,
  children,
}: {
  onAuth: (auth: MemberAuth) => void;
  onVerified: () => Promise<unknown>;
  children?: ReactNode;
}) {
  const profile = useQuery(profileQuery);
  const queryClient = useQueryClient();
  const save = useSaveProfile(onAuth);
  return (
    <div className="stack profile-page">
      <h1>{PROFILE_TEXT.title}</h1>
      {profile.data ? (
        <>
          <ProfileDetailsCard profile={profile.data} save={save} />
          <EmailVerificationCard
            email={profile.data.email}
            verifiedAt={profile.data.verify_at}
            onVerified={() =>
              Promise.all([onVerified(), queryClient.invalidateQueries({ queryKey: profileQuery.queryKey })])
            }
          />
          <AddressesCard profile={profile.data} save={save} />
          {children}
        </>
      ) : profile.isError ? (
        <QueryError error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <Spinner />
      )}
    </div>
  );
}
