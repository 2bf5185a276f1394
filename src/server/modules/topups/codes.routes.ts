import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { planIdParamsSchema } from '../../../shared/plans.ts';
import {
  activationCodeSchema,
  codeBatchResultSchema,
  codeBatchSchema,
  codeListSchema,
  codeRedeemSchema,
  topupListQuerySchema,
  topupResultSchema,
} from '../../../shared/topups.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { codeById, codeList, createCodes, redeemCode } from './codes.service.ts';

export function registerCodesRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'POST',
    url: '/codes',
    summary:
      'Create a batch of activation codes, each one investment in a plan and amount paid by the platform (admin, audited)',
    tags: ['topups', 'admin'],
    access: 'admin',
    body: codeBatchSchema,
    responses: {
      201: codeBatchResultSchema,
      400: errorBodySchema,
      403: errorBodySchema,
      404: errorBodySchema,
      422: errorBodySchema,
    },
    handler: async ({ body, user, reply }) => reply.status(201).send(await createCodes(db, user, body)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/codes',
    summary: 'Every activation code, newest first, with who used it and when (admin)',
    tags: ['topups', 'admin'],
    access: 'admin',
    query: topupListQuerySchema,
    responses: { 200: codeListSchema, 400: errorBodySchema, 403: errorBodySchema },
    handler: async ({ query, user }) => codeList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/codes/:id',
    summary: 'One activation code, with who used it and when (admin)',
    tags: ['topups', 'admin'],
    access: 'admin',
    params: planIdParamsSchema,
    responses: { 200: activationCodeSchema, 403: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => codeById(db, user, params.id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/codes/redeem',
    summary: 'Redeem an activation code: it becomes your investment, once; accepts an Idempotency-Key header',
    tags: ['topups'],
    access: 'member',
    body: codeRedeemSchema,
    responses: {
      201: topupResultSchema,
      400: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await redeemCode(db, user, body.code, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });
}
