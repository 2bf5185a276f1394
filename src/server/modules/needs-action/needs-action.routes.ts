import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { needsActionSchema } from '../../../shared/needs-action.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { needsAction } from './needs-action.service.ts';

export function registerNeedsActionRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/admin/needs-action',
    summary:
      "The admin dashboard's Needs action: how many withdrawals, deposits, held transfers, tickets, mails and income or salary runs wait for an admin, the oldest one's time and the money waiting",
    tags: ['admin'],
    access: 'admin',
    responses: { 200: needsActionSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => needsAction(db, user),
  });
}
