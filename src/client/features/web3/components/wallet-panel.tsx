import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { formatCents } from '../../../../shared/money.ts';
import {
  WEB3_CHAIN_ID,
  WEB3_MESSAGES,
  type Web3Config,
  web3ChainName,
  web3SendSchema,
} from '../../../../shared/web3.ts';
import { shortened } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { CopyButton } from '../../../ui/copy-button.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import {
  myWalletsQuery,
  proveWallet,
  refreshAfterWeb3,
  requestWalletChallenge,
  submitWeb3Deposit,
  web3DepositQuery,
} from '../api.ts';
import type { Wallet, WalletState } from '../wallet/wallet-connect.ts';

// Connecting a wallet on the deposit screen: connect (the WalletConnect module is downloaded only on
// this press), switch to BNB Smart Chain, prove the address once by signing, then send USDT through
// the wallet; the hash it answers is submitted as a pasted one is, and followed the same way.

const loadWalletModule = () => import('../wallet/wallet-connect.ts');

/** A wallet's refusal in words: a closed modal or a rejected request is the member's own choice. */
function walletErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (text === 'closed') return 'Connection cancelled. Press Connect wallet to try again.';
  if (text === 'unreachable')
    return 'Could not reach the wallet connection service. Check your connection and try again, or send from your wallet and paste the transaction hash below.';
  if (/reject|denied|cancel/i.test(text)) return 'Your wallet declined the request.';
  return errorText(error);
}

