import { randomUUID } from 'node:crypto';
import type SignClientClass from '@walletconnect/sign-client';
// The named export: Playwright's loader (CommonJS) does not find init() through the default one.
import { SignClient } from '@walletconnect/sign-client';
import { encodeFunctionData, erc20Abi, type Hash, type Hex, parseUnits, toHex, verifyMessage } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvmChain, startEvmChain } from '../helpers/evm-chain.ts';
import { type FakeRelay, startFakeRelay } from '../helpers/fake-wc-relay.ts';
import { startTestWallet, type TestWallet } from '../helpers/test-wallet.ts';

// The local WalletConnect relay and the test wallet, end to end in Node: a dapp-side sign client, as
// the deposit screen builds it, pairs with the wallet through the relay, and the wallet signs, sends a
// token transfer on the local chain and switches chains. Needs no database.

const METHODS = ['eth_sendTransaction', 'personal_sign', 'wallet_switchEthereumChain'];
const EVENTS = ['chainChanged', 'accountsChanged'];

let chain: EvmChain;
let relay: FakeRelay;
let wallet: TestWallet;
let dapp: SignClientClass;
let token: Hex;

beforeAll(async () => {
  [chain, relay] = await Promise.all([startEvmChain(), startFakeRelay()]);
  token = await chain.deployToken('USDT', 18);
  await chain.transfer(token, chain.accounts.wallet, parseUnits('100', 18));
  // On Ethereum first, so switching to BNB Smart Chain is a change the dapp must hear of.
  wallet = await startTestWallet({
    relayUrl: relay.url,
    rpcUrl: chain.rpcUrl,
    account: chain.accounts.wallet,
    chainId: 1,
  });
  dapp = await SignClient.init({
    projectId: 'test-project-id',
    relayUrl: relay.url,
    customStoragePrefix: `test-dapp-${randomUUID()}`,
    storageOptions: { database: ':memory:' },
    telemetryEnabled: false,
    logger: 'silent',
    metadata: { name: 'Member platform', description: 'Deposits', url: 'https://dapp.test', icons: [] },
  });
});

afterAll(async () => {
  await wallet?.stop();
  if (dapp) {
    dapp.core.heartbeat.stop();
    await dapp.core.relayer.transportClose();
  }
  await relay?.stop();
  await chain?.stop();
});

describe('a dapp and the test wallet through the local relay', () => {
  let topic: string;

  it('pairs by URI and the session names the wallet account on the chains it approved', async () => {
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: ['eip155:56', 'eip155:1', 'eip155:137', 'eip155:42161'],
          methods: METHODS,
          events: EVENTS,
        },
      },
    });
    expect(uri).toMatch(/^wc:/);
    await wallet.pair(uri ?? '');
    const session = await approval();
    topic = session.topic;
    expect(session.namespaces.eip155?.accounts).toEqual([
      `eip155:1:${chain.accounts.wallet}`,
      `eip155:56:${chain.accounts.wallet}`,
    ]);
    expect(session.namespaces.eip155?.methods).toEqual(METHODS);
    expect(wallet.client.session.get(topic).acknowledged).toBe(true);
  });

  it("answers personal_sign with the account's EIP-191 signature", async () => {
    const message = `Deposit wallet proof ${randomUUID()}`;
    const signature = await dapp.request<Hex>({
      topic,
      chainId: 'eip155:1',
      request: { method: 'personal_sign', params: [toHex(message), chain.accounts.wallet] },
    });
    expect(await verifyMessage({ address: chain.accounts.wallet, message, signature })).toBe(true);
  });

  it('switches to BNB Smart Chain and tells the dapp with chainChanged', async () => {
    const changed = new Promise<unknown>((resolve) => {
      dapp.on('session_event', (event) => {
        if (event.topic === topic && event.params.event.name === 'chainChanged') {
          resolve(event.params.event.data);
        }
      });
    });
    const answer = await dapp.request({
      topic,
      chainId: 'eip155:1',
      request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x38' }] },
    });
    expect(answer).toBeNull();
    expect(Number(await changed)).toBe(56);
    expect(wallet.chainId).toBe(56);
  });

  it('sends an ERC-20 transfer whose receipt succeeds on the chain', async () => {
    const amount = parseUnits('12.5', 18);
    const hash = await dapp.request<Hash>({
      topic,
      chainId: 'eip155:56',
      request: {
        method: 'eth_sendTransaction',
        params: [
          {
            from: chain.accounts.wallet,
            to: token,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transfer',
              args: [chain.accounts.other, amount],
            }),
          },
        ],
      },
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe('success');
    const balance = await chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [chain.accounts.other],
    });
    expect(balance).toBe(amount);
    expect(wallet.requests).toEqual(['personal_sign', 'wallet_switchEthereumChain', 'eth_sendTransaction']);
  });

  it('keeps the session across a new relay connection of the dapp, as after a page reload', async () => {
    // A new socket: the dapp subscribes again (irn_batchSubscribe) and the relay knows it by its client id.
    await dapp.core.relayer.restartTransport();
    const message = 'After reconnecting';
    const signature = await dapp.request<Hex>({
      topic,
      chainId: 'eip155:56',
      request: { method: 'personal_sign', params: [toHex(message), chain.accounts.wallet] },
    });
    expect(await verifyMessage({ address: chain.accounts.wallet, message, signature })).toBe(true);
    expect(wallet.requests.at(-1)).toBe('personal_sign');
    expect(wallet.requests).toHaveLength(4);
  });
});
