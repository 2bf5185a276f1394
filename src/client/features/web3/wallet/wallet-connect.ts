import { WalletConnectModal } from '@walletconnect/modal';
import SignClient from '@walletconnect/sign-client';
import { encodeFunctionData, erc20Abi, type Hex, numberToHex, parseUnits, toHex } from 'viem';
import { WEB3_WALLET_CHAINS } from '../../../../shared/web3.ts';

// The one module that knows WalletConnect (issue 18). The deposit screen loads it with import() when
// the member presses "Connect wallet", so its weight (the sign client, the modal, viem's encoder) never
// reaches the landing page or the rest of the member area. @walletconnect/modal is deprecated upstream
// in favour of Reown AppKit: swapping it means rewriting this file only; the screen sees `Wallet`.

export type WalletState = { address: Hex; chainId: number };

export type Wallet = {
  readonly state: WalletState;
  /** Called when the wallet changes account or chain, or disconnects (null). */
  subscribe: (listener: (state: WalletState | null) => void) => () => void;
  /** Asks the wallet to move to this chain (wallet_switchEthereumChain). */
  switchChain: (chainId: number) => Promise<void>;
  /** An ERC-20 transfer of `amount` (a decimal string, e.g. "12.50") to `to`, sent by the wallet: its hash. */
  sendToken: (input: {
    chainId: number;
    token: Hex;
    to: Hex;
    amount: string;
    decimals: number;
  }) => Promise<Hex>;
  /** personal_sign (EIP-191) of a text message. */
  signMessage: (message: string) => Promise<Hex>;
  disconnect: () => Promise<void>;
};

export type ConnectOptions = {
  projectId: string;
  /** A relay of the operator's own; undefined: WalletConnect's public relay. */
  relayUrl?: string;
  /** The chain a deposit needs, proposed first. */
  chainId: number;
  /** The pairing link (wc:...), for wallets that take it pasted rather than scanned. */
  onUri?: (uri: string) => void;
};

/** Reaching the relay and creating the pairing may take this long before the member is told. */
const REACH_RELAY_MS = 20_000;

/** Rejects with Error('unreachable') when `promise` has not settled in `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('unreachable')), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const METHODS = ['eth_sendTransaction', 'personal_sign', 'wallet_switchEthereumChain'];
const EVENTS = ['chainChanged', 'accountsChanged'];
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' };

type Session = Awaited<ReturnType<Awaited<ReturnType<SignClient['connect']>>['approval']>>;

/** `eip155:56:0xabc...` -> { chainId: 56, address }. */
function parseAccount(account: string): WalletState | undefined {
  const [ns, chain, address] = account.split(':');
  if (ns !== 'eip155' || !chain || !address) return undefined;
  return { chainId: Number(chain), address: address as Hex };
}

/**
 * The wallet's account on `chainId` when the session has one, else its first account: a wallet lists
 * the chain it is on first (EIP-1193's chainId), and tells of a later change with chainChanged.
 */
function accountOn(session: Session, chainId?: number): WalletState {
  const accounts = (session.namespaces.eip155?.accounts ?? []).flatMap((a) => parseAccount(a) ?? []);
  const state = accounts.find((a) => a.chainId === chainId) ?? accounts[0];
  if (!state) throw new Error('The wallet connected no account');
  return state;
}

let clientPromise: Promise<SignClient> | undefined;

function signClient(options: ConnectOptions): Promise<SignClient> {
  clientPromise ??= SignClient.init({
    projectId: options.projectId,
    ...(options.relayUrl ? { relayUrl: options.relayUrl } : {}),
    // No usage reports to WalletConnect's telemetry host.
    telemetryEnabled: false,
    metadata: {
      name: document.title || 'Member platform',
      description: 'Deposit USDT (BEP20) to your Active Wallet',
      url: window.location.origin,
      icons: [`${window.location.origin}/icons/icon-192.png`],
    },
  });
  clientPromise.catch(() => {
    clientPromise = undefined;
  });
  return clientPromise;
}

/**
 * Connects a wallet: a live session from before is reused; otherwise the modal shows the pairing QR
 * (desktop) or the wallets to open by deep link (phone). Rejects when the member closes the modal.
 */
