import type { FastifyInstance } from 'fastify';
import { auditListSchema, auditQuerySchema } from '../../../shared/audit.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { auditLog } from './audit.service.ts';

export function registerAuditRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/audit',
    summary:
      'The audit log, newest first, a page at a time: every admin change to a member, money or settings with who, what, before, after and when; filter by member (id, e-mail or username) and admin (id) (admin)',
    tags: ['audit', 'admin'],
    access: 'admin',
    query: auditQuerySchema,
    responses: { 200: auditListSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ query, user }) => auditLog(db, user, query),
  });
}
