import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  ctoMonthSchema,
  ctoPaymentSchema,
  ctoPayoutSchema,
  ctoPaySchema,
  ctoPreviewSchema,
  ctoQuerySchema,
} from '../../../shared/cto.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { ctoOfMember, ctoPayments, ctoPayoutsOfMonth, ctoPreview, payCto } from './cto.service.ts';

// Spec 7 "CTO". PUT /cto/{id}, which the spec's client used as a delete, is not offered: a paid month's
// money is in the ledger and is never deleted.

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};
const payouts = v.object({ payouts: v.array(ctoPayoutSchema) });

export function registerCtoRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const tags = ['cto', 'admin'];

  defineRoute(app, {
    method: 'GET',
    url: '/cto',
    summary:
      "A month's CTO (default last month): deposits, the 1% pool, the top two ranks and who holds them, and the payment if made (admin)",
    tags,
    access: 'admin',
    query: ctoQuerySchema,
    responses: { 200: ctoPreviewSchema, ...errors },
    handler: async ({ query, user }) => ctoPreview(db, user, query.month),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/cto/pay',
    summary:
      "Pay a month's CTO (default last month) in equal shares into Income Working, once a month (a second Pay is a 409); audited; accepts an Idempotency-Key header",
    tags,
    access: 'admin',
    body: ctoPaySchema,
    responses: { 201: v.object({ message: v.string(), payment: ctoPaymentSchema }), ...errors },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await payCto(db, user, body.month, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/cto/list',
    summary: 'Every paid month, newest first (admin)',
    tags,
    access: 'admin',
    responses: { 200: v.object({ payments: v.array(ctoPaymentSchema) }), ...errors },
    handler: async ({ user }) => ctoPayments(db, user),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/cto/transaction/:id',
    summary: 'Who a paid month paid, and how much (admin); id is the month, YYYY-MM',
    tags,
    access: 'admin',
    params: v.object({ id: ctoMonthSchema }),
    responses: { 200: payouts, ...errors },
    handler: async ({ params, user }) => ctoPayoutsOfMonth(db, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/cto/byid/:id',
    summary: "A member's CTO payouts (your own, or anyone's for an admin)",
    tags: ['cto'],
    access: 'signed-in',
    params: v.object({ id: v.pipe(v.string(), v.nonEmpty()) }),
    responses: { 200: payouts, ...errors },
    handler: async ({ params, user }) => ctoOfMember(db, user, params.id),
  });
}
