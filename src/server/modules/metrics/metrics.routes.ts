import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { notFound, unauthorized } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';
import type { Metrics } from './metrics.service.ts';

// GET /api/v1/metrics for Prometheus: off (404) unless METRICS_TOKEN is set, then only with
// `Authorization: Bearer <METRICS_TOKEN>`. No session and no CSRF (a GET): a scraper has neither.

const digest = (text: string) => createHash('sha256').update(text).digest();

export function registerMetricsRoutes(
  app: FastifyInstance,
  { metrics, token }: { metrics: Metrics; token: string | undefined },
): void {
  // Both sides hashed first: equal lengths for timingSafeEqual, and the time taken says nothing about
  // how much of the token a guess had right.
  const expected = token === undefined ? undefined : digest(token);
  defineRoute(app, {
    method: 'GET',
    url: '/metrics',
    summary:
      'Prometheus metrics (text format): requests per route, ledger transfers, income runs, mail outbox, streams; needs Authorization: Bearer METRICS_TOKEN, a 404 when METRICS_TOKEN is not set',
    tags: ['system'],
    access: 'public',
    handler: async ({ request, reply }) => {
      if (!expected) throw notFound();
      const given = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthorized('A valid metrics token is required');
      }
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  });
}
