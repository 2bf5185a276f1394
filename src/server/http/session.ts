import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../shared/constants.ts';
import type { Db } from '../db/database.ts';
import type { UserTable } from '../db/schema.ts';
import { resolveSession } from '../modules/auth/auth.service.ts';
import { forbidden, unauthorized } from './errors.ts';
import { isApiRequest } from './request-path.ts';
import type { Access } from './route.ts';
import { hashToken } from './tokens.ts';

export type SessionUser = {
  sessionId: string;
  expiresAt: string;
  /**
   * The end of the session unless it is used again: expiresAt, or sooner its idle timeout's end (set by
   * the session loader; a session made in code, as the warm-up's, has expiresAt only).
   */
  endsAt?: string;
  user: UserTable;
};

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser: SessionUser | undefined;
    /** A session cookie came that names no live session (expired, idle, signed out, blocked). */
    sessionEnded: boolean;
  }
}

/**
 * Sent on sign-out and on a 401 for a session that has ended: the browser drops this site's storage
 * (IndexedDB with the offline copies, localStorage with the persisted session, the Cache API, the
 * service worker and its push subscription) and its HTTP cache (a member's images are cached privately
 * for a day). The app registers the worker again at once (docs/rules.md "Offline copies"). Not
 * "cookies": that clears every cookie of the whole registrable domain; the session cookie is expired
 * by name instead.
 */
export const CLEAR_SITE_DATA = '"cache", "storage"';

/** Attaches the signed-in person to every API request; an expired session or a blocked member has none. */
export function registerSessionLoader(app: FastifyInstance, db: Db, cookies: CookieSettings): void {
  const name = sessionCookieName(cookies);
  app.decorateRequest('sessionUser', undefined);
  app.decorateRequest('sessionEnded', false);
  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request)) return;
    const token = request.cookies[name];
    if (!token) return;
    const found = await resolveSession(db, hashToken(token));
    if (found) request.sessionUser = found;
    else request.sessionEnded = true;
  });
  // The 401 of a session that has ended: its cookie goes, and the browser's cache of the member with it.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 401 || !request.sessionEnded) return;
    reply.header('clear-site-data', CLEAR_SITE_DATA);
    clearSessionCookie(reply, cookies);
  });
}

export function requireRole(request: FastifyRequest, access: Exclude<Access, 'public'>): SessionUser {
  const current = request.sessionUser;
  if (!current) throw unauthorized();
  if (access === 'member' && current.user.role !== 'user') throw forbidden();
  if (access === 'admin' && current.user.role !== 'admin') throw forbidden();
  return current;
}

export type CookieSettings = { secure: boolean };

/**
 * `__Host-sid` when the site is served over https (PUBLIC_URL): the browser keeps it only when Secure,
 * on Path=/ and without Domain, so a sibling subdomain or a plain-http page cannot plant or overwrite
 * a session. Over http (local development) such a cookie cannot be set: `sid`. Only the one name is
 * read, so a planted `sid` signs nobody in on an https site.
 */
export const sessionCookieName = (cookies: CookieSettings) =>
  cookies.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
  cookies: CookieSettings,
): void {
  reply.setCookie(sessionCookieName(cookies), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookies.secure,
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, cookies: CookieSettings): void {
  reply.clearCookie(sessionCookieName(cookies), {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookies.secure,
    path: '/',
  });
}

export const clientIp = (request: FastifyRequest) => request.ip;
