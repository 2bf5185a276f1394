import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Db } from '../db/database.ts';
import { defineRoute } from '../http/route.ts';

const databaseAnswers = async (db: Db, reply: FastifyReply) => {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch (error) {
    reply.log.error({ err: error }, 'health check: database unreachable');
    return false;
  }
};

export function registerHealthRoutes(
  app: FastifyInstance,
  { db, isDraining }: { db: Db; isDraining: () => boolean },
): void {
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
    handler: async ({ reply }) =>
      (await databaseAnswers(db, reply))
        ? { status: 'ok' }
        : reply.status(503).send({ status: 'unavailable' }),
  });

  // Liveness above (restart the process when it fails); readiness here (send it traffic or not): a
  // process that is shutting down still lives, finishing what it started, but takes nothing new.
  defineRoute(app, {
    method: 'GET',
    url: '/health/ready',
    summary:
      'Readiness: ok when the database answers and the process is not shutting down (503 while it drains)',
    tags: ['system'],
    access: 'public',
    responses: {
      200: v.object({ status: v.literal('ok') }),
      503: v.object({ status: v.picklist(['draining', 'unavailable']) }),
    },
    handler: async ({ reply }) => {
      if (isDraining()) return reply.status(503).send({ status: 'draining' });
      return (await databaseAnswers(db, reply))
        ? { status: 'ok' }
        : reply.status(503).send({ status: 'unavailable' });
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
