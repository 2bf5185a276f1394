import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  adjustmentResultSchema,
  adjustmentSchema,
  memberBalanceSchema,
  reconciliationSchema,
} from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { reconcile } from './ledger.service.ts';
import { adjustBalance, memberBalance } from './wallets.service.ts';

export function registerWalletsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/wallet/balance',
    summary:
      "The signed-in member's available balances, business (Active Wallet) and working (Income Working), and money_added: whether money ever reached the Active Wallet from outside the member's own wallets",
    tags: ['wallets'],
    access: 'member',
    responses: { 200: memberBalanceSchema, 401: errorBodySchema, 403: errorBodySchema },
    offlineCopy: true,
    handler: async ({ user }) => memberBalance(db, user.user.id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/admin/adjustments',
    summary: "Credit or debit a member's wallet with a reason (audited); accepts an Idempotency-Key header",
    tags: ['wallets', 'admin'],
    access: 'admin',
    body: adjustmentSchema,
    responses: {
      201: adjustmentResultSchema,
      400: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await adjustBalance(db, user, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/ledger/reconciliation',
    summary:
      'Proof that the books hold: every account recomputed from its entries, and the ledger summing to zero',
    tags: ['wallets', 'admin'],
    access: 'admin',
    responses: { 200: reconciliationSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async () => reconcile(db),
  });
}
