import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  mailIdParamsSchema,
  mailResendResultSchema,
  outboxListSchema,
  outboxQuerySchema,
} from '../../../shared/mail.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { listMails } from './mail.repository.ts';
import { resendMail, toOutboxMail } from './mail.service.ts';

export function registerMailRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const tags = ['mail'];

  defineRoute(app, {
    method: 'GET',
    url: '/admin/mail/failed',
    summary: 'Mails the server gave up sending after repeated failures (newest first, at most 100)',
    tags,
    access: 'admin',
    responses: { 200: outboxListSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async () => ({ mails: (await listMails(db, { status: 'failed' })).map(toOutboxMail) }),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/admin/mail/outbox',
    summary:
      'The outbox for support: every mail (pending, sent, failed; address, subject and status, never the text with its link or code), optionally to one address and of one status, newest first, at most 100',
    tags,
    access: 'admin',
    query: outboxQuerySchema,
    responses: { 200: outboxListSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ query }) => ({
      mails: (
        await listMails(db, {
          ...(query.to ? { to: query.to } : {}),
          ...(query.status ? { status: query.status } : {}),
        })
      ).map(toOutboxMail),
    }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/admin/mail/:id/resend',
    summary:
      'Sends a failed mail again: back in the outbox, due now, its tries counted afresh (admin, audited). A mail that is not failed is a 409',
    tags,
    access: 'admin',
    params: mailIdParamsSchema,
    responses: {
      200: mailResendResultSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
    },
    handler: async ({ params, user }) => resendMail(db, user, params.id),
  });
}
