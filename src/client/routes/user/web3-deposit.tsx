import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { Web3DepositPage } from '../../features/web3/components/web3-deposit-page.tsx';

export const Route = createFileRoute('/user/web3-deposit')({
  // The deposit being followed is in the address: a reload keeps following it.
  validateSearch: v.object({ deposit: v.fallback(v.optional(v.string()), undefined) }),
  component: Web3DepositRoute,
});

function Web3DepositRoute() {
  const { deposit } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <Web3DepositPage followId={deposit} onFollow={(id) => navigate({ search: { deposit: id } })} />;
}
