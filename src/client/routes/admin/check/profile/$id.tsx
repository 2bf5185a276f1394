import { createFileRoute } from '@tanstack/react-router';
import { MemberProfile } from '../../../../features/users/components/member-profile.tsx';
import { AdjustmentForm } from '../../../../features/wallets/components/adjustment-form.tsx';

export const Route = createFileRoute('/admin/check/profile/$id')({ component: MemberProfilePage });

function MemberProfilePage() {
  const { id } = Route.useParams();
  // A new id is a new screen: nothing typed into one member's form carries over to another's.
  // The adjustment form is the wallets feature's, composed here: features never import each other.
  return <MemberProfile key={id} id={id} adjustment={(member) => <AdjustmentForm member={member} />} />;
}
