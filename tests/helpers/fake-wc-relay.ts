import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';

// A local stand-in for the WalletConnect relay (relay.walletconnect.org), so a dapp and a wallet built
// on @walletconnect/sign-client can pair and talk on a machine without internet. It speaks the relay's
// JSON-RPC as core 2.25 sends it: irn_* (subscribe, publish and their batch forms, fetch) plus the two
// methods sign-client publishes the pairing handshake with, wc_proposeSession and wc_approveSession.
// Messages stay encrypted end to end: the relay only routes them by topic. Every message is kept per
// topic and handed to whoever subscribes later (the wallet subscribes to the pairing topic after the
// dapp has published its proposal there). The auth JWT in the query string is not checked.

// `ws` 7 comes with @walletconnect/jsonrpc-ws-connection (the relay client itself) and ships no types:
// the few members used here are typed by hand.
type Socket = {
  readyState: number;
  send(data: string): void;
  ping(): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer | string) => void): void;
  on(event: 'close', listener: () => void): void;
};
type SocketServer = {
  address(): { port: number } | string | null;
  clients: Set<Socket>;
  on(event: 'connection', listener: (socket: Socket, request: IncomingMessage) => void): void;
  once(event: 'listening' | 'error', listener: (error?: Error) => void): void;
  close(callback: (error?: Error) => void): void;
};
const require = createRequire(import.meta.url);
const { Server } = require('ws') as {
  Server: new (options: { host: string; port: number }) => SocketServer;
};

const OPEN = 1;
// Tags sign-client gives the handshake messages when it publishes them one by one (irn_publish);
// the relay applies the same ones when it unpacks wc_proposeSession and wc_approveSession.
const TAG_SESSION_PROPOSE = 1100;
const TAG_SESSION_PROPOSE_RESPONSE = 1101;
const TAG_SESSION_SETTLE = 1102;

type JsonRpcRequest = { id: number | string; jsonrpc?: string; method?: string; params?: unknown };
type Stored = {
  topic: string;
  message: string;
  publishedAt: number;
  tag: number;
  attestation?: string;
  /** The publishing client: it never gets its own message back, even on a later connection. */
  from: string;
};

/**
 * The client's id (did:key), the `iss` of the auth JWT every client connects with (`?auth=`). Read
 * without checking the signature: it only tells a client's reconnection from another client.
 */
