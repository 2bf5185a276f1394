import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { selfTradeParamsSchema, selfTradeQuerySchema, selfTradeSavedSchema } from '../../../shared/trade.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { saveSelfTrade } from './trade.service.ts';

// Spec 7 "Referral": PUT /referral/self-trade/{userId}?pair={pair}, no body. The spec sends it to a
// separate API host; here one server answers every call, under the same base path as the rest.
export function registerTradeRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'PUT',
    url: '/referral/self-trade/:userId',
    summary:
      'Save the market pair a member trades themselves and follows in the app (?pair=BTCUSDT, any case; one of a fixed list). No body; places no order and moves no money. Your own id, or any member’s for an admin (audited); another member’s id is a 404. The pair is read back as self_trade_pair on the auth and singleuser objects',
    tags: ['trade'],
    access: 'signed-in',
    params: selfTradeParamsSchema,
    query: selfTradeQuerySchema,
    responses: {
      200: selfTradeSavedSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      404: errorBodySchema,
    },
    handler: async ({ params, query, user }) => saveSelfTrade(db, user, params.userId, query.pair),
  });
}