export async function connectWallet(options: ConnectOptions): Promise<Wallet> {
  const client = await within(signClient(options), REACH_RELAY_MS);
  const now = Date.now() / 1000;
  let session = client.session.getAll().find((s) => s.expiry > now && s.namespaces.eip155);
  if (!session) {
    const chains = [
      `eip155:${options.chainId}`,
      ...WEB3_WALLET_CHAINS.filter((c) => c.id !== options.chainId).map((c) => `eip155:${c.id}`),
    ];
    const { uri, approval } = await within(
      client.connect({ optionalNamespaces: { eip155: { chains, methods: METHODS, events: EVENTS } } }),
      REACH_RELAY_MS,
    );
    if (uri) options.onUri?.(uri);
    const modal = new WalletConnectModal({
      projectId: options.projectId,
      chains,
      themeMode: 'light',
      enableExplorer: true,
    });
    let unsubscribe = () => {};
    try {
      const closed = new Promise<never>((_, reject) => {
        unsubscribe = modal.subscribeModal((state) => {
          if (!state.open) reject(new Error('closed'));
        });
      });
      // Not awaited: the modal waits for WalletConnect's wallet list before it resolves, and the session
      // may be approved meanwhile through the link (or never shown, where that list cannot load).
      if (uri) void modal.openModal({ uri }).catch(() => {});
      session = await Promise.race([approval(), closed]);
    } finally {
      unsubscribe();
      modal.closeModal();
    }
  }
  return walletOf(client, session);
}

function walletOf(client: SignClient, session: Session): Wallet {
  let state: WalletState | null = accountOn(session);
  const listeners = new Set<(state: WalletState | null) => void>();
  const emit = (next: WalletState | null) => {
    state = next;
    for (const listener of listeners) listener(next);
  };
  const topic = session.topic;
  const onEvent = (event: { topic: string; params: { event: { name: string; data: unknown } } }) => {
    if (event.topic !== topic || !state) return;
    const { name, data } = event.params.event;
    if (name === 'chainChanged') emit({ ...state, chainId: Number(data) });
    if (name === 'accountsChanged' && Array.isArray(data) && typeof data[0] === 'string') {
      const parsed = parseAccount(data[0]);
      emit(parsed ?? { ...state, address: data[0] as Hex });
    }
  };
  const onUpdate = (event: { topic: string }) => {
    if (event.topic !== topic) return;
    const updated = client.session.get(topic);
    emit(accountOn(updated, state?.chainId));
  };
  const onDelete = (event: { topic: string }) => {
    if (event.topic === topic) emit(null);
  };
  client.on('session_event', onEvent);
  client.on('session_update', onUpdate);
  client.on('session_delete', onDelete);
  client.on('session_expire', onDelete);

  const current = () => {
    if (!state) throw new Error('The wallet is disconnected');
    return state;
  };
  const request = <T>(chainId: number, method: string, params: unknown[]) =>
    client.request<T>({ topic, chainId: `eip155:${chainId}`, request: { method, params } });

  return {
    get state() {
      return current();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async switchChain(chainId) {
      const from = current();
      await request(from.chainId, 'wallet_switchEthereumChain', [{ chainId: numberToHex(chainId) }]);
      // Wallets also send chainChanged; the session's own account on that chain is the address there.
      const there = (client.session.get(topic).namespaces.eip155?.accounts ?? [])
        .flatMap((a) => parseAccount(a) ?? [])
        .find((a) => a.chainId === chainId);
      emit(there ?? { ...from, chainId });
    },
    async sendToken({ chainId, token, to, amount, decimals }) {
      const from = current();
      const units = parseUnits(amount, decimals);
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] });
      return request<Hex>(chainId, 'eth_sendTransaction', [{ from: from.address, to: token, data }]);
    },
    async signMessage(message) {
      const from = current();
      return request<Hex>(from.chainId, 'personal_sign', [toHex(message), from.address]);
    },
    async disconnect() {
      client.off('session_event', onEvent);
      client.off('session_update', onUpdate);
      client.off('session_delete', onDelete);
      client.off('session_expire', onDelete);
      emit(null);
      await client.disconnect({ topic, reason: USER_DISCONNECTED }).catch(() => {});
    },
  };
}
