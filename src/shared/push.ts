import * as v from 'valibot';
import { formatUsd } from './money.ts';

// Web Push (issue 6; RULES.md "Notifications and tickets": "as a push notification where the member
// allowed it"). A member's browser subscribes with the server's public VAPID key and sends its
// subscription here; the server stores one row per endpoint (one per browser and device).
// Decided here:
// - The endpoint must be https. http is accepted only for a loopback host (127.0.0.1, localhost), and
//   the server takes such an endpoint only when PUSH_ALLOW_LOOPBACK=true (tests' fake push service).
// - The server takes only endpoints of the browsers' push services (FCM, Mozilla, Apple, Windows), so
//   it never posts to an address a member chose (issue 14).
// - Re-sending an endpoint the member already has refreshes its keys; an endpoint stored for another
//   member is a 409 and stays theirs (sign-out removes this device's subscription first, so a shared
//   phone's next member subscribes anew).
// - At most MAX_PUSH_SUBSCRIPTIONS per member: a new device beyond that replaces the oldest.

export const PUSH_MESSAGES = {
  endpointInvalid: 'The push endpoint must be an https address',
  keysRequired: 'The subscription keys are missing',
  subscribed: 'Notifications are on for this device',
  unsubscribed: 'Notifications are off for this device',
  notFound: 'Subscription not found',
  endpointUnknownService: 'The push endpoint must belong to a known push service',
  endpointTaken: 'This device receives notifications for another account',
  turnOn: 'Turn on notifications',
  turnOff: 'Turn off',
  blocked: 'Notifications are blocked for this site in your browser settings',
  failed: 'Notifications could not be turned on. Please try again.',
  // What the server pushes (ours; amounts are formatted decimal strings)
  moneyReceivedTitle: 'Money received',
  moneyReceivedBody: (senderName: string, amount: string) => `${senderName} sent you ${formatUsd(amount)}`,
  paymentReceivedTitle: 'Payment received',
  paymentReceivedBody: (amount: string) => `${formatUsd(amount)} was added to your Active Wallet`,
} as const;

export const MAX_PUSH_ENDPOINT_LENGTH = 2048;
export const MAX_PUSH_SUBSCRIPTIONS = 10;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopbackEndpoint(endpoint: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(endpoint).hostname);
  } catch {
    return false;
  }
}

function isPushEndpoint(endpoint: string): boolean {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

const endpointSchema = v.pipe(
  v.string(PUSH_MESSAGES.endpointInvalid),
  v.trim(),
  v.maxLength(MAX_PUSH_ENDPOINT_LENGTH, PUSH_MESSAGES.endpointInvalid),
  v.check(isPushEndpoint, PUSH_MESSAGES.endpointInvalid),
);
// base64url as PushSubscription.toJSON() gives them: p256dh is a 65-byte point, auth 16 bytes.
const keySchema = (maxLength: number) =>
  v.pipe(
    v.string(PUSH_MESSAGES.keysRequired),
    v.regex(/^[A-Za-z0-9_-]+={0,2}$/, PUSH_MESSAGES.keysRequired),
    v.maxLength(maxLength, PUSH_MESSAGES.keysRequired),
  );

/** Body of POST /push/subscriptions: PushSubscription.toJSON() (expirationTime is ignored). */
export const pushSubscriptionSchema = v.object({
  endpoint: endpointSchema,
  expirationTime: v.optional(v.nullable(v.number())),
  keys: v.object({ p256dh: keySchema(128), auth: keySchema(64) }, PUSH_MESSAGES.keysRequired),
});
export type PushSubscriptionInput = v.InferOutput<typeof pushSubscriptionSchema>;

/** Body of DELETE /push/subscriptions. */
export const pushUnsubscribeSchema = v.object({ endpoint: endpointSchema });

export const pushKeySchema = v.object({ publicKey: v.string() });

/** What the service worker receives in a push message (JSON). */
export type PushPayload = { title: string; body: string; url: string; tag?: string };
