import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT,
  changePasswordSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  verifyCodeSchema,
} from '../../../shared/account.ts';
import { messageSchema } from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import type { Db } from '../../db/database.ts';
import { registerAfterAnswer } from '../../http/after-answer.ts';
import { defineRoute } from '../../http/route.ts';
import { sendVerificationCode, verifyEmail } from './email-verification.service.ts';
import { changePassword } from './password-change.service.ts';
import { countResetRequest, resetPassword, sendResetLink } from './password-reset.service.ts';

export type AccountDeps = { db: Db; publicUrl: string };

export function registerAccountRoutes(app: FastifyInstance, deps: AccountDeps): void {
  const { db } = deps;
  const errors = { 400: errorBodySchema, 429: errorBodySchema };
  const afterAnswer = registerAfterAnswer(app);

  defineRoute(app, {
    method: 'POST',
    url: '/pass/forget',
    summary:
      'Ask for a password-reset link; the same answer for every address, a member’s address gets a link valid for the e-mailed code lifetime setting (15 minutes by default)',
    tags: ['password'],
    access: 'public',
    body: forgotPasswordSchema,
    responses: { 200: messageSchema, ...errors },
    handler: async ({ body, request, reply }) => {
      await countResetRequest(db, body, request.ip);
      // The look-up and a member's link wait until the answer has gone, so the time to answer is the
      // same for a member's address and any other.
      afterAnswer(reply, () => sendResetLink(deps, body.email));
      return { message: ACCOUNT.resetRequested };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/pass/reset',
    summary: 'Set a new password with the link’s token (works once); ends every session of the member',
    tags: ['password'],
    access: 'public',
    body: resetPasswordSchema,
    responses: { 200: messageSchema, ...errors },
    handler: async ({ body, request }) => {
      await resetPassword(db, body, request.ip);
      return { message: ACCOUNT.passwordChanged };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/change-password',
    summary:
      'The signed-in member changes their password: the current one, then a new one by the registration rules (5 tries a quarter hour); every other session of the member ends, and a mail tells them',
    tags: ['password'],
    access: 'member',
    body: changePasswordSchema,
    responses: { 200: messageSchema, ...errors },
    handler: async ({ body, user, request }) => {
      await changePassword(db, user, body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        publicUrl: deps.publicUrl,
      });
      return { message: ACCOUNT.passwordChanged };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/email-verification',
    summary:
      'Mail the signed-in member a 6-digit code (valid for the e-mailed code lifetime setting, 15 minutes by default) to verify their e-mail; at most 5 an hour',
    tags: ['auth'],
    access: 'member',
    responses: { 200: messageSchema, 422: errorBodySchema, 429: errorBodySchema },
    handler: async ({ user, request }) => {
      await sendVerificationCode(db, user.user, request.ip);
      return { message: ACCOUNT.codeSent };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/auth/verify-user',
    summary: 'Check the e-mailed code (at most 5 tries) and mark the member’s e-mail verified (verify_at)',
    tags: ['auth'],
    access: 'member',
    body: verifyCodeSchema,
    responses: { 200: messageSchema, 400: errorBodySchema, 422: errorBodySchema },
    handler: async ({ body, user }) => {
      await verifyEmail(db, user.user, body.otp);
      return { message: ACCOUNT.emailVerified };
    },
  });
}
