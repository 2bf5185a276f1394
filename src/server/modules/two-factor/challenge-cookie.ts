import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHALLENGE_TTL_MS } from '../../../shared/two-factor.ts';
import type { CookieSettings } from '../../http/session.ts';

// The half-done sign-in (right password, code still to come) rides in its own httpOnly cookie, sent
// only to the sign-in calls and gone after five minutes; its token is stored only as a hash.

export const CHALLENGE_COOKIE = 'otp_challenge';
const PATH = '/api/v1/auth';

export function setChallengeCookie(reply: FastifyReply, token: string, cookies: CookieSettings): void {
  reply.setCookie(CHALLENGE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookies.secure,
    path: PATH,
    maxAge: CHALLENGE_TTL_MS / 1000,
  });
}

export function clearChallengeCookie(reply: FastifyReply, cookies: CookieSettings): void {
  reply.clearCookie(CHALLENGE_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookies.secure,
    path: PATH,
  });
}

export const challengeTokenOf = (request: FastifyRequest): string | undefined =>
  request.cookies[CHALLENGE_COOKIE];
