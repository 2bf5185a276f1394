import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import { QR_LINK_MESSAGES, qrLinkInputSchema, qrLinkSchema } from '../../../shared/qr-links.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { addQrLink, listQrLinks, removeQrLink } from './qr-links.service.ts';

// Spec 7 "QR link".

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function registerQrLinksRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const tags = ['qr links'];

  defineRoute(app, {
    method: 'POST',
    url: '/qr/add',
    summary: 'Add a QR link: a label and an https link or a BEP20/TRC20 wallet address (admin, audited)',
    tags: [...tags, 'admin'],
    access: 'admin',
    body: qrLinkInputSchema,
    responses: { 201: v.object({ message: v.string(), qr: qrLinkSchema }), ...errors },
    handler: async ({ body, user, reply }) => reply.status(201).send(await addQrLink(db, user, body)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/qr',
    summary: 'The QR links members see where they deposit, newest first',
    tags,
    access: 'signed-in',
    responses: { 200: v.object({ qr: v.array(qrLinkSchema) }), 401: errorBodySchema },
    handler: async () => listQrLinks(db),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/qr/:id',
    summary: 'Remove a QR link (admin, audited)',
    tags: [...tags, 'admin'],
    access: 'admin',
    params: v.object({ id: v.pipe(v.string(), v.nonEmpty(QR_LINK_MESSAGES.notFound)) }),
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, user }) => removeQrLink(db, user, params.id),
  });
}
