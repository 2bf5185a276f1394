import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { type AddMoneyWay, addMoneyWays } from '../../../shared/deposits.ts';
import { PAYMENT_EXPIRY_MS } from '../../../shared/payments.ts';
import type { Web3Config } from '../../../shared/web3.ts';
import { qrLinksQuery } from '../../features/qr-links/api.ts';
import { web3ConfigQuery } from '../../features/web3/api.ts';
import { QueryError } from '../../ui/query-error.tsx';
import { Spinner } from '../../ui/spinner.tsx';

// One entry for adding money: each way the platform has set up, with when to use it (docs/rules.md
// "Adding money"); a way with nowhere to pay to is not offered.

export const Route = createFileRoute('/user/add-money')({ component: AddMoneyPage });

function AddMoneyPage() {
  const config = useQuery(web3ConfigQuery);
  const qr = useQuery(qrLinksQuery);
  const loading = config.isPending || qr.isPending;
  const failed = config.error ?? qr.error;
  // Until the set-up is known (or when it cannot be read), only the way that needs none is offered.
  const ways =
    config.data && qr.data
      ? addMoneyWays({ depositAddress: config.data.deposit_address, qrLinks: qr.data.qr.length })
      : (['invoice'] as const);
  return (
    <div className="stack">
      <header>
        <h1>Add money</h1>
        <p className="muted">
          Money you add goes to your Active Wallet, in US dollars. Choose how you pay; each way says when it
          suits.
        </p>
      </header>
      <ul className="stack plain-list" aria-label="Ways to add money">
        {ways.map((way) => (
          <WayCard key={way} way={way} config={config.data} />
        ))}
      </ul>
      {loading ? <Spinner label="Loading the other ways to pay" /> : null}
      {failed && !loading ? (
        <QueryError
          error={failed}
          onRetry={() => {
            void config.refetch();
            void qr.refetch();
          }}
        />
      ) : null}
      <Link to="/user/deposit-history" className="button">
        Deposit history
      </Link>
    </div>
  );
}

function WayCard({ way, config }: { way: AddMoneyWay; config: Web3Config | undefined }) {
  const titleId = `way-${way}`;
  return (
    <li className="card stack" aria-labelledby={titleId} data-testid={`add-money-${way}`}>
      {way === 'invoice' ? (
        <>
          <h2 id={titleId}>Pay an invoice</h2>
          <p>
            Suits most people, and paying from an exchange. You enter an amount and get an address and the
            exact USDT (BEP20) to send within {PAYMENT_EXPIRY_MS / 60_000} minutes. Once the payment is
            confirmed, your Active Wallet is credited by itself.
          </p>
          <Link to="/user/scanner" className="button primary">
            Create an invoice
          </Link>
        </>
      ) : way === 'on_chain' ? (
        <>
          <h2 id={titleId}>Send from your own wallet</h2>
          <p>
            Suits USDT already in a wallet of your own on BNB Smart Chain. Connect the wallet, or send from
            any wallet and paste the transaction hash.{' '}
            {config?.chain_check
              ? `Credited after ${config.required_confirmations} confirmations on chain.`
              : 'Credited once an admin has checked it on chain.'}
          </p>
          <Link to="/user/web3-deposit" className="button">
            Send on chain
          </Link>
        </>
      ) : (
        <>
          <h2 id={titleId}>Report a payment you made</h2>
          <p>
            Suits a payment you already sent to one of the platform’s addresses. Give the amount and the
            transaction hash; an admin checks it before your Active Wallet is credited, which can take longer
            than the other ways.
          </p>
          <Link to="/user/deposit-history" hash="manual-deposit" className="button">
            Report a payment
          </Link>
        </>
      )}
    </li>
  );
}
