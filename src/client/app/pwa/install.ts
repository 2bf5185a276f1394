// The browser's install offer. Chromium fires beforeinstallprompt once the app qualifies; we keep the
// event and show our own "Install app" button. iOS Safari has no such event: a short hint explains
// Add to Home Screen there, once.

type Listener = () => void;
type InstallPromptEvent = Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }> };

let deferred: InstallPromptEvent | undefined;
const listeners = new Set<Listener>();
const notify = () => {
  for (const listener of listeners) listener();
};

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    deferred = undefined;
    notify();
  });
}

export function subscribeToInstall(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const canInstall = () => deferred !== undefined;

/** Shows the browser's own install dialog; the offer is used up whatever the member answers. */
export async function promptInstall(): Promise<void> {
  const event = deferred;
  if (!event) return;
  deferred = undefined;
  notify();
  await event.prompt();
  await event.userChoice.catch(() => undefined);
}

export const IOS_HINT_SEEN_KEY = 'pwa.ios-install-hint-seen';

/** Safari on an iPhone or iPad, not already opened from the home screen. */
export function isIosSafariInBrowser(): boolean {
  const ua = navigator.userAgent;
  const ios = /iPhone|iPad|iPod/.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1);
  const safari = /Safari/.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(ua);
  const standalone =
    (navigator as { standalone?: boolean }).standalone === true ||
    window.matchMedia('(display-mode: standalone)').matches;
  return ios && safari && !standalone;
}
