import { PUSH_MESSAGES } from '../../../shared/push.ts';
import { ApiError, api } from '../../lib/http.ts';

// Web Push on this device (issue 6). Permission is asked only when the member presses "Turn on
// notifications" (never on load); the subscription is made through the registered service worker
// with the server's VAPID key and stored on the server for the signed-in member. Sign-out ends it
// (features/auth/session.ts), so a shared phone stops receiving the last member's notifications.

export type PushState = 'unsupported' | 'off' | 'on' | 'blocked';

/** Service worker, PushManager and Notification all present (not on iOS Safari outside a home-screen app). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

const READY_TIMEOUT_MS = 10_000;

/** The active service worker registration, or an error when none is running (e.g. the dev server). */
async function readyRegistration(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(PUSH_MESSAGES.failed)), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission !== 'granted') return 'off';
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? 'on' : 'off';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

/** Asks permission (this is the moment the member chose), subscribes and tells the server. */
export async function turnOnPush(): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  const registration = await readyRegistration();
  const { publicKey } = await api<{ publicKey: string }>('GET', '/push/key');
  const applicationServerKey = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made for another key (the server's keys were replaced) can no longer be used.
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  try {
    await api('POST', '/push/subscriptions', subscription.toJSON());
  } catch (error) {
    // 409: this browser's subscription still belongs to the member who used the phone before (their
    // session ended without a sign-out). The server keeps it with them; this member gets a new one.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    await subscription.unsubscribe();
    const fresh = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
    await api('POST', '/push/subscriptions', fresh.toJSON());
  }
  return 'on';
}

/** Stops push on this device: the server forgets the subscription, then the browser drops it. */
export async function turnOffPush(): Promise<PushState> {
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    await api('DELETE', '/push/subscriptions', { endpoint: subscription.endpoint }).catch(() => undefined);
    await subscription.unsubscribe();
  }
  return 'off';
}