function clientIdOf(request: IncomingMessage): string | undefined {
  const auth = new URL(request.url ?? '/', 'ws://relay').searchParams.get('auth');
  const payload = auth?.split('.')[1];
  if (!payload) return undefined;
  try {
    const { iss } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

export type FakeRelay = Awaited<ReturnType<typeof startFakeRelay>>;

export async function startFakeRelay() {
  const server = new Server({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', (error) => reject(error));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const messagesByTopic = new Map<string, Stored[]>();
  const subscribers = new Map<string, Set<Socket>>();
  // What each client acknowledged is not sent to it again when it reconnects (the relay's mailbox);
  // what one socket was sent, not again on that socket.
  const acknowledged = new Map<string, Set<Stored>>();
  const sent = new WeakMap<Socket, Set<Stored>>();
  const awaitingAck = new Map<number, { client: string; stored: Stored }>();
  const clientIds = new WeakMap<Socket, string>();
  const clientOf = (socket: Socket) => clientIds.get(socket) ?? '';
  let lastRequestId = 0;
  /** Every relay method the clients called, in order: a test can see what the handshake needed. */
  const methods: string[] = [];

  const subscriptionId = (topic: string, socket: Socket) =>
    createHash('sha256')
      .update(`${topic}${clientOf(socket)}`)
      .digest('hex');

  function deliver(socket: Socket, stored: Stored) {
    const client = clientOf(socket);
    if (stored.from === client || socket.readyState !== OPEN) return;
    const sentHere = sent.get(socket) ?? new Set<Stored>();
    sent.set(socket, sentHere);
    if (sentHere.has(stored) || acknowledged.get(client)?.has(stored)) return;
    sentHere.add(stored);
    // Ids like @walletconnect/jsonrpc-utils' payloadId: unique, and never mistaken for a client's own.
    lastRequestId = Math.max(lastRequestId + 1, Date.now() * 1000);
    awaitingAck.set(lastRequestId, { client, stored });
    socket.send(
      JSON.stringify({
        id: lastRequestId,
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: {
          id: subscriptionId(stored.topic, socket),
          data: {
            topic: stored.topic,
            message: stored.message,
            publishedAt: stored.publishedAt,
            tag: stored.tag,
            ...(stored.attestation ? { attestation: stored.attestation } : {}),
          },
        },
      }),
    );
  }

  function publish(from: Socket, topic: string, message: string, tag: number, attestation?: string) {
    const stored: Stored = {
      topic,
      message,
      publishedAt: Date.now(),
      tag,
      attestation,
      from: clientOf(from),
    };
    const kept = messagesByTopic.get(topic) ?? [];
    kept.push(stored);
    messagesByTopic.set(topic, kept);
    for (const socket of subscribers.get(topic) ?? []) deliver(socket, stored);
  }

  function subscribe(socket: Socket, topic: string): string {
    const set = subscribers.get(topic) ?? new Set<Socket>();
    set.add(socket);
    subscribers.set(topic, set);
    return subscriptionId(topic, socket);
  }

  // What was published before this subscription arrives after the subscribe answer, as from the relay.
  function deliverKept(socket: Socket, topic: string) {
    for (const stored of messagesByTopic.get(topic) ?? []) deliver(socket, stored);
  }

  type PublishParams = { topic: string; message: string; tag?: number; attestation?: string };

  /** Answers one request; `after` runs once the answer is on the wire. */
  function handle(socket: Socket, method: string, params: Record<string, unknown>) {
    const after: (() => void)[] = [];
    switch (method) {
      case 'irn_subscribe': {
        const topic = String(params.topic);
        after.push(() => deliverKept(socket, topic));
        return { result: subscribe(socket, topic), after };
      }
      case 'irn_batchSubscribe': {
        const topics = (params.topics ?? []) as string[];
        after.push(() => {
          for (const topic of topics) deliverKept(socket, topic);
        });
        return { result: topics.map((topic) => subscribe(socket, topic)), after };
      }
      case 'irn_unsubscribe':
        subscribers.get(String(params.topic))?.delete(socket);
        return { result: true, after };
      case 'irn_batchUnsubscribe':
        for (const { topic } of (params.subscriptions ?? []) as { topic: string }[]) {
          subscribers.get(topic)?.delete(socket);
        }
        return { result: true, after };
      case 'irn_publish': {
        const { topic, message, tag = 0, attestation } = params as PublishParams;
        publish(socket, topic, message, tag, attestation);
        return { result: true, after };
      }
      case 'irn_batchPublish':
        for (const { topic, message, tag = 0, attestation } of (params.messages ?? []) as PublishParams[]) {
          publish(socket, topic, message, tag, attestation);
        }
        return { result: true, after };
      case 'irn_batchFetchMessages':
        // Kept messages are pushed on subscribe already.
        return { result: { messages: [], hasMore: false }, after };
      case 'wc_proposeSession': {
        const { pairingTopic, sessionProposal, attestation } = params as {
          pairingTopic: string;
          sessionProposal: string;
          attestation?: string;
        };
        // The dapp does not send irn_subscribe for a new pairing topic: the relay subscribes it here, so
        // the wallet's answer on that topic reaches it.
        subscribe(socket, pairingTopic);
        publish(socket, pairingTopic, sessionProposal, TAG_SESSION_PROPOSE, attestation);
        return { result: true, after };
      }
      case 'wc_approveSession': {
        const { sessionTopic, pairingTopic, sessionProposalResponse, sessionSettlementRequest } = params as {
          sessionTopic: string;
          pairingTopic: string;
          sessionProposalResponse: string;
          sessionSettlementRequest: string;
        };
        // The wallet does not send irn_subscribe for the session topic: the relay subscribes it here.
        subscribe(socket, sessionTopic);
        publish(socket, pairingTopic, sessionProposalResponse, TAG_SESSION_PROPOSE_RESPONSE);
        publish(socket, sessionTopic, sessionSettlementRequest, TAG_SESSION_SETTLE);
        return { result: true, after };
      }
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` }, after };
    }
  }

  let connections = 0;
  server.on('connection', (socket, request) => {
    connections += 1;
    clientIds.set(socket, clientIdOf(request) ?? `connection-${connections}`);
    socket.on('message', (data) => {
      let request: JsonRpcRequest;
      try {
        request = JSON.parse(String(data)) as JsonRpcRequest;
      } catch {
        return;
      }
      // An answer to one of our irn_subscription requests: the client has the message.
      if (typeof request.method !== 'string') {
        const ack = awaitingAck.get(Number(request.id));
        if (!ack) return;
        awaitingAck.delete(Number(request.id));
        const set = acknowledged.get(ack.client) ?? new Set<Stored>();
        set.add(ack.stored);
        acknowledged.set(ack.client, set);
        return;
      }
      methods.push(request.method);
      const { after, ...answer } = handle(
        socket,
        request.method,
        (request.params ?? {}) as Record<string, unknown>,
      );
      socket.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', ...answer }));
      for (const next of after) next();
    });
    socket.on('close', () => {
      for (const set of subscribers.values()) set.delete(socket);
    });
  });

  // A Node client drops a connection the relay has not pinged for 35 seconds.
  const pings = setInterval(() => {
    for (const socket of server.clients) if (socket.readyState === OPEN) socket.ping();
  }, 10_000);
  pings.unref();

  return {
    url: `ws://127.0.0.1:${port}`,
    methods,
    async stop(): Promise<void> {
      clearInterval(pings);
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
