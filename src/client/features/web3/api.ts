import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { formatCents } from '../../../shared/money.ts';
import type {
  Web3Approve,
  Web3Assign,
  Web3Config,
  Web3Deposit,
  Web3DepositList,
  Web3DepositResult,
  Web3DepositStatus,
  Web3Settings,
} from '../../../shared/web3.ts';
import type { Web3Challenge, Web3Wallet } from '../../../shared/web3-wallets.ts';
import { api } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

// On-chain deposits (API.md "On-chain deposits"). The server checks every hash on chain; the screens
// only send the hash and follow the deposit's status.

/** While a deposit is open its screen asks again this often; each ask re-reads the chain on the server. */
export const WEB3_FOLLOW_MS = 5000;

export const web3ConfigQuery = queryOptions({
  queryKey: ['web3', 'config'],
  queryFn: () => api<Web3Config>('GET', '/web3/config'),
  staleTime: 5 * 60_000,
});

export const myWeb3DepositsQuery = queryOptions({
  queryKey: ['web3', 'deposits', 'mine'],
  queryFn: () => api<Web3DepositList>('GET', '/web3/deposits'),
  staleTime: 0,
});

export const isOpen = (d: Pick<Web3Deposit, 'status'>) => d.status === 'pending' || d.status === 'confirming';

export const web3DepositQuery = (id: string) =>
  queryOptions({
    queryKey: ['web3', 'deposit', id],
    queryFn: () => api<{ deposit: Web3Deposit }>('GET', `/web3/deposits/${encodeURIComponent(id)}`),
    staleTime: 0,
    refetchInterval: (query) => {
      const deposit = query.state.data?.deposit;
      return !deposit || isOpen(deposit) || deposit.status === 'awaiting_admin' ? WEB3_FOLLOW_MS : false;
    },
  });

// Not under the ['admin'] key: that one is the persisted admin session.
export const allWeb3DepositsQuery = (status: Web3DepositStatus | undefined) =>
  queryOptions({
    queryKey: ['web3', 'deposits', 'all', { status: status ?? null }],
    queryFn: () => api<Web3DepositList>('GET', `/web3/deposits${status ? `?status=${status}` : ''}`),
    staleTime: 0,
  });

export const web3SettingsQuery = queryOptions({
  queryKey: ['web3', 'settings'],
  queryFn: () => api<{ settings: Web3Settings }>('GET', '/web3/settings'),
  staleTime: 60_000,
});

export const myWalletsQuery = queryOptions({
  queryKey: ['web3', 'wallets'],
  queryFn: () => api<{ wallets: Web3Wallet[] }>('GET', '/web3/wallets'),
  staleTime: 60_000,
});

/** The message to sign to prove `address` is the member's (POST /web3/wallets/challenge). */
export const requestWalletChallenge = (address: string) =>
  api<Web3Challenge>('POST', '/web3/wallets/challenge', { address });

export const proveWallet = (address: string, signature: string) =>
  api<{ message: string; wallet: Web3Wallet }>('POST', '/web3/wallets', { address, signature });

/** One Idempotency-Key per press: the CSRF retry inside api() resends it. */
export const submitWeb3Deposit = (txHash: string, chainId: number) =>
  api<Web3DepositResult>(
    'POST',
    '/web3/deposits',
    { chain_id: chainId, tx_hash: txHash },
    { 'Idempotency-Key': newIdempotencyKey() },
  );

export const approveWeb3Deposit = (id: string, input: Web3Approve) =>
  api<Web3DepositResult>(
    'POST',
    `/web3/deposits/${encodeURIComponent(id)}/approve`,
    { amount: formatCents(input.amount), ...(input.reason ? { reason: input.reason } : {}) },
    { 'Idempotency-Key': newIdempotencyKey() },
  );

export const assignWeb3Deposit = (id: string, input: Web3Assign) =>
  api<Web3DepositResult>('POST', `/web3/deposits/${encodeURIComponent(id)}/assign`, input);

export const rejectWeb3Deposit = (id: string, reason: string) =>
  api<Web3DepositResult>('POST', `/web3/deposits/${encodeURIComponent(id)}/reject`, { reason });

/** A deposit changed: its lists and (after a credit) every balance shown are out of date. */
export async function refreshAfterWeb3(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['web3'], ['wallet'], ['ledger']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
