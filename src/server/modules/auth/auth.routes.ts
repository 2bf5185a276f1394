import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  adminSessionSchema,
  csrfSchema,
  currentSessionSchema,
  memberSessionSchema,
  messageSchema,
  registerSchema,
  type SignInInput,
  signInSchema,
} from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import { AUTH } from '../../../shared/messages.ts';
import { anyCodeSchema, otpRequiredSchema, otpSessionSchema } from '../../../shared/two-factor.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import type { Csrf } from '../../http/csrf.ts';
import { defineRoute } from '../../http/route.ts';
import {
  CLEAR_SITE_DATA,
  type CookieSettings,
  clearSessionCookie,
  setSessionCookie,
} from '../../http/session.ts';
import {
  challengeTokenOf,
  clearChallengeCookie,
  setChallengeCookie,
} from '../two-factor/challenge-cookie.ts';
import type { SecretBox } from '../two-factor/secret-box.ts';
import { completeChallenge, isTwoFactorOn, startChallenge } from '../two-factor/two-factor.service.ts';
import { toPublicUser } from '../users/users.service.ts';
import { walletBalance } from '../wallets/wallets.service.ts';
import { checkCredentials, type NewSession, register, signOut, startSession } from './auth.service.ts';

export type AuthDeps = { db: Db; csrf: Csrf; cookies: CookieSettings; box: SecretBox };

const context = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export function registerAuthRoutes(app: FastifyInstance, { db, csrf, cookies, box }: AuthDeps): void {
  const tags = ['auth'];

  const toMember = async (row: UserTable) => ({
    ...toPublicUser(row),
    balance: await walletBalance(db, row.id),
  });

  const giveSessionCookies = (request: FastifyRequest, reply: FastifyReply, session: NewSession) => {
    setSessionCookie(reply, session.token, new Date(session.expiresAt), cookies);
    csrf.issue(request, reply, session.sessionId);
  };

  /**
   * The password step; with two-factor sign-in on, no session yet: a challenge cookie instead, and
   * `{otp_required: true}` (POST /auth/otp-code finishes). Without it, the session at once.
   */
  const signIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    body: SignInInput,
    role: UserTable['role'],
  ): Promise<NewSession | undefined> => {
    const user = await checkCredentials(db, body, role, context(request));
    if (await isTwoFactorOn(db, user.id)) {
      setChallengeCookie(reply, await startChallenge(db, user, role), cookies);
      return undefined;
    }
    const session = await startSession(db, user, role, context(request), request.sessionUser?.sessionId);
    giveSessionCookies(request, reply, session);
    return session;
  };

  const endSession = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.sessionUser) await signOut(db, request.sessionUser.sessionId);
    clearSessionCookie(reply, cookies);
    reply.header('clear-site-data', CLEAR_SITE_DATA);
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
    summary:
      'Member sign-in; sets the session cookie, or with two-factor sign-in on answers {otp_required: true} and a challenge cookie for POST /auth/otp-code',
    tags,
    access: 'public',
    body: signInSchema,
    responses: {
      200: v.union([memberSessionSchema, otpRequiredSchema]),
      401: errorBodySchema,
      429: errorBodySchema,
    },
    handler: async ({ body, request, reply }) => {
      const session = await signIn(request, reply, body, 'user');
      if (!session) return { otp_required: true };
      return { auth: await toMember(session.user), expireAt: session.expiresAt };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/adminsignin',
    summary:
      'Admin sign-in; sets the session cookie, or with two-factor sign-in on answers {otp_required: true} and a challenge cookie for POST /auth/otp-code',
    tags,
    access: 'public',
    body: signInSchema,
    responses: {
      200: v.union([adminSessionSchema, otpRequiredSchema]),
      401: errorBodySchema,
      429: errorBodySchema,
    },
    handler: async ({ body, request, reply }) => {
      const session = await signIn(request, reply, body, 'admin');
      if (!session) return { otp_required: true };
      return { admin: toPublicUser(session.user), expireAt: session.expiresAt };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/otp-code',
    summary:
      'Second step of signing in with two-factor sign-in on: {code} (6 digits from the app, or a recovery code) with the challenge cookie from /auth/signin or /auth/adminsignin; answers as they would. At most 5 tries per challenge, which lasts 5 minutes',
    tags,
    access: 'public',
    body: anyCodeSchema,
    responses: { 200: otpSessionSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
    handler: async ({ body, request, reply }) => {
      const { session, role } = await completeChallenge(
        { db, box },
        challengeTokenOf(request),
        body.code,
        context(request),
        request.sessionUser?.sessionId,
        () => clearChallengeCookie(reply, cookies),
      );
      giveSessionCookies(request, reply, session);
      return role === 'admin'
        ? { admin: toPublicUser(session.user), expireAt: session.expiresAt }
        : { auth: await toMember(session.user), expireAt: session.expiresAt };
    },
  });

  for (const url of ['/auth/signout', '/auth/signoutadmin']) {
    // POST carries the CSRF token, so another site cannot sign a member out; the app uses it.
    defineRoute(app, {
      method: 'POST',
      url,
      summary: 'End the current session on the server and clear its cookie (needs the CSRF header)',
      tags,
      access: 'public',
      responses: { 200: messageSchema, 403: errorBodySchema },
      handler: async ({ request, reply }) => endSession(request, reply),
    });
    // The specification's GET would let any page sign a member out (an <img> pointing here needs no
    // token), so it ends nothing: 405 naming the method that does.
    defineRoute(app, {
      method: 'GET',
      url,
      summary: 'Signs nobody out: 405 with Allow: POST (sign out with POST and the CSRF header)',
      tags,
      access: 'public',
      responses: { 405: errorBodySchema },
      handler: async ({ reply }) =>
        reply
          .status(405)
          .header('allow', 'POST')
          .send({ message: AUTH.signOutWithPost, error: 'method_not_allowed' }),
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
