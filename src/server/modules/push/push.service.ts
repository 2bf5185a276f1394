import webpush from 'web-push';
import {
  isLoopbackEndpoint,
  MAX_PUSH_SUBSCRIPTIONS,
  PUSH_MESSAGES,
  type PushPayload,
  type PushSubscriptionInput,
} from '../../../shared/push.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  deleteOwnSubscription,
  deleteSubscriptionById,
  type StoredSubscription,
  subscriptionsOfAllMembers,
  subscriptionsOfMembers,
  trimSubscriptions,
  upsertOwnSubscription,
} from './push.repository.ts';
import type { VapidKeys } from './vapid-keys.ts';

// Web Push (issue 6). Sending is best effort and never part of a request's outcome: callers start it
// after their transaction has committed and do not await it; every failure is logged, never thrown.
// A 404 or 410 from a push service means the subscription is gone: its row is deleted.
// The VAPID settings belong to one app (one database handle); tests run several apps in one process.

type PushSettings = {
  keys: VapidKeys;
  subject: string;
  allowLoopback: boolean;
  log: { warn: (object: unknown, message: string) => void };
};

const settingsByDb = new WeakMap<Db, PushSettings>();
const SEND_TIMEOUT_MS = 10_000;
const TTL_SECONDS = 24 * 60 * 60;

export function configurePush(db: Db, settings: PushSettings): void {
  settingsByDb.set(db, settings);
}

export function publicVapidKey(db: Db): string {
  const settings = settingsByDb.get(db);
  if (!settings) throw new Error('push is not configured');
  return settings.keys.publicKey;
}

// The browsers' push services (Chrome/Edge via FCM, Firefox, Safari, legacy Edge). Any other host would
// have the server post to an address a member chose: an internal service, the cloud metadata address.
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com'];
const PUSH_SERVICE_DOMAINS = ['.push.services.mozilla.com', '.push.apple.com', '.notify.windows.com'];

/** Whether the server may post to this endpoint: a known push service over https, or the tests' loopback. */
export function isAllowedEndpoint(endpoint: string, allowLoopback: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (isLoopbackEndpoint(endpoint)) return allowLoopback;
  const host = url.hostname.toLowerCase();
  return (
    url.protocol === 'https:' &&
    (url.port === '' || url.port === '443') &&
    !url.username &&
    !url.password &&
    (PUSH_SERVICE_HOSTS.includes(host) || PUSH_SERVICE_DOMAINS.some((domain) => host.endsWith(domain)))
  );
}

export async function saveSubscription(
  db: Db,
  member: SessionUser,
  input: PushSubscriptionInput,
  userAgent: string | undefined,
): Promise<void> {
  if (member.user.role !== 'user') throw forbidden();
  const allowLoopback = settingsByDb.get(db)?.allowLoopback ?? false;
  if (isLoopbackEndpoint(input.endpoint) && !allowLoopback)
    throw badRequest([{ field: 'endpoint', message: PUSH_MESSAGES.endpointInvalid }]);
  if (!isAllowedEndpoint(input.endpoint, allowLoopback))
    throw badRequest([{ field: 'endpoint', message: PUSH_MESSAGES.endpointUnknownService }]);
  const stored = await upsertOwnSubscription(db, {
    id: newId(),
    user_id: member.user.id,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    user_agent: userAgent ? userAgent.slice(0, 300) : null,
    created_at: new Date().toISOString(),
  });
  if (!stored) throw conflict(PUSH_MESSAGES.endpointTaken);
  await trimSubscriptions(db, member.user.id, MAX_PUSH_SUBSCRIPTIONS);
}

/** Deletes the member's own subscription; another member's endpoint is a 404, like an unknown one. */
export async function removeSubscription(db: Db, member: SessionUser, endpoint: string): Promise<void> {
  if (member.user.role !== 'user') throw forbidden();
  if (!(await deleteOwnSubscription(db, member.user.id, endpoint))) throw notFound(PUSH_MESSAGES.notFound);
}

/** Whether push is set up for this database's server: without it, nobody's subscriptions need reading. */
export const pushEnabled = (db: Db) => settingsByDb.has(db);

/** Sends the payload to every subscription of these members. Never rejects. */
export async function pushToMembers(db: Db, memberIds: string[], payload: PushPayload): Promise<void> {
  const settings = settingsByDb.get(db);
  if (!settings || memberIds.length === 0) return;
  try {
    await sendAll(db, settings, await subscriptionsOfMembers(db, [...new Set(memberIds)]), payload);
  } catch (error) {
    settings.log.warn({ err: error }, 'push: sending failed');
  }
}

/** Sends the payload to subscriptions already read (subscriptionsAsJson). Never rejects. */
export async function pushToSubscriptions(
  db: Db,
  subscriptions: StoredSubscription[],
  payload: PushPayload,
): Promise<void> {
  const settings = settingsByDb.get(db);
  if (!settings || subscriptions.length === 0) return;
  try {
    await sendAll(db, settings, subscriptions, payload);
  } catch (error) {
    settings.log.warn({ err: error }, 'push: sending failed');
  }
}

/** Sends the payload to every member's subscriptions (an all-members notification). Never rejects. */
export async function pushToAllMembers(db: Db, payload: PushPayload): Promise<void> {
  const settings = settingsByDb.get(db);
  if (!settings) return;
  try {
    await sendAll(db, settings, await subscriptionsOfAllMembers(db), payload);
  } catch (error) {
    settings.log.warn({ err: error }, 'push: sending failed');
  }
}

async function sendAll(
  db: Db,
  settings: PushSettings,
  subscriptions: StoredSubscription[],
  payload: PushPayload,
): Promise<void> {
  const body = JSON.stringify(payload);
  // A few at a time: a big all-members notification must not open thousands of sockets at once.
  const queue = [...subscriptions];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await sendOne(db, settings, next, body);
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
}

async function sendOne(db: Db, settings: PushSettings, subscription: StoredSubscription, body: string) {
  try {
    // web-push encrypts (aes128gcm) and signs (VAPID); the request itself goes through fetch, which
    // also reaches the tests' plain-http fake push service on the loopback address.
    const request = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      body,
      {
        vapidDetails: { subject: settings.subject, ...settings.keys },
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      },
    );
    // Rows stored before the endpoint rule was checked, or a host dropped from it: never posted to.
    if (!isAllowedEndpoint(request.endpoint, settings.allowLoopback)) {
      await deleteSubscriptionById(db, subscription.id);
      return;
    }
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 404 || response.status === 410) {
      await deleteSubscriptionById(db, subscription.id);
    } else if (!response.ok) {
      settings.log.warn({ status: response.status, subscription: subscription.id }, 'push: refused');
    }
  } catch (error) {
    settings.log.warn({ err: error, subscription: subscription.id }, 'push: could not send');
  }
}
