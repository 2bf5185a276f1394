import { API_BASE } from './constants.ts';

// Offline copies (issue 6): the service worker keeps the signed-in member's own transfers, balances and
// notifications in IndexedDB, per member, to show them with no network. The server says whose answer a
// response is; the worker says when it answers from a copy. Nothing that moves money is ever copied,
// queued or replayed: money needs the network at the moment the member presses the button.

/**
 * Response header of a copyable call (see OFFLINE_COPY_PATHS) when a member (never an admin) asks: the
 * member id the answer belongs to. The worker files the copy under it.
 */
export const OFFLINE_OWNER_HEADER = 'x-offline-owner';

/**
 * Response header beside OFFLINE_OWNER_HEADER: when the session ends (ISO 8601), its lifetime's end or
 * sooner its idle timeout's. The worker keeps it with the copies and never answers from them after it.
 */
export const OFFLINE_EXPIRES_HEADER = 'x-offline-expires';

/** Response header the worker adds when it answers from a copy: when the copy was saved (ISO 8601). */
export const OFFLINE_COPY_HEADER = 'x-offline-copy';

/** The calls whose answers are copied: the member's own transfers and balances, and notifications. */
export const OFFLINE_COPY_PATHS: readonly RegExp[] = [
  new RegExp(`^${API_BASE}/transfer/byid/[^/]+$`),
  new RegExp(`^${API_BASE}/wallet/balance$`),
  new RegExp(`^${API_BASE}/notifications/home$`),
  new RegExp(`^${API_BASE}/notifications/user/[^/]+$`),
];

export const isOfflineCopyPath = (pathname: string) => OFFLINE_COPY_PATHS.some((re) => re.test(pathname));

/** The IndexedDB database and store of the copies (idb-keyval's createStore). */
export const OFFLINE_DB = 'member-offline';
export const OFFLINE_STORE = 'copies';

/** Page to worker: forget every copy now (sign-out, sign-in, a session ended). */
export const CLEAR_OFFLINE_COPIES = 'CLEAR_OFFLINE_COPIES';

export const OFFLINE_MESSAGES = {
  /** Shown over the member's screens while they show copies. */
  showingCopy: (time: string) => `Offline - showing data from ${time}`,
  /** Shown while offline when nothing on the screen is a copy. */
  offline: 'Offline - no connection. What you see may be out of date.',
  /** The error screen, offline: most likely a screen never opened online, so its code is not here. */
  screenNotSaved:
    'You are offline, and this screen has not been opened on this device with a connection yet. Reload it when you are back online.',
  /** Beside every button that moves money, while offline. */
  moneyNeedsNetwork:
    'You are offline. Money moves only with a connection: nothing is saved to send later. Try again when you are back online.',
} as const;
