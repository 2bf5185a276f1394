import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Db } from '../db/database.ts';
import { defineRoute } from '../http/route.ts';

export function registerHealthRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/health',
    summary: 'Liveness: ok when the database answers',
    tags: ['system'],
    access: 'public',
    responses: {
      200: v.object({ status: v.literal('ok') }),
      503: v.object({ status: v.literal('unavailable') }),
    },
    handler: async ({ reply }) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok' };
      } catch (error) {
        reply.log.error({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable' });
      }
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
