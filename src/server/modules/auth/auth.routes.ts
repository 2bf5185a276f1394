import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  adminSessionSchema,
  csrfSchema,
  currentSessionSchema,
  memberSessionSchema,
  messageSchema,
  registerSchema,
  signInSchema,
} from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import { AUTH } from '../../../shared/messages.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import type { Csrf } from '../../http/csrf.ts';
import { defineRoute } from '../../http/route.ts';
import { type CookieSettings, clearSessionCookie, setSessionCookie } from '../../http/session.ts';
import { toPublicUser } from '../users/users.service.ts';
import { walletBalance } from '../wallets/wallets.service.ts';
import { type NewSession, register, signIn, signOut } from './auth.service.ts';

export type AuthDeps = { db: Db; csrf: Csrf; cookies: CookieSettings };

const context = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export function registerAuthRoutes(app: FastifyInstance, { db, csrf, cookies }: AuthDeps): void {
  const tags = ['auth'];

  const toMember = async (row: UserTable) => ({
    ...toPublicUser(row),
    balance: await walletBalance(db, row.id),
  });

  const startSession = (request: FastifyRequest, reply: FastifyReply, session: NewSession) => {
    setSessionCookie(reply, session.token, new Date(session.expiresAt), cookies);
    csrf.issue(request, reply, session.sessionId);
  };

  const endSession = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.sessionUser) await signOut(db, request.sessionUser.sessionId);
    clearSessionCookie(reply, cookies);
    csrf.issue(request, reply);
    return { message: AUTH.signedOut };
  };

  defineRoute(app, {
    method: 'GET',
    url: '/auth/csrf',
    summary:
      'Issue a CSRF token bound to the current (or pre-sign-in) session; also set as the XSRF-TOKEN cookie',
    tags,
    access: 'public',
    responses: { 200: csrfSchema },
    handler: async ({ request, reply }) => ({
      csrfToken: csrf.issue(request, reply, request.sessionUser?.sessionId),
    }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/register',
    summary: 'Register a member (optional referral code in reffer_by)',
    tags,
    access: 'public',
    body: registerSchema,
    responses: { 201: messageSchema, 400: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
    handler: async ({ body, request, reply }) => {
      await register(db, body, context(request));
      return reply.status(201).send({ message: AUTH.registered });
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/signin',
    summary: 'Member sign-in; sets the session cookie',
    tags,
    access: 'public',
    body: signInSchema,
    responses: { 200: memberSessionSchema, 401: errorBodySchema, 429: errorBodySchema },
    handler: async ({ body, request, reply }) => {
      const session = await signIn(db, body, 'user', context(request), request.sessionUser?.sessionId);
      startSession(request, reply, session);
      return { auth: await toMember(session.user), expireAt: session.expiresAt };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/adminsignin',
    summary: 'Admin sign-in; sets the session cookie',
    tags,
    access: 'public',
    body: signInSchema,
    responses: { 200: adminSessionSchema, 401: errorBodySchema, 429: errorBodySchema },
    handler: async ({ body, request, reply }) => {
      const session = await signIn(db, body, 'admin', context(request), request.sessionUser?.sessionId);
      startSession(request, reply, session);
      return { admin: toPublicUser(session.user), expireAt: session.expiresAt };
    },
  });

  for (const url of ['/auth/signout', '/auth/signoutadmin']) {
    // POST carries the CSRF token, so another site cannot sign a member out; the app uses it. The
    // specification's GET stays for clients that still call it.
    defineRoute(app, {
      method: 'POST',
      url,
      summary: 'End the current session on the server and clear its cookie (needs the CSRF header)',
      tags,
      access: 'public',
      responses: { 200: messageSchema, 403: errorBodySchema },
      handler: async ({ request, reply }) => endSession(request, reply),
    });
    defineRoute(app, {
      method: 'GET',
      url,
      summary: 'End the current session on the server and clear its cookie (kept for old clients; use POST)',
      tags,
      access: 'public',
      responses: { 200: messageSchema },
      handler: async ({ request, reply }) => endSession(request, reply),
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/auth/session',
    summary: 'The signed-in member (auth) or admin (admin) and when the session expires',
    tags,
    access: 'signed-in',
    responses: { 200: currentSessionSchema, 401: errorBodySchema },
    handler: async ({ user }) => {
      return user.user.role === 'admin'
        ? { admin: toPublicUser(user.user), expireAt: user.expiresAt }
        : { auth: await toMember(user.user), expireAt: user.expiresAt };
    },
  });
}
