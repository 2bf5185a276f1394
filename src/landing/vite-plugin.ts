import type { Plugin, ViteDevServer } from 'vite';

// The landing page is a second HTML entry (landing.html) whose body is React rendered to static markup
// at build time. Vite then treats the result like any page: the enhance script and landing.css become
// hashed assets, and the <img> sources in the markup are fingerprinted too. The server sends
// dist/landing.html for GET / (src/server/http/static-files.ts).

const ENTRY = 'landing.html';
type RenderModule = typeof import('./render.tsx');

export function landingPage(): Plugin {
  let server: ViteDevServer | undefined;
  return {
    name: 'landing-page',
    configureServer(devServer) {
      server = devServer;
      // The dev server answers / with the landing page too, as the real server does.
      devServer.middlewares.use((req, _res, next) => {
        const url = req.url ?? '';
        if (
          req.method === 'GET' &&
          (url === '/' || url.startsWith('/?')) &&
          req.headers.accept?.includes('text/html')
        )
          req.url = `/${ENTRY}${url.slice(1)}`;
        next();
      });
    },
    transformIndexHtml: {
      // Before Vite reads the page's assets, so the rendered <img> sources are processed like any other.
      order: 'pre',
      async handler(html, ctx) {
        if (!ctx.filename.endsWith(`/${ENTRY}`)) return html;
        const render: RenderModule = server
          ? ((await server.ssrLoadModule('/src/landing/render.tsx')) as RenderModule)
          : await import('./render.tsx');
        if (!html.includes(render.LANDING_PLACEHOLDER)) throw new Error(`${ENTRY} lost its body placeholder`);
        return html.replace(render.LANDING_PLACEHOLDER, render.renderLandingBody());
      },
    },
  };
}
