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
import { exclusionBodySchema, exclusionIdSchema } from '../../../shared/rank-exclusions.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { excludeMember, restoreMember } from '../rewards/rank-exclusions.service.ts';
import { ctoOfMember, ctoPayments, ctoPayoutsOfMonth, ctoPreview, payCto } from './cto.service.ts';

// Spec 7 "CTO". PUT /cto/{id}, which the spec's client used as a delete, excludes a member from the CTO
// of every month not yet paid (POST /cto/{id}/restore undoes it): a paid month's money is in the ledger
// and is never deleted.

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

  defineRoute(app, {
    method: 'PUT',
    url: '/cto/:id',
    summary:
      "Exclude a member (id = the member's id; optional body {reason}) from the CTO of every month not yet paid (admin, audited): GET /cto shows them as excluded and Pay splits the pool among the rest; paid months are untouched; excluding an excluded member answers the same and changes nothing",
    tags,
    access: 'admin',
    params: exclusionIdSchema,
    body: exclusionBodySchema,
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, body, user }) => excludeMember(db, user, 'cto', params.id, body.reason),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/cto/:id/restore',
    summary:
      'Bring an excluded member back into the CTO of every month not yet paid (admin, audited); restoring a member who is not excluded answers the same and changes nothing',
    tags,
    access: 'admin',
    params: exclusionIdSchema,
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, user }) => restoreMember(db, user, 'cto', params.id),
  });
}
