import { Workbox } from 'workbox-window';

// Registers the service worker (sw/sw.ts) once the app has loaded, and tells the screen when a new
// version is waiting. The new version takes over only when the member presses Reload: then it is told
// to skip waiting, and the page reloads once the new worker controls it. Nothing reloads on its own.

type Listener = () => void;
let updateWaiting = false;
let workbox: Workbox | undefined;
const listeners = new Set<Listener>();

export function subscribeToUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isUpdateWaiting = () => updateWaiting;

/** The member pressed Reload: the waiting version takes over, then the page reloads into it. */
export function applyUpdate(): void {
  if (!workbox) return;
  let reloaded = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  });
  workbox.messageSkipWaiting();
}

/** How often an open app asks whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * After sign-out or a session's end the server clears this site's storage (Clear-Site-Data "storage"),
 * which unregisters the worker with it: registered again at once, so the installed app keeps opening
 * with no network. The browser's own call: it returns the registration that exists, or makes a new one.
 */
export function registerAgain(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
}

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const start = () => {
    const wb = new Workbox('/sw.js', { scope: '/' });
    workbox = wb;
    wb.addEventListener('waiting', () => {
      updateWaiting = true;
      for (const listener of listeners) listener();
    });
    void wb.register().catch(() => undefined);
    // Coming back to the app, or after a long while open, look for a new version.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void wb.update().catch(() => undefined);
    });
    setInterval(() => void wb.update().catch(() => undefined), UPDATE_CHECK_MS);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
