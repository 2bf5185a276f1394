import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import * as v from 'valibot';
import { memberEmail } from '../../../shared/qr.ts';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { TransferForm } from '../../features/transfers/components/transfer-form.tsx';

export const Route = createFileRoute('/user/transfer-form')({
  // ?to=<e-mail> prefills the recipient: a member's Receive QR opened by the phone's own camera lands here.
  // Only text here (a route's search check is in the main bundle every visitor downloads); the page
  // keeps it only when it is an e-mail (memberEmail), so anything else prefills nothing.
  validateSearch: v.object({
    to: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(254))), undefined),
  }),
  component: TransferFormPage,
});

function TransferFormPage() {
  const member = useQuery(memberSessionQuery).data?.auth;
  const to = memberEmail(Route.useSearch().to) ?? undefined;
  return (
    <div className="stack">
      <h1>Transfer fund</h1>
      {member ? <TransferForm key={to ?? ''} member={member} initialEmail={to} /> : null}
      <Link to="/user/transfer">Back to the Transfer Dashboard</Link>
    </div>
  );
}
