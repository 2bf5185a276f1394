/**
 * Registers the site's service worker (sw/sw.ts) once the page has loaded, so a visitor who has only
 * seen the landing page gets it again with no network. The browser's own call, not workbox-window: the
 * landing page stays small, and the update prompt belongs to the app (src/client/app/pwa/register.ts),
 * which registers the same worker at the same scope. Nothing here takes over a waiting version.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
