import { useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import { WALLET_LABELS, WALLETS } from '../../../../shared/wallets.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { Term } from '../../../ui/term.tsx';
import { walletBalanceQuery } from '../api.ts';

/** The member's two wallets and what each holds now (available balance, in US dollars). */
export function WalletCards() {
  const { data, isPending, error, refetch } = useQuery(walletBalanceQuery);
  if (isPending) return <Spinner label="Loading your balances" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  return (
    <section aria-labelledby="wallets-title">
      <h2 id="wallets-title">Your wallets</h2>
      <dl className="stat-grid">
        {WALLETS.map((wallet) => (
          <div className="stat" key={wallet}>
            <dt>
              <Term id={wallet === 'business' ? 'activeWallet' : 'incomeWorking'}>
                {WALLET_LABELS[wallet]}
              </Term>
            </dt>
            <dd data-testid={`balance-${wallet}`}>{formatUsd(data[wallet])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
