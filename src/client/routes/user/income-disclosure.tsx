import { createFileRoute, Link } from '@tanstack/react-router';
import { IncomeDisclosure } from '../../features/disclosure/components/income-disclosure.tsx';

// The income disclosure inside the member area: the member's header, bottom bar and a way back. An
// installed app has no Back button of its own; the public page (/income-disclosure) is for visitors.
export const Route = createFileRoute('/user/income-disclosure')({ component: MemberIncomeDisclosurePage });

function MemberIncomeDisclosurePage() {
  return (
    <div className="stack">
      <Link to="/user/dashboard">Back to the dashboard</Link>
      <IncomeDisclosure />
    </div>
  );
}
