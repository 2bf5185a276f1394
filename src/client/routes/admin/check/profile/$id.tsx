import { createFileRoute } from '@tanstack/react-router';
import { MemberProfile } from '../../../../features/users/components/member-profile.tsx';

export const Route = createFileRoute('/admin/check/profile/$id')({ component: MemberProfilePage });

function MemberProfilePage() {
  const { id } = Route.useParams();
  // A new id is a new screen: nothing typed into one member's form carries over to another's.
  return <MemberProfile key={id} id={id} />;
}
