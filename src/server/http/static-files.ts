import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC } from '../../shared/messages.ts';
import { isApiRequest } from './request-path.ts';

// The build writes .br and .gz beside every asset; we send those (compressing per request would cost
// far more CPU than it saves). Hashed assets never change, so browsers keep them for a year;
// index.html and the service worker must be re-checked on every visit so a deploy reaches everyone.

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html carries this placeholder where each response's CSP nonce goes (see app/csp-nonce.ts). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';
const REVALIDATE = 'no-cache';
/** The landing page, prerendered at build time (src/landing): what GET / answers. */
const LANDING = 'landing.html';
/** The shell's own address, for the service worker's precache (sw/shell.ts). */
const SHELL_URL = '/app-shell';

type Encoding = 'br' | 'gzip';
type StaticPage = { etag: string; identity: Buffer } & Partial<Record<Encoding, Buffer>>;

/** A built page and the .br / .gz copies the build wrote beside it, read once at start-up. */
function loadPage(file: string): StaticPage {
  const identity = readFileSync(file);
  const page: StaticPage = {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
  };
  if (existsSync(`${file}.br`)) page.br = readFileSync(`${file}.br`);
  if (existsSync(`${file}.gz`)) page.gzip = readFileSync(`${file}.gz`);
  return page;
}

/** The smallest copy the browser accepts (it only names an encoding it can read; q-values ignored). */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: StaticPage) {
  reply.header('cache-control', REVALIDATE).header('vary', 'accept-encoding').header('etag', page.etag);
  reply.type('text/html; charset=utf-8');
  if (String(request.headers['if-none-match'] ?? '').includes(page.etag)) return reply.status(304).send();
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = (['br', 'gzip'] as const).find((e) => page[e] && accepted.includes(e));
  if (!encoding) return reply.send(page.identity);
  return reply.header('content-encoding', encoding).send(page[encoding]);
}

/**
 * Serves the built app: / is the prerendered landing page, and every other GET that is not the API or
 * a file gets the app's shell, whose client router then draws the screen (or its not-found page). The
 * shell is read once; each answer gets the style nonce of its own response, so the one runtime
 * stylesheet (the toasts') works under a CSP without 'unsafe-inline'. Without a build the server
 * answers the API only.
 */
export async function registerClient(app: FastifyInstance, clientDir: string): Promise<void> {
  const indexFile = join(clientDir, 'index.html');
  if (existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      preCompressed: true,
      // One route per built file, so the shell's catch-all below is a route of its own.
      wildcard: false,
      index: false,
      // Pages have one address each: the shell is every screen's, the landing page is /.
      allowedPath: (pathName) => pathName !== '/index.html' && pathName !== `/${LANDING}`,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : REVALIDATE);
        // The service worker controls the whole site from the root.
        if (path.endsWith('/sw.js')) res.header('service-worker-allowed', '/');
        if (path.endsWith('.webmanifest')) res.header('content-type', 'application/manifest+json');
      },
    });
    // The landing page is static: no nonce (it has no inline style or script), the CSP as it is.
    const landingFile = join(clientDir, LANDING);
    if (existsSync(landingFile)) {
      const landing = loadPage(landingFile);
      app.get('/', { schema: { hide: true } }, async (request, reply) => sendPage(request, reply, landing));
    }
    const shell = readFileSync(indexFile, 'utf8');
    const sendShell = (reply: FastifyReply) => {
      // Only the shell gets a nonce, and only for styles: no page has an inline script to allow.
      const nonce = randomBytes(16).toString('base64');
      const csp = String(reply.getHeader('content-security-policy') ?? '');
      return reply
        .header(
          'content-security-policy',
          csp.replace("style-src 'self'", `style-src 'self' 'nonce-${nonce}'`),
        )
        .header('cache-control', REVALIDATE)
        .type('text/html; charset=utf-8')
        .send(shell.replaceAll(NONCE_PLACEHOLDER, nonce));
    };
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const acceptsHtml = (request.headers.accept ?? '').includes('text/html');
      if (isApiRequest(request) || !acceptsHtml) return reply.status(404).send({ message: GENERIC.notFound });
      return sendShell(reply);
    });
    // The service worker's precache fetches the shell here (its requests do not ask for text/html).
    app.get(SHELL_URL, { schema: { hide: true } }, async (_request, reply) => sendShell(reply));
  }
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: GENERIC.notFound }));
}
