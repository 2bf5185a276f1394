import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  adminTicketListSchema,
  singleTicketSchema,
  supportIdParamsSchema,
  TICKET_MESSAGES,
  ticketCreateSchema,
  ticketIdParamsSchema,
  ticketImageResultSchema,
  ticketListQuerySchema,
  ticketListSchema,
  ticketResponseCreateSchema,
  ticketResponseResultSchema,
  ticketResponsesSchema,
  ticketResultSchema,
  ticketStatusUpdateSchema,
  ticketUserParamsSchema,
} from '../../../shared/tickets.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { readImageField, storeImage } from '../uploads/uploads.service.ts';
import {
  addResponse,
  changeStatus,
  createTicket,
  imageOwnerFor,
  memberTickets,
  searchTickets,
  singleTicket,
  ticketResponses,
} from './tickets.service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  422: errorBodySchema,
};

const imageQuerySchema = v.object({ ticket_id: v.optional(v.pipe(v.string(), v.nonEmpty())) });

export function registerTicketsRoutes(
  app: FastifyInstance,
  { db, dataDir }: { db: Db; dataDir: string },
): void {
  // Spec 7 "Tickets" and the older "Support" calls: one ticket model behind both (docs/rules.md "Support tickets").
  for (const url of ['/tickets', '/support/add']) {
    defineRoute(app, {
      method: 'POST',
      url,
      summary:
        'A member opens a support ticket (subject, category, message, optional image from POST /tickets/images); accepts an Idempotency-Key header',
      tags: ['tickets'],
      access: 'member',
      body: ticketCreateSchema,
      responses: { 201: ticketResultSchema, ...errors, 409: errorBodySchema },
      handler: async ({ body, user, request, reply }) => {
        const outcome = await createTicket(db, user, body, idempotencyKeyOf(request));
        return reply.status(outcome.statusCode).send(outcome.body);
      },
    });
  }

  defineRoute(app, {
    method: 'POST',
    url: '/tickets/images',
    summary:
      'Uploads one image (multipart field "image": PNG, JPEG or WebP, at most 5 MB and 40 megapixels) for a new ticket, or with ?ticket_id= for an answer in that ticket; answers the name to send as "image"',
    tags: ['tickets'],
    access: 'signed-in',
    query: imageQuerySchema,
    responses: { 201: ticketImageResultSchema, ...errors, 413: errorBodySchema },
    handler: async ({ query, user, request, reply }) => {
      const ownerId = await imageOwnerFor(db, user, query.ticket_id);
      const bytes = await readImageField(request, 'image');
      const image = await storeImage(db, dataDir, { bytes, ownerId, purpose: 'ticket' });
      return reply.status(201).send({ image: { name: image.name, url: image.url } });
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/tickets/:ticketId/responses',
    summary:
      "Answers in a ticket's thread: its member or an admin. A member's answer reopens a resolved ticket; a closed ticket takes none (422). The member is notified of every admin answer.",
    tags: ['tickets'],
    access: 'signed-in',
    params: ticketIdParamsSchema,
    body: ticketResponseCreateSchema,
    responses: { 201: ticketResponseResultSchema, ...errors, 409: errorBodySchema },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await addResponse(db, user, params.ticketId, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/tickets',
    summary: 'Every ticket, most recently active first, by status and search (admin)',
    tags: ['tickets', 'admin'],
    access: 'admin',
    query: ticketListQuerySchema,
    responses: { 200: adminTicketListSchema, ...errors },
    handler: async ({ query, user }) => searchTickets(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/tickets/single/:ticketId',
    summary: "One ticket: the member's own, or any for an admin",
    tags: ['tickets'],
    access: 'signed-in',
    params: ticketIdParamsSchema,
    responses: { 200: singleTicketSchema, ...errors },
    handler: async ({ params, user }) => singleTicket(db, user, params.ticketId),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/tickets/:userId',
    summary: "A member's tickets, most recently active first: your own, or any member's for an admin",
    tags: ['tickets'],
    access: 'signed-in',
    params: ticketUserParamsSchema,
    responses: { 200: ticketListSchema, ...errors },
    handler: async ({ params, user }) => memberTickets(db, user, params.userId),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/ticket-responses/:ticketId',
    summary: "A ticket's thread, oldest first",
    tags: ['tickets'],
    access: 'signed-in',
    params: ticketIdParamsSchema,
    responses: { 200: ticketResponsesSchema, ...errors },
    handler: async ({ params, user }) => ticketResponses(db, user, params.ticketId),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/tickets/:ticketId/status',
    summary:
      'Sets a ticket status (open, in_progress, resolved, closed): any for an admin (audited, the member is notified); a member may only close their own ticket',
    tags: ['tickets'],
    access: 'signed-in',
    params: ticketIdParamsSchema,
    body: ticketStatusUpdateSchema,
    responses: { 200: ticketResultSchema, ...errors },
    handler: async ({ params, body, user }) => changeStatus(db, user, params.ticketId, body.status),
  });

  // The older Support calls on the same model.
  defineRoute(app, {
    method: 'GET',
    url: '/support/list',
    summary: 'Support tickets: your own as a member, every ticket as an admin (same filters as GET /tickets)',
    tags: ['tickets', 'support'],
    access: 'signed-in',
    query: ticketListQuerySchema,
    responses: { 200: adminTicketListSchema, ...errors },
    handler: async ({ query, user }) => searchTickets(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/support/by/:id',
    summary: "A member's tickets by member id (the same as GET /tickets/{userId})",
    tags: ['tickets', 'support'],
    access: 'signed-in',
    params: supportIdParamsSchema,
    responses: { 200: ticketListSchema, ...errors },
    handler: async ({ params, user }) => memberTickets(db, user, params.id),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/support/:id',
    summary: 'Sets the status of ticket {id} (the same as PUT /tickets/{ticketId}/status)',
    tags: ['tickets', 'support'],
    access: 'signed-in',
    params: supportIdParamsSchema,
    body: ticketStatusUpdateSchema,
    responses: { 200: ticketResultSchema, ...errors },
    handler: async ({ params, body, user }) => changeStatus(db, user, params.id, body.status),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/support/:id',
    summary:
      'Closes ticket {id} (its member or an admin). Nothing is erased: the ticket and its thread stay readable.',
    tags: ['tickets', 'support'],
    access: 'signed-in',
    params: supportIdParamsSchema,
    responses: { 200: ticketResultSchema, ...errors },
    handler: async ({ params, user }) => changeStatus(db, user, params.id, 'closed', TICKET_MESSAGES.closed),
  });
}
