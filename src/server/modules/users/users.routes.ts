import type { FastifyInstance } from 'fastify';
import { messageSchema } from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  memberCountsSchema,
  singleUserSchema,
  userIdParamsSchema,
  userUpdateSchema,
} from '../../../shared/users.ts';
import { emailLookupQuerySchema, emailUserSchema } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { lookupByEmail, memberCounts, singleUser, updateMember } from './users.service.ts';

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

  defineRoute(app, {
    method: 'GET',
    url: '/users/:id',
    summary: 'One user with their wallet balances (singleuser); a member may read only themself',
    tags: ['users'],
    access: 'signed-in',
    params: userIdParamsSchema,
    responses: { 200: singleUserSchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => singleUser(db, user, params.id),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/users/:id',
    summary:
      "Change a member's status, active flag, roi_status or level_status (admin, audited); blocking ends their sessions; role is refused",
    tags: ['users', 'admin'],
    access: 'admin',
    params: userIdParamsSchema,
    body: userUpdateSchema,
    responses: { 200: messageSchema, 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, body, user }) => updateMember(db, user, params.id, body),
  });
}