export function WalletPanel({
  config,
  onSubmitted,
}: {
  config: Web3Config;
  onSubmitted: (id: string) => void;
}) {
  const [wallet, setWallet] = useState<Wallet | null>(null);
  const [state, setState] = useState<WalletState | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [explained, setExplained] = useState(false);
  const [pairingUri, setPairingUri] = useState<string | null>(null);

  useEffect(() => (wallet ? wallet.subscribe(setState) : undefined), [wallet]);

  const projectId = config.walletconnect_project_id;
  if (!projectId) {
    return (
      <div className="stack">
        <button type="button" className="button" onClick={() => setExplained(true)} aria-expanded={explained}>
          Connect wallet
        </button>
        {explained ? (
          <p className="notice" role="status" data-testid="web3-wallet-note">
            {WEB3_MESSAGES.walletNotConfigured}
          </p>
        ) : null}
      </div>
    );
  }

  async function connect() {
    setProblem(null);
    setBusy('Open your wallet to approve the connection…');
    try {
      const { connectWallet } = await loadWalletModule();
      const connected = await connectWallet({
        projectId: projectId as string,
        relayUrl: config.walletconnect_relay_url ?? undefined,
        chainId: WEB3_CHAIN_ID,
        onUri: setPairingUri,
      });
      setWallet(connected);
      setState(connected.state);
    } catch (error) {
      setProblem(walletErrorText(error));
    } finally {
      setBusy(null);
      setPairingUri(null);
    }
  }

  async function run(label: string, action: () => Promise<void>) {
    setProblem(null);
    setBusy(label);
    try {
      await action();
    } catch (error) {
      setProblem(walletErrorText(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card stack" aria-labelledby="web3-wallet-title" data-testid="web3-wallet">
      <h2 id="web3-wallet-title">Send from your wallet</h2>
      {!wallet || !state ? (
        <button
          type="button"
          className="button primary"
          onClick={() => void connect()}
          disabled={busy !== null}
        >
          {busy ? 'Connecting…' : 'Connect wallet'}
        </button>
      ) : (
        <ConnectedWallet
          config={config}
          wallet={wallet}
          state={state}
          busy={busy}
          run={run}
          onSubmitted={onSubmitted}
          onDisconnect={() => {
            void wallet.disconnect();
            setWallet(null);
            setState(null);
          }}
        />
      )}
      {busy ? (
        <p role="status" aria-live="polite">
          {busy}
        </p>
      ) : null}
      {pairingUri ? (
        <div className="stack">
          <p className="muted">Or copy the connection link and paste it in your wallet app.</p>
          <div className="web3-copy-row">
            <input
              className="web3-address"
              readOnly
              value={pairingUri}
              aria-label="Connection link"
              onFocus={(e) => e.target.select()}
            />
            <CopyButton text={pairingUri} label="Copy link" />
          </div>
        </div>
      ) : null}
      {problem ? (
        <p className="field-error" role="alert" data-testid="web3-wallet-problem">
          {problem}
        </p>
      ) : null}
    </section>
  );
}

function ConnectedWallet({
  config,
  wallet,
  state,
  busy,
  run,
  onSubmitted,
  onDisconnect,
}: {
  config: Web3Config;
  wallet: Wallet;
  state: WalletState;
  busy: string | null;
  run: (label: string, action: () => Promise<void>) => Promise<void>;
  onSubmitted: (id: string) => void;
  onDisconnect: () => void;
}) {
  const queryClient = useQueryClient();
  const wallets = useQuery(myWalletsQuery);
  const proven = wallets.data?.wallets.some((w) => w.address === state.address.toLowerCase()) ?? false;
  const onBsc = state.chainId === WEB3_CHAIN_ID;

  const prove = () =>
    run(WEB3_MESSAGES.proofIssued, async () => {
      const challenge = await requestWalletChallenge(state.address);
      const signature = await wallet.signMessage(challenge.message);
      await proveWallet(state.address, signature);
      await queryClient.invalidateQueries({ queryKey: myWalletsQuery.queryKey });
    });

  return (
    <div className="stack">
      <p>
        Connected: <span className="web3-address">{shortened(state.address)}</span> on{' '}
        <strong data-testid="web3-wallet-chain">{web3ChainName(state.chainId)}</strong>
      </p>
      {!onBsc ? (
        <div className="stack">
          <p className="notice" role="status">
            Your wallet is on {web3ChainName(state.chainId)}. Deposits are accepted on {config.chain_name}{' '}
            only.
          </p>
          <button
            type="button"
            className="button primary"
            disabled={busy !== null}
            onClick={() =>
              void run('Approve the switch in your wallet…', () => wallet.switchChain(WEB3_CHAIN_ID))
            }
          >
            Switch to {config.chain_name}
          </button>
        </div>
      ) : null}
      {wallets.isSuccess && !proven ? (
        <div className="stack">
          <p className="muted">
            Prove this wallet is yours once by signing a message: it costs nothing and moves no money. Until
            then, a deposit sent from it waits for an admin to check it.
          </p>
          <button type="button" className="button" disabled={busy !== null} onClick={() => void prove()}>
            Prove this wallet is mine
          </button>
        </div>
      ) : null}
      {proven ? <p data-testid="web3-wallet-proven">This wallet is proven yours.</p> : null}
      {onBsc ? (
        <SendForm
          config={config}
          wallet={wallet}
          disabled={busy !== null}
          run={run}
          onSubmitted={onSubmitted}
        />
      ) : null}
      <button type="button" className="button" onClick={onDisconnect}>
        Disconnect
      </button>
    </div>
  );
}

function SendForm({
  config,
  wallet,
  disabled,
  run,
  onSubmitted,
}: {
  config: Web3Config;
  wallet: Wallet;
  disabled: boolean;
  run: (label: string, action: () => Promise<void>) => Promise<void>;
  onSubmitted: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const { errors, busy, submit } = useSchemaForm();
  const { offline } = useOffline();
  const { token_contract: token, deposit_address: to, token_decimals: decimals } = config;
  if (!token || !to || decimals === null) {
    return (
      <p className="notice" role="status">
        {WEB3_MESSAGES.walletNoDecimals}
      </p>
    );
  }

  function send(event: FormEvent) {
    event.preventDefault();
    if (offline || !token || !to || decimals === null) return;
    void submit(
      web3SendSchema,
      { amount },
      (input) =>
        run('Confirm the transfer in your wallet…', async () => {
          const hash = await wallet.sendToken({
            chainId: WEB3_CHAIN_ID,
            token: token as `0x${string}`,
            to: to as `0x${string}`,
            amount: formatCents(input.amount),
            decimals,
          });
          const result = await submitWeb3Deposit(hash, WEB3_CHAIN_ID);
          setAmount('');
          queryClient.setQueryData(web3DepositQuery(result.deposit.id).queryKey, { deposit: result.deposit });
          void refreshAfterWeb3(queryClient);
          onSubmitted(result.deposit.id);
        }),
      () => {},
    );
  }

  return (
    <form className="form" onSubmit={send} noValidate aria-busy={busy}>
      <FormField
        label="Amount (USDT)"
        name="amount"
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amount}
        autoComplete="off"
        disabled={busy || disabled}
      />
      <MoneyOfflineNote />
      <button type="submit" className="button primary" disabled={busy || disabled || offline}>
        Send USDT
      </button>
    </form>
  );
}
