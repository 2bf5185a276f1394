import type { FastifyInstance } from 'fastify';
import { messageSchema } from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  deviceSessionsSchema,
  endedSessionsSchema,
  SESSIONS,
  sessionHandleParamsSchema,
} from '../../../shared/sessions.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { endDeviceSession, endOtherDeviceSessions, listDeviceSessions } from './device-sessions.service.ts';

export function registerSessionsRoutes(app: FastifyInstance, deps: { db: Db }): void {
  const { db } = deps;
  const tags = ['auth'];

  defineRoute(app, {
    method: 'GET',
    url: '/auth/sessions',
    summary:
      'The caller’s own unexpired sessions (device, address, signed in at), this one first with current: true',
    tags,
    access: 'signed-in',
    responses: { 200: deviceSessionsSchema, 401: errorBodySchema },
    handler: async ({ user }) => ({ sessions: await listDeviceSessions(db, user) }),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/auth/sessions/:id',
    summary:
      'Sign out one of the caller’s other sessions by its id from GET /auth/sessions; 404 when it is not theirs or has ended, 422 for the current one (use sign-out)',
    tags,
    access: 'signed-in',
    params: sessionHandleParamsSchema,
    responses: { 200: messageSchema, 400: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema },
    handler: async ({ user, params }) => {
      await endDeviceSession(db, user, params.id);
      return { message: SESSIONS.ended };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/sessions/end-others',
    summary: 'Sign out every session of the caller except this one; answers how many ended',
    tags,
    access: 'signed-in',
    responses: { 200: endedSessionsSchema, 401: errorBodySchema },
    handler: async ({ user }) => ({
      message: SESSIONS.othersEnded,
      ended: await endOtherDeviceSessions(db, user),
    }),
  });
}
