import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { GENERIC } from '../../shared/messages.ts';

// The build writes .br and .gz beside every asset; we send those (compressing per request would cost
// far more CPU than it saves). Hashed assets never change, so browsers keep them for a year;
// index.html and the service worker must be re-checked on every visit so a deploy reaches everyone.

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export async function registerStaticFiles(app: FastifyInstance, clientDir: string): Promise<boolean> {
  if (!existsSync(join(clientDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: clientDir,
    preCompressed: true,
    wildcard: true,
    index: false,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : REVALIDATE);
    },
  });

  return true;
}

/** Every other GET that is not the API is a screen of the app: the client router draws it (or its not-found page). */
export function registerNotFound(app: FastifyInstance, servesClient: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    const acceptsHtml = (request.headers.accept ?? '').includes('text/html');
    if (servesClient && request.method === 'GET' && !request.url.startsWith('/api/') && acceptsHtml) {
      return reply.header('cache-control', REVALIDATE).sendFile('index.html');
    }
    return reply.status(404).send({ message: GENERIC.notFound });
  });
}
