import type { FastifyInstance } from 'fastify';
import {
  depositDecisionSchema,
  depositDetailSchema,
  depositIdParamsSchema,
  depositImageResultSchema,
  depositListQuerySchema,
  depositListSchema,
  depositResultSchema,
  manualDepositRequestSchema,
} from '../../../shared/deposits.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { pushToMembers } from '../push/push.service.ts';
import { readImageField, storeImage } from '../uploads/uploads.service.ts';
import {
  addDeposit,
  cancelDeposit,
  decideDeposit,
  depositById,
  depositImageOwner,
  depositList,
} from './deposits.service.ts';

// Spec 7 "Deposits" (the spec's spelling of the path is kept): manual deposits, sent by a member and
// decided by an admin. The screenshot is uploaded first (POST /deposite/images) and named in the add.

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export function registerDepositsRoutes(
  app: FastifyInstance,
  { db, dataDir }: { db: Db; dataDir: string },
): void {
  defineRoute(app, {
    method: 'POST',
    url: '/deposite/images',
    summary:
      'Uploads a screenshot of a manual deposit (multipart field "image": PNG, JPEG or WebP, at most 5 MB); answers the name to send as "image" (member)',
    tags: ['deposits'],
    access: 'member',
    responses: { 201: depositImageResultSchema, ...errors, 413: errorBodySchema, 429: errorBodySchema },
    handler: async ({ user, request, reply }) => {
      const ownerId = await depositImageOwner(db, user);
      const bytes = await readImageField(request, 'image');
      const image = await storeImage(db, dataDir, { bytes, ownerId, purpose: 'deposit' });
      return reply.status(201).send({ image: { name: image.name, url: image.url } });
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/deposite/add',
    summary:
      'A member reports a manual deposit (amount, transaction hash, optional screenshot) for an admin to approve; a hash already pending or approved is a 409; accepts an Idempotency-Key header',
    tags: ['deposits'],
    access: 'member',
    body: manualDepositRequestSchema,
    responses: { 201: depositResultSchema, ...errors },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await addDeposit(db, user, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/deposite/list',
    summary: 'Manual deposits, newest first: your own, or every member’s for an admin (?status= filters)',
    tags: ['deposits'],
    access: 'signed-in',
    query: depositListQuerySchema,
    responses: { 200: depositListSchema, 400: errorBodySchema, 401: errorBodySchema },
    handler: async ({ query, user }) => depositList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/deposite/by/:id',
    summary: 'One manual deposit: your own, or any for an admin',
    tags: ['deposits'],
    access: 'signed-in',
    params: depositIdParamsSchema,
    responses: { 200: depositDetailSchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => depositById(db, user, params.id),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/deposite/:id',
    summary:
      'Approve (the member’s Active Wallet is credited the deposit’s amount) or reject (with a reason) a pending manual deposit, exactly once; amount and user_id must be the deposit’s (admin, audited); accepts an Idempotency-Key header',
    tags: ['deposits', 'admin'],
    access: 'admin',
    params: depositIdParamsSchema,
    body: depositDecisionSchema,
    responses: { 200: depositResultSchema, ...errors },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await decideDeposit(db, user, params.id, body, idempotencyKeyOf(request));
      // Web Push (issue 6): after the commit, in the background, never failing this call; a replay
      // under the same Idempotency-Key was pushed the first time.
      if (outcome.statusCode === 200 && !outcome.replayed && 'push' in outcome && outcome.push) {
        const { memberId, title, body: text } = outcome.push;
        void pushToMembers(db, [memberId], { title, body: text, url: '/user/deposit-history' });
      }
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/deposite/:id',
    summary:
      'Cancels a pending manual deposit: your own, or any for an admin (audited). The record stays, marked cancelled; a decided deposit is a 409',
    tags: ['deposits'],
    access: 'signed-in',
    params: depositIdParamsSchema,
    responses: { 200: depositResultSchema, ...errors },
    handler: async ({ params, user }) => cancelDeposit(db, user, params.id),
  });
}
