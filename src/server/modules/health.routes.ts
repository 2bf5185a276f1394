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
  {
    db,
    isDraining,
    isWarm,
  }: {
    db: Db;
    isDraining: () => boolean;
    /** False until the start's warm-up is done (src/server/warm-up.ts): a cold process is not ready. */
    isWarm: () => boolean;
  },
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
  // process that is shutting down still lives, finishing what it started, but takes nothing new; one
  // that has just started lives but is not ready until it has warmed up.
  defineRoute(app, {
    method: 'GET',
    url: '/health/ready',
    summary:
      'Readiness: ok when the process has warmed up after its start, is not shutting down and its database answers (503 while it warms up or drains)',
    tags: ['system'],
    access: 'public',
    responses: {
      200: v.object({ status: v.literal('ok') }),
      503: v.object({ status: v.picklist(['warming', 'draining', 'unavailable']) }),
    },
    handler: async ({ reply }) => {
      if (isDraining()) return reply.status(503).send({ status: 'draining' });
      if (!isWarm()) return reply.status(503).send({ status: 'warming' });
      return (await databaseAnswers(db, reply))
        ? { status: 'ok' }
        : reply.status(503).send({ status: 'unavailable' });
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
