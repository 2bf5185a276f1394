// The live channel (server-sent events): each message names a topic whose queries the client refetches.
// Topics are the first segment of the client's query keys ("notifications", "tickets", ...); "*" means
// "refetch everything live" (sent after the server missed events), "ready" opens every stream, and
// "reconnect" is the last message of a stream the server closes because it is shutting down (a
// restart): the browser reconnects after the stream's `retry:` time, through the load balancer to
// another process.

export const LIVE_EVENTS_PATH = '/events';
/** While the stream is down the client refetches the live topics this often. */
export const LIVE_POLL_INTERVAL_MS = 15_000;

export type LiveMessage = { topic: string };
/** The topic of the message a stream ends with when its server shuts down. */
export const LIVE_RECONNECT_TOPIC = 'reconnect';
/** The reconnection delay a closing server asks for: spread over this range, so clients do not all come at once. */
export const LIVE_RECONNECT_MS = { min: 1000, max: 5000 } as const;
/** The topics the client refetches while polling instead of listening. */
export const LIVE_TOPICS = ['notifications', 'tickets'] as const;
