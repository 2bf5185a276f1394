import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  adminTransactionPageSchema,
  allTransactionsQuerySchema,
  matrixQuerySchema,
  matrixSchema,
  transactionIdParamsSchema,
  transactionPageSchema,
  transactionQuerySchema,
  transactionUserParamsSchema,
} from '../../../shared/transactions.ts';
// PATCH takes the body of PUT /transfer/{id}/status: the same decision, validated by the same schema.
import { transferDecisionSchema, transferResultSchema } from '../../../shared/transfers.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { pushArrival } from '../transfers/transfers.routes.ts';
import {
  allTransactions,
  decideTransaction,
  exportTransactionsCsv,
  memberTransactions,
  transactionTotals,
} from './transactions.service.ts';

const readErrors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

export function registerTransactionsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/tr/user/:userId',
    summary:
      "A member's transactions from the ledger, newest first, 10 a page by default; filters transaction_type, source, status, search, direction; only your own unless admin",
    tags: ['transactions'],
    access: 'signed-in',
    params: transactionUserParamsSchema,
    query: transactionQuerySchema,
    responses: { 200: transactionPageSchema, ...readErrors, 404: errorBodySchema },
    handler: async ({ params, query, user }) => memberTransactions(db, user, params.userId, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/tr/all',
    summary:
      "Every member's transactions, newest first, each under the member it credits (else debits); the same filters and `user` (id, e-mail or username) (admin)",
    tags: ['transactions', 'admin'],
    access: 'admin',
    query: allTransactionsQuerySchema,
    responses: { 200: adminTransactionPageSchema, ...readErrors },
    handler: async ({ query, user }) => allTransactions(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/tr/export',
    summary:
      'Every transaction of the /tr/all filter (page and limit ignored) as a CSV file, newest first (admin)',
    tags: ['transactions', 'admin'],
    access: 'admin',
    query: allTransactionsQuerySchema,
    responses: readErrors,
    handler: async ({ query, user, reply }) => {
      const csv = await exportTransactionsCsv(db, user, query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="transactions-${day}.csv"`)
        .send(csv);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/tr/matrix',
    summary:
      'Per UTC month and transaction type: how many and how much, rejected transfers left out; `month` (YYYY-MM) narrows it (admin)',
    tags: ['transactions', 'admin'],
    access: 'admin',
    query: matrixQuerySchema,
    responses: { 200: matrixSchema, ...readErrors },
    handler: async ({ query, user }) => transactionTotals(db, user, query.month),
  });

  defineRoute(app, {
    method: 'PATCH',
    url: '/transactions/:transactionId',
    summary:
      'Settle a transfer waiting for review: completed (money reaches the recipient) or failed (money returns), exactly once, audited, as PUT /transfer/{id}/status (admin); accepts an Idempotency-Key header',
    tags: ['transactions', 'admin'],
    access: 'admin',
    params: transactionIdParamsSchema,
    body: transferDecisionSchema,
    responses: { 200: transferResultSchema, ...readErrors, 404: errorBodySchema, 409: errorBodySchema },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await decideTransaction(
        db,
        user,
        params.transactionId,
        body,
        idempotencyKeyOf(request),
      );
      pushArrival(db, outcome);
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });
}
