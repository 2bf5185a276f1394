import type { FastifyInstance } from 'fastify';
import { messageSchema } from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import { memberEditSchema } from '../../../shared/member-edit.ts';
import {
  deletionPreviewSchema,
  deletionResultSchema,
  memberCountsSchema,
  memberDetailSchema,
  memberFilterSchema,
  nonUserListSchema,
  nonUsersQuerySchema,
  sessionsEndedSchema,
  singleUserSchema,
  userIdParamsSchema,
  userListQuerySchema,
  userListSchema,
} from '../../../shared/users.ts';
import { emailLookupQuerySchema, emailUserSchema } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import {
  deleteMember,
  deletionPreview,
  endMemberSessions,
  exportMembersCsv,
  memberDetail,
  memberList,
  neverInvestedList,
} from './members-admin.service.ts';
import { lookupRecipient, memberCounts, singleUser, updateMember } from './users.service.ts';

const adminErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

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
    summary:
      'Find a member to send money to by exact e-mail or by username (either one, any case): id, name and username, and the e-mail only when asked by e-mail',
    tags: ['users'],
    access: 'signed-in',
    query: emailLookupQuerySchema,
    responses: { 200: emailUserSchema, 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
    handler: async ({ query, user }) => lookupRecipient(db, user, query),
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
    method: 'GET',
    url: '/users/list',
    summary:
      'Members a page at a time (allusers), with wallet balances; search by name, username, e-mail or phone, filter by status, is_active and invested (any, never: no top-up at all, yes: at least one), sort (admin)',
    tags: ['users', 'admin'],
    access: 'admin',
    query: userListQuerySchema,
    responses: { 200: userListSchema, ...adminErrors },
    handler: async ({ query, user }) => memberList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users/non/users',
    summary:
      'Members who never invested (allnonusers): no top-up at all (as /users/list?invested=never), newest first, with page and limit (admin)',
    tags: ['users', 'admin'],
    access: 'admin',
    query: nonUsersQuerySchema,
    responses: { 200: nonUserListSchema, ...adminErrors },
    handler: async ({ query, user }) => neverInvestedList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users/export',
    summary:
      'Every member of the list filter (search, status, is_active, invested, sort, order) as a CSV file (admin)',
    tags: ['users', 'admin'],
    access: 'admin',
    query: memberFilterSchema,
    responses: adminErrors,
    handler: async ({ query, user, reply }) => {
      const csv = await exportMembersCsv(db, user, query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="members-${day}.csv"`)
        .send(csv);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users/:id/detail',
    summary:
      'One member for support staff: the user with balances, sponsor, direct team size, recent ledger transfers and live sessions (admin)',
    tags: ['users', 'admin'],
    access: 'admin',
    params: userIdParamsSchema,
    responses: { 200: memberDetailSchema, ...adminErrors },
    handler: async ({ params, user }) => memberDetail(db, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users/:id/deletion',
    summary:
      'What deleting this member would do: erase (no history at all) or deactivate (money, ledger rows, payments or referrals), and why (admin)',
    tags: ['users', 'admin'],
    access: 'admin',
    params: userIdParamsSchema,
    responses: { 200: deletionPreviewSchema, ...adminErrors },
    handler: async ({ params, user }) => deletionPreview(db, user, params.id),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/users/:id',
    summary:
      'Edit a member: username, email, status, is_active, roi_status, level_status, address, business, business_balance, fullname, phone, bep20, trc20 (admin, audited). Blocking ends their sessions; role, password or any other field is a 400; no wallet balance changes here',
    tags: ['users', 'admin'],
    access: 'admin',
    params: userIdParamsSchema,
    body: memberEditSchema,
    responses: { 200: messageSchema, ...adminErrors, 409: errorBodySchema },
    handler: async ({ params, body, user }) => updateMember(db, user, params.id, body),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/users/:id',
    summary:
      'Delete a member (admin, audited): one with money or history is blocked and deactivated instead, so no ledger row loses its owner',
    tags: ['users', 'admin'],
    access: 'admin',
    params: userIdParamsSchema,
    responses: { 200: deletionResultSchema, ...adminErrors },
    handler: async ({ params, user }) => deleteMember(db, user, params.id),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/users/:id/sessions',
    summary: 'End every session of a member at once (admin, audited)',
    tags: ['users', 'admin'],
    access: 'admin',
    params: userIdParamsSchema,
    responses: { 200: sessionsEndedSchema, ...adminErrors },
    handler: async ({ params, user }) => endMemberSessions(db, user, params.id),
  });
}
