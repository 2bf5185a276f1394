import { randomUUID } from 'node:crypto';
import type SignClientClass from '@walletconnect/sign-client';
// The named export: Playwright's loader (CommonJS) does not find init() through the default one.
import { SignClient } from '@walletconnect/sign-client';
import { type Address, createPublicClient, type Hex, http, isHex, numberToHex, toHex } from 'viem';

// A WalletConnect wallet in the test process, the counterpart of the dapp in
// src/client/features/web3/wallet/wallet-connect.ts: it pairs with a URI, approves what a deposit
// needs on BNB Smart Chain (56) and Ethereum (1), and answers requests with an unlocked account of the
// local chain (tests/helpers/evm-chain.ts), so a test goes through WalletConnect without a phone.

const METHODS = ['eth_sendTransaction', 'personal_sign', 'wallet_switchEthereumChain'];
const EVENTS = ['chainChanged', 'accountsChanged'];
/** The chains the wallet offers, BNB Smart Chain (the local chain's id) first. */
const CHAINS = [56, 1];
// Ganache signs with an unlocked account; a fixed limit so a failing transfer is mined (and seen to revert)
// instead of being refused at estimation.
const GAS = '0x2dc6c0';

type Namespaces = Parameters<SignClientClass['approve']>[0]['namespaces'];
type Transaction = { from?: Address; to?: Address; data?: Hex; value?: Hex; gas?: Hex };

export type TestWallet = Awaited<ReturnType<typeof startTestWallet>>;

export async function startTestWallet(options: {
  relayUrl: string;
  /** JSON-RPC of the local chain the wallet signs and sends on. */
  rpcUrl: string;
  /** An unlocked account of that chain. */
  account: Address;
  /** The chain the wallet is on when it connects (its first account in the session); 56 by default. */
  chainId?: number;
}) {
  const { account } = options;
  const chain = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 0 }), cacheTime: 0 });
  const localChainId = await chain.getChainId();
  let chainId = options.chainId ?? localChainId;
  const client = await SignClient.init({
    projectId: 'test-project-id',
    relayUrl: options.relayUrl,
    // Two sign clients in one process share one core (keys, relay socket) unless their prefixes differ.
    customStoragePrefix: `test-wallet-${randomUUID()}`,
    // Nothing written to disk (the Node default is ./walletconnect.db) and nothing sent to WalletConnect.
    storageOptions: { database: ':memory:' },
    telemetryEnabled: false,
    logger: 'silent',
    // Without this a wallet waits a second after each answer before it takes the next request.
    signConfig: { disableRequestQueue: true },
    metadata: {
      name: 'Test wallet',
      description: 'A wallet for the tests',
      url: 'https://wallet.test',
      icons: [],
    },
  });
  /** The methods of the requests the dapp sent, in order. */
  const requests: string[] = [];

  client.on('session_proposal', ({ id }) => {
    const chains = [chainId, ...CHAINS.filter((c) => c !== chainId)].map((c) => `eip155:${c}`);
    const namespaces: Namespaces = {
      eip155: {
        chains,
        accounts: chains.map((c) => `${c}:${account}`),
        methods: METHODS,
        events: EVENTS,
      },
    };
    client.approve({ id, namespaces }).catch((error: unknown) => console.error('approve failed', error));
  });

  async function answer(method: string, params: unknown, requestChainId: number): Promise<unknown> {
    switch (method) {
      case 'personal_sign': {
        // [message, address]; ganache has no personal_sign, its eth_sign signs the same EIP-191 message.
        const [message, address] = params as [string, Address];
        return chain.request({
          method: 'eth_sign',
          params: [address, isHex(message) ? message : toHex(message)],
        } as never);
      }
      case 'eth_sendTransaction': {
        if (requestChainId !== localChainId) throw new Error(`No chain ${requestChainId} here`);
        const [transaction] = params as [Transaction];
        return chain.request({
          method: 'eth_sendTransaction',
          params: [{ ...transaction, from: transaction.from ?? account, gas: transaction.gas ?? GAS }],
        } as never);
      }
      case 'wallet_switchEthereumChain': {
        const [{ chainId: hexChainId }] = params as [{ chainId: Hex }];
        const next = Number(hexChainId);
        if (!CHAINS.includes(next)) throw new Error(`Unrecognized chain ID ${hexChainId}`);
        chainId = next;
        return null;
      }
      default:
        throw new Error(`Method not supported: ${method}`);
    }
  }

  client.on('session_request', ({ id, topic, params }) => {
    const { method } = params.request;
    requests.push(method);
    const requestChainId = Number(params.chainId.split(':')[1]);
    const switching = method === 'wallet_switchEthereumChain';
    answer(method, params.request.params, requestChainId)
      .then(
        async (result) => {
          await client.respond({ topic, response: { id, jsonrpc: '2.0', result } });
          // A wallet that moved tells the dapp after answering, as EIP-1193 wallets do.
          if (switching) {
            await client.emit({
              topic,
              event: { name: 'chainChanged', data: numberToHex(chainId) },
              chainId: `eip155:${chainId}`,
            });
          }
        },
        (error: unknown) =>
          client.respond({
            topic,
            response: {
              id,
              jsonrpc: '2.0',
              error: { code: switching ? 4902 : -32000, message: (error as Error).message },
            },
          }),
      )
      .catch((error: unknown) => console.error('answering a request failed', error));
  });

  return {
    account,
    get chainId() {
      return chainId;
    },
    requests,
    client,
    /** Pairs with a dapp's `wc:` URI; the session follows when its proposal arrives. */
    async pair(uri: string): Promise<void> {
      await client.pair({ uri });
    },
    async stop(): Promise<void> {
      client.core.heartbeat.stop();
      await client.core.relayer.transportClose();
    },
  };
}
