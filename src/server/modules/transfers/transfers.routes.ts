import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { PUSH_MESSAGES } from '../../../shared/push.ts';
import {
  transferDecisionSchema,
  transferHistorySchema,
  transferIdParamsSchema,
  transferLimitsSchema,
  transferListQuerySchema,
  transferListSchema,
  transferRequestSchema,
  transferResultSchema,
} from '../../../shared/transfers.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { pushToMembers, pushToSubscriptions } from '../push/push.service.ts';
import {
  allTransfers,
  type DecisionOutcome,
  decideTransfer,
  sendTransfer,
  transferHistory,
  transferLimits,
} from './transfers.service.ts';

const sendResponses = {
  201: transferResultSchema,
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

/** Web Push (issue 6): an approved transfer has just reached its recipient (first answer only). */
export function pushArrival(db: Db, outcome: DecisionOutcome): void {
  const { transfer } = outcome.body as { transfer?: { amount: string; sender_name: string } };
  if (outcome.arrivedFor && transfer)
    void pushToMembers(db, [outcome.arrivedFor], {
      title: PUSH_MESSAGES.moneyReceivedTitle,
      body: PUSH_MESSAGES.moneyReceivedBody(transfer.sender_name, transfer.amount),
      url: '/user/transfer',
    });
}

export function registerTransfersRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  // Spec 7 names both calls with the same payload; /transfer/friend is the same transfer.
  for (const url of ['/transfer/touser', '/transfer/friend']) {
    defineRoute(app, {
      method: 'POST',
      url,
      summary:
        'Send money from one of your wallets to a member (or between your own two wallets); accepts an Idempotency-Key header. 5,000 or more waits for admin review.',
      tags: ['transfers'],
      access: 'member',
      body: transferRequestSchema,
      responses: sendResponses,
      handler: async ({ body, user, request, reply }) => {
        const outcome = await sendTransfer(db, user, body, idempotencyKeyOf(request));
        // Web Push: the transfer has committed; tell another member that money arrived, on the
        // devices read with them in the transfer's transaction. In the background, never failing this
        // call; only a first answer that moved money to another member carries them (a pending
        // transfer has not arrived yet, and a repeat under the same Idempotency-Key was pushed the
        // first time).
        const sent = outcome.body as { transfer?: { amount: string; sender_name: string } };
        if (outcome.push && sent.transfer)
          void pushToSubscriptions(db, outcome.push, {
            title: PUSH_MESSAGES.moneyReceivedTitle,
            body: PUSH_MESSAGES.moneyReceivedBody(sent.transfer.sender_name, sent.transfer.amount),
            url: '/user/transfer',
          });
        return reply.status(outcome.statusCode).send(outcome.body);
      },
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/transfer/byid/:id',
    summary:
      "A member's transfers (outgoing, incoming, all, newest first) and statistics; only your own unless admin",
    tags: ['transfers'],
    access: 'signed-in',
    params: transferIdParamsSchema,
    responses: { 200: transferHistorySchema, 401: errorBodySchema, 404: errorBodySchema },
    offlineCopy: true,
    handler: async ({ params, user }) => transferHistory(db, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/transfer/limits',
    summary:
      'The daily limit to other members and the review threshold in force (set on /admin/settings), and what is sent and left of today, UTC (member)',
    tags: ['transfers'],
    access: 'signed-in',
    responses: { 200: transferLimitsSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => transferLimits(db, user),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/transfer/list',
    summary: 'Every member transfer, newest first, optionally by status (admin)',
    tags: ['transfers', 'admin'],
    access: 'admin',
    query: transferListQuerySchema,
    responses: { 200: transferListSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ query, user }) => allTransfers(db, user, query),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/transfer/:id/status',
    summary:
      'Approve (completed) or reject (failed, money returned) a pending transfer, exactly once (admin, audited); accepts an Idempotency-Key header',
    tags: ['transfers', 'admin'],
    access: 'admin',
    params: transferIdParamsSchema,
    body: transferDecisionSchema,
    responses: {
      200: transferResultSchema,
      400: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
    },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await decideTransfer(db, user, params.id, body, idempotencyKeyOf(request));
      pushArrival(db, outcome);
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });
}
