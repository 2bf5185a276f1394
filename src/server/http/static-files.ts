import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { GENERIC } from '../../shared/messages.ts';

// The build writes .br and .gz beside every asset; we send those (compressing per request would cost
// far more CPU than it saves). Hashed assets never change, so browsers keep them for a year;
// index.html and the service worker must be re-checked on every visit so a deploy reaches everyone.

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html carries this placeholder where each response's CSP nonce goes (see app/csp-nonce.ts). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';
const REVALIDATE = 'no-cache';

/**
 * Serves the built app, and for every other GET that is not the API its shell: the client router then
 * draws the screen (or its not-found page). The shell is read once; each answer gets the style nonce of
 * its own response, so the one runtime stylesheet (the toasts')
 * works under a CSP without 'unsafe-inline'. Without a build the server answers the API only.
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
      allowedPath: (pathName) => pathName !== '/index.html',
      cacheControl: false,
      setHeaders: (res, path) => {
        res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : REVALIDATE);
      },
    });
    const shell = readFileSync(indexFile, 'utf8');
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const acceptsHtml = (request.headers.accept ?? '').includes('text/html');
      if (request.url.startsWith('/api/') || !acceptsHtml)
        return reply.status(404).send({ message: GENERIC.notFound });
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
    });
  }
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: GENERIC.notFound }));
}
