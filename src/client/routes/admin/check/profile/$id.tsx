import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { MEMBER_RECORD_TABS } from '../../../../../shared/enums.ts';
import { MemberProfile } from '../../../../features/users/components/member-profile.tsx';
import { AdjustmentForm } from '../../../../features/wallets/components/adjustment-form.tsx';

export const Route = createFileRoute('/admin/check/profile/$id')({
  // The records tab is in the address: a reload or a shared link opens the same one.
  validateSearch: v.object({
    // No tab in the address is the first one: a plain link to the page stays a plain address.
    tab: v.fallback(v.optional(v.picklist(MEMBER_RECORD_TABS)), undefined),
  }),
  component: MemberProfilePage,
});

function MemberProfilePage() {
  const { id } = Route.useParams();
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  // A new id is a new screen: nothing typed into one member's form carries over to another's.
  // The adjustment form is the wallets feature's, composed here: features never import each other.
  return (
    <MemberProfile
      key={id}
      id={id}
      tab={tab ?? 'investments'}
      onTab={(next) => navigate({ search: { tab: next }, resetScroll: false, replace: true })}
      adjustment={(member) => <AdjustmentForm member={member} />}
    />
  );
}
