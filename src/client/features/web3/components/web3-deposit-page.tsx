import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd } from '../../../../shared/money.ts';
import '../web3.css';
import { type FormEvent, useState } from 'react';
import {
  WEB3_CHAIN_ID,
  WEB3_EXPLORER_TX_URL,
  type Web3Config,
  web3DepositRequestSchema,
} from '../../../../shared/web3.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { CopyButton } from '../../../ui/copy-button.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { refreshAfterWeb3, submitWeb3Deposit, web3ConfigQuery, web3DepositQuery } from '../api.ts';
import { MyWeb3Deposits } from './my-web3-deposits.tsx';
import { WalletPanel } from './wallet-panel.tsx';
import { Web3StatusBadge } from './web3-status-badge.tsx';

/**
 * /user/web3-deposit: where to send USDT; sent through a connected wallet (WalletPanel) or from any
 * wallet with its transaction hash pasted; either way followed until it is credited.
 */
export function Web3DepositPage({
  followId,
  onFollow,
}: {
  followId?: string;
  onFollow: (id: string) => void;
}) {
  const config = useQuery(web3ConfigQuery);
  return (
    <div className="stack">
      <h1>Deposit USDT on BNB Smart Chain</h1>
      {config.isPending ? (
        <Spinner label="Loading the deposit address" />
      ) : config.error ? (
        <QueryError error={config.error} onRetry={() => void config.refetch()} />
      ) : (
        <>
          <AddressCard config={config.data} />
          {/* With no address to send to, nothing here can be sent: no wallet to connect, no hash to paste. */}
          {config.data.deposit_address ? (
            <>
              <WalletPanel config={config.data} onSubmitted={onFollow} />
              <HashForm onSubmitted={onFollow} />
            </>
          ) : null}
        </>
      )}
      {followId ? <FollowedDeposit id={followId} /> : null}
      <h2>Your on-chain deposits</h2>
      <MyWeb3Deposits onFollow={onFollow} />
      <Link to="/user/deposit-history" className="button">
        Deposit history
      </Link>
    </div>
  );
}

function AddressCard({ config }: { config: Web3Config }) {
  return (
    <section className="card stack" aria-labelledby="web3-address-title">
      <h2 id="web3-address-title">Where to send</h2>
      {config.deposit_address ? (
        <>
          <p>
            Send {config.token_symbol} (BEP20) on {config.chain_name} only, to this address. Another token or
            another network is not credited.
          </p>
          <div className="web3-copy-row">
            <span className="web3-address" data-testid="web3-deposit-address">
              {config.deposit_address}
            </span>
            <CopyButton text={config.deposit_address} label="Copy address" />
          </div>
        </>
      ) : (
        <div className="stack">
          <p data-testid="web3-no-address">
            Sending on chain is not set up on this platform. Add money another way.
          </p>
          <Link to="/user/add-money" className="button">
            Other ways to add money
          </Link>
        </div>
      )}
      {config.token_contract ? (
        <p className="muted">
          Token contract: <span className="web3-address">{config.token_contract}</span>
        </p>
      ) : null}
      <p className="muted">
        {config.chain_check
          ? `Your deposit is credited after ${config.required_confirmations} confirmations on chain.`
          : 'An admin checks each deposit on chain before it is credited.'}
      </p>
    </section>
  );
}

function HashForm({ onSubmitted }: { onSubmitted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const [txHash, setTxHash] = useState('');
  const { errors, busy, submit } = useSchemaForm();
  const { banner, success, error } = useAutoClearBanner();
  const { offline } = useOffline();

  function send(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    void submit(
      web3DepositRequestSchema,
      { chain_id: WEB3_CHAIN_ID, tx_hash: txHash },
      async (input) => {
        const result = await submitWeb3Deposit(input.tx_hash, input.chain_id);
        success(result.message);
        setTxHash('');
        queryClient.setQueryData(web3DepositQuery(result.deposit.id).queryKey, { deposit: result.deposit });
        void refreshAfterWeb3(queryClient);
        onSubmitted(result.deposit.id);
      },
      error,
    );
  }

  return (
    <form className="card form" onSubmit={send} noValidate aria-busy={busy}>
      <h2>Or paste your transaction</h2>
      <MessageBanner banner={banner} />
      <FormField
        label="Transaction hash"
        name="tx_hash"
        value={txHash}
        onChange={(e) => setTxHash(e.target.value)}
        error={errors.tx_hash}
        hint="0x followed by 64 characters, from your wallet or the block explorer"
        autoComplete="off"
        spellCheck={false}
        disabled={busy}
      />
      <MoneyOfflineNote />
      <button type="submit" className="button primary" disabled={busy || offline}>
        {busy ? 'Sending...' : 'Submit'}
      </button>
    </form>
  );
}

function FollowedDeposit({ id }: { id: string }) {
  const query = useQuery(web3DepositQuery(id));
  const queryClient = useQueryClient();
  const deposit = query.data?.deposit;
  const [lastStatus, setLastStatus] = useState<string | undefined>(undefined);
  if (deposit && deposit.status !== lastStatus) {
    setLastStatus(deposit.status);
    // Credited meanwhile: the balances shown elsewhere are out of date.
    if (deposit.status === 'credited' && lastStatus !== undefined) void refreshAfterWeb3(queryClient);
  }
  if (query.isPending) return <Spinner label="Loading your deposit" />;
  if (query.error || !deposit) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <section
      className="card stack"
      aria-labelledby="web3-followed-title"
      data-testid="web3-followed"
      aria-live="polite"
    >
      <h2 id="web3-followed-title">Your deposit</h2>
      <p>
        <Web3StatusBadge deposit={deposit} />
      </p>
      {deposit.status === 'confirming' ? (
        <progress
          className="web3-progress"
          max={deposit.required_confirmations}
          value={deposit.confirmations}
          aria-label="Confirmations"
        />
      ) : null}
      {deposit.status === 'pending' ? <p>Waiting for the transaction to appear on chain.</p> : null}
      {deposit.status === 'awaiting_admin' ? (
        <p data-testid="web3-waiting">
          {deposit.reason ?? 'An admin will check this transaction and credit it.'}
        </p>
      ) : null}
      {deposit.status === 'credited' && deposit.amount ? (
        <p>{formatUsd(deposit.amount)} was added to your Active Wallet.</p>
      ) : null}
      {deposit.status === 'rejected' && deposit.reason ? (
        <p className="field-error" data-testid="web3-reason">
          {deposit.reason}
        </p>
      ) : null}
      <dl className="web3-details">
        {deposit.amount ? (
          <>
            <dt>Amount</dt>
            <dd>{formatUsd(deposit.amount)}</dd>
          </>
        ) : null}
        <dt>Sent</dt>
        <dd>{formatDateTime(deposit.created_at)}</dd>
        <dt>Transaction</dt>
        <dd className="web3-address">{deposit.tx_hash}</dd>
      </dl>
      <a
        href={`${WEB3_EXPLORER_TX_URL}${deposit.tx_hash}`}
        target="_blank"
        rel="noopener noreferrer"
        className="button"
      >
        View on BscScan
      </a>
    </section>
  );
}
