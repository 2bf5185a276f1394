// The live channel (server-sent events): each message names a topic whose queries the client refetches.
// Topics are the first segment of the client's query keys ("notifications", "tickets", ...); "*" means
// "refetch everything live" (sent after the server missed events), "ready" opens every stream.

export const LIVE_EVENTS_PATH = '/events';
/** While the stream is down the client refetches the live topics this often. */
export const LIVE_POLL_INTERVAL_MS = 15_000;

export type LiveMessage = { topic: string };
/** The topics the client refetches while polling instead of listening. */
export const LIVE_TOPICS = ['notifications', 'tickets'] as const;
