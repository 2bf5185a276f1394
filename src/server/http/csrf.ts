import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants.ts';
import { GENERIC } from '../../shared/messages.ts';
import { AppError } from './errors.ts';
import { isApiRequest } from './request-path.ts';
import type { CookieSettings } from './session.ts';

// Signed double-submit (OWASP): the token is a nonce plus an HMAC of the nonce and the session it
// belongs to. A cookie planted by a sibling domain or an old session fails the HMAC, so the token is
// bound to the session, not merely equal in cookie and header. Before sign-in the binding is an
// httpOnly pre-session cookie; sign-in and sign-out issue a fresh token.

const PRE_SESSION_COOKIE = 'pre_sid';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Routes (as Fastify matched them, whatever the spelling of the path) signed by the payment provider instead. */
const EXEMPT_ROUTES = new Set(['/api/v1/payments/ipn']);

export type Csrf = {
  /** Sets a fresh token bound to the given session (or to the pre-session when none) and returns it. */
  issue: (request: FastifyRequest, reply: FastifyReply, sessionId?: string) => string;
};

const mac = (secret: string, binding: string, nonce: string) =>
  createHmac('sha256', secret).update(`${binding}|${nonce}`).digest('base64url');

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function registerCsrf(app: FastifyInstance, secret: string, cookies: CookieSettings): Csrf {
  const bindingOf = (sessionId: string | undefined, preSession: string | undefined) => {
    if (sessionId) return `s:${sessionId}`;
    return preSession ? `p:${preSession}` : undefined;
  };

  const issue: Csrf['issue'] = (request, reply, sessionId) => {
    let preSession = request.cookies[PRE_SESSION_COOKIE];
    if (!sessionId && !preSession) {
      preSession = randomBytes(18).toString('base64url');
      reply.setCookie(PRE_SESSION_COOKIE, preSession, {
        httpOnly: true,
        sameSite: 'lax',
        secure: cookies.secure,
        path: '/',
      });
    }
    const binding = bindingOf(sessionId, preSession) as string;
    const nonce = randomBytes(18).toString('base64url');
    const token = `${nonce}.${mac(secret, binding, nonce)}`;
    // Readable by the page's script (that is the point of double-submit); useless to another site.
    reply.setCookie(CSRF_COOKIE, token, {
      httpOnly: false,
      sameSite: 'strict',
      secure: cookies.secure,
      path: '/',
    });
    return token;
  };

  // Before parsing: a call without a valid token is refused whatever its body (no 400 or 415 first,
  // and no JSON parsing on another site's behalf).
  app.addHook('preParsing', async (request) => {
    if (SAFE_METHODS.has(request.method) || !isApiRequest(request)) return;
    if (EXEMPT_ROUTES.has(request.routeOptions.url ?? '')) return;
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies[CSRF_COOKIE];
    const binding = bindingOf(request.sessionUser?.sessionId, request.cookies[PRE_SESSION_COOKIE]);
    const valid = (() => {
      if (typeof header !== 'string' || !cookie || !binding || !equal(header, cookie)) return false;
      const [nonce, signature] = header.split('.');
      return Boolean(nonce && signature && equal(signature, mac(secret, binding, nonce)));
    })();
    if (!valid) throw new AppError(403, GENERIC.csrf, { error: 'csrf' });
  });

  return { issue };
}
