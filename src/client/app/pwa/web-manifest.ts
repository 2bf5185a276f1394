// The web app manifest (vite-plugin-pwa writes it as /manifest.webmanifest). Colours match styles.css:
// the navy header as theme, the page background as the splash.

export const THEME_COLOR = '#0b1f3a';
export const BACKGROUND_COLOR = '#f4f6fa';

export const webManifest = {
  id: '/',
  name: 'Member Platform',
  short_name: 'Members',
  description:
    'Learn crypto trading and manage your membership: secure, educational and transparent. Trading involves significant risk.',
  lang: 'en',
  start_url: '/user/dashboard',
  scope: '/',
  display: 'standalone' as const,
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  shortcuts: [
    { name: 'Transfer', url: '/user/transfer', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
    { name: 'Add money', url: '/user/add-money', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
    {
      name: 'Notifications',
      url: '/user/notifications',
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }],
    },
  ],
  screenshots: [
    {
      src: '/screenshots/narrow.png',
      sizes: '412x915',
      type: 'image/png',
      form_factor: 'narrow' as const,
      label: 'The member dashboard on a phone',
    },
    {
      src: '/screenshots/wide.png',
      sizes: '1280x800',
      type: 'image/png',
      form_factor: 'wide' as const,
      label: 'The landing page on a desktop browser',
    },
  ],
};
