/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa, injectManifest): the app shell and the landing page are
// precached at install, so both open with no network after one visit; hashed assets a screen loads are
// kept once fetched. Of the API only the member's own transfers, balances and notifications pass through
// here (sw/offline-data.ts: kept in IndexedDB to read offline); every other /api/ call, the live channel
// /api/v1/events included, goes straight to the network. A new version waits until the member presses Reload
// (the SKIP_WAITING message from src/client/app/pwa/register.ts): nothing reloads on its own.
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
// IndexedDB copies of the member's own data, and push messages with notification clicks.
import { registerOfflineData } from './offline-data.ts';
import { registerPushHandlers } from './push.ts';
import { SHELL_URL, withFreshNonce } from './shell.ts';

declare const self: ServiceWorkerGlobalScope;

// The build fills this with the shell (as SHELL_URL), the landing page (as /) and the files they load.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The very first worker takes over the open page at once (there is no older version to replace).
clientsClaim();

const isApi = (url: URL) => url.pathname.startsWith('/api/');

// Every screen of the app is the shell; the client router draws it. / keeps the landing page (served
// from the precache by the route above). Each answer gets a fresh CSP style nonce in its header and body.
registerRoute(
  new NavigationRoute(
    async ({ request, url }) => {
      // / with a query string (a campaign link) is still the landing page, as on the server.
      if (url.pathname === '/') return (await matchPrecache('/')) ?? fetch(request);
      const shell = await matchPrecache(SHELL_URL);
      return shell ? withFreshNonce(shell) : fetch(request);
    },
    { denylist: [/^\/api\//] },
  ),
);

// Hashed files never change: once a screen has loaded its code, keep it for offline use.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    !isApi(url) &&
    url.pathname.startsWith('/assets/') &&
    request.method === 'GET',
  new CacheFirst({
    cacheName: 'assets',
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * 60 * 24 * 60 })],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

registerOfflineData(self);
registerPushHandlers(self);
