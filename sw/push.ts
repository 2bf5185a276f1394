/// <reference lib="webworker" />
// Web Push in the service worker (issue 6): a push message from the server (JSON: title, body, url,
// tag; see src/shared/push.ts) becomes a notification; tapping it brings the app forward on the
// matching screen, in a window already open when there is one, else in a new one. Only paths of this
// app are opened, whatever a message says.

type PushData = { title?: unknown; body?: unknown; url?: unknown; tag?: unknown };

const ICON = '/icons/icon-192.png';
const FALLBACK_TITLE = 'New notification';
const FALLBACK_URL = '/user/notifications';

/** A path of this app (never another origin, never a protocol-relative //host). */
function appPath(url: unknown): string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : FALLBACK_URL;
}

function readPayload(event: PushEvent): PushData {
  if (!event.data) return {};
  try {
    const parsed = event.data.json() as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as PushData) : {};
  } catch {
    return { body: event.data.text() };
  }
}

export function registerPushHandlers(self: ServiceWorkerGlobalScope): void {
  self.addEventListener('push', (event) => {
    const data = readPayload(event);
    // A push must always show something: browsers allow only user-visible push.
    const title = typeof data.title === 'string' && data.title ? data.title : FALLBACK_TITLE;
    const options: NotificationOptions = {
      body: typeof data.body === 'string' ? data.body : '',
      icon: ICON,
      badge: ICON,
      data: { url: appPath(data.url) },
      ...(typeof data.tag === 'string' && data.tag ? { tag: data.tag } : {}),
    };
    event.waitUntil(self.registration.showNotification(title, options));
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = appPath((event.notification.data as { url?: unknown } | null)?.url);
    const target = new URL(path, self.location.origin).href;
    event.waitUntil(openOrFocus(self, target));
  });
}

async function openOrFocus(self: ServiceWorkerGlobalScope, target: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    // Focusing needs the tap's user activation; a window that cannot be focused is still navigated.
    const focused = await open.focus().catch(() => open);
    try {
      if (focused.url !== target) await focused.navigate(target);
      return;
    } catch {
      // A window this worker does not control cannot be navigated from here: open a new one instead.
    }
  }
  await self.clients.openWindow(target);
}
