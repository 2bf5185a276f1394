import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { memberCountsSchema } from '../../../shared/users.ts';
import { emailLookupQuerySchema, emailUserSchema } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { lookupByEmail, memberCounts } from './users.service.ts';

export function registerUsersRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/users/counts',
    summary: 'Member counts for the admin dashboard (total, active, inactive, blocked, joined today UTC)',
    tags: ['users'],
    access: 'admin',
    responses: { 200: memberCountsSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => memberCounts(db, user),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users',
    summary: 'Find a member by exact e-mail (case-insensitive): the transfer recipient lookup',
    tags: ['users'],
    access: 'signed-in',
    query: emailLookupQuerySchema,
    responses: { 200: emailUserSchema, 404: errorBodySchema, 429: errorBodySchema },
    handler: async ({ query, user }) => lookupByEmail(db, user, query.email),
  });
}
