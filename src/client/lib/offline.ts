import { clear, createStore } from 'idb-keyval';
import { useSyncExternalStore } from 'react';
import { CLEAR_OFFLINE_COPIES, OFFLINE_DB, OFFLINE_STORE } from '../../shared/offline.ts';

// Whether the app is offline, and since when the data on screen dates (issue 6). The service worker
// (sw/offline-data.ts) answers the member's own transfers, balances and notifications from IndexedDB
// when the network is gone and marks those answers; api() reports each answer here. Offline means the
// browser says so, or some answer on screen is a copy (a network that does not answer).

export type OfflineState = {
  offline: boolean;
  /** When the oldest copy on screen was saved (ISO 8601), or null when nothing shown is a copy. */
  copySavedAt: string | null;
};

let online = typeof navigator === 'undefined' ? true : navigator.onLine;
/** Copied answers now in use, by call path: when each was saved. */
const copies = new Map<string, string>();
const listeners = new Set<() => void>();

function computeState(): OfflineState {
  let oldest: string | null = null;
  for (const savedAt of copies.values()) if (oldest === null || savedAt < oldest) oldest = savedAt;
  return { offline: !online || oldest !== null, copySavedAt: oldest };
}

let state = computeState();
function changed(): void {
  state = computeState();
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    online = true;
    // Back online: the queries refetch (TanStack Query does on reconnect) and fresh answers follow.
    copies.clear();
    changed();
  });
  window.addEventListener('offline', () => {
    online = false;
    changed();
  });
}

/** Called by api() for every GET answer: `copySavedAt` is the worker's X-Offline-Copy header, if any. */
export function noteAnswer(path: string, copySavedAt: string | null): void {
  if (copySavedAt) copies.set(path, copySavedAt);
  else if (!copies.delete(path)) return;
  changed();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useOffline(): OfflineState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

/** Asks the worker to forget the copies (waiting for it, briefly), and clears the store from here too. */
async function askWorkerToClear(): Promise<void> {
  const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!worker) return;
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(resolve, 2000);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve();
    };
    worker.postMessage({ type: CLEAR_OFFLINE_COPIES }, [channel.port2]);
  });
}

/** Forgets every offline copy in this browser (sign-out, sign-in, a session ended): a shared phone. */
export async function clearOfflineCopies(): Promise<void> {
  copies.clear();
  changed();
  if (typeof indexedDB === 'undefined') return;
  await Promise.all([
    askWorkerToClear().catch(() => undefined),
    clear(createStore(OFFLINE_DB, OFFLINE_STORE)).catch(() => undefined),
  ]);
}
