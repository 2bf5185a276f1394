import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  TOPUP_MESSAGES,
  topupEntrySchema,
  topupListQuerySchema,
  topupListSchema,
  topupMemberParamsSchema,
  topupMemberQuerySchema,
  topupMemberSchema,
  topupResultSchema,
  topupSelfSchema,
} from '../../../shared/topups.ts';
import type { Db } from '../../db/database.ts';
import { forbidden } from '../../http/errors.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { findTopupMember, payTopup, topupList, topupsOfMember } from './topups.service.ts';

const payResponses = {
  201: topupResultSchema,
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

export function registerTopupsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  for (const [url, type] of [
    ['/topup/add', 'topup'],
    ['/topup/addretopup', 'retopup'],
  ] as const) {
    defineRoute(app, {
      method: 'POST',
      url,
      summary:
        type === 'topup'
          ? 'Buy a plan for yourself from your Active Wallet; the first top-up makes you active; accepts an Idempotency-Key header'
          : 'Buy another investment for yourself after your first top-up; accepts an Idempotency-Key header',
      tags: ['topups'],
      access: 'member',
      body: topupSelfSchema,
      responses: payResponses,
      handler: async ({ body, user, request, reply }) => {
        const outcome = await payTopup(
          db,
          user,
          { type, beneficiaryId: user.user.id, planId: body.plan_id, amountCents: body.amount },
          idempotencyKeyOf(request),
        );
        return reply.status(outcome.statusCode).send(outcome.body);
      },
    });
  }

  defineRoute(app, {
    method: 'POST',
    url: '/topup/entry',
    summary:
      'Top up member `id` (yourself or another member), paid from the Active Wallet of `userby_id`, who must be you; accepts an Idempotency-Key header',
    tags: ['topups'],
    access: 'member',
    body: topupEntrySchema,
    responses: payResponses,
    handler: async ({ body, user, request, reply }) => {
      if (body.userby_id !== user.user.id) throw forbidden(TOPUP_MESSAGES.notYourAccount);
      const outcome = await payTopup(
        db,
        user,
        {
          type: body.id === user.user.id ? 'topup' : 'entry',
          beneficiaryId: body.id,
          planId: body.plan_id,
          amountCents: body.amount,
        },
        idempotencyKeyOf(request),
      );
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/topup/list',
    summary:
      'Top-ups, newest first, by page: a member sees those they paid or received; an admin sees every one',
    tags: ['topups'],
    access: 'signed-in',
    query: topupListQuerySchema,
    responses: { 200: topupListSchema, 400: errorBodySchema, 401: errorBodySchema },
    handler: async ({ query, user }) => topupList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/topup/by/:id',
    summary: "A member's top-ups (paid or received), newest first, by page; only your own unless admin",
    tags: ['topups'],
    access: 'signed-in',
    params: topupMemberParamsSchema,
    query: topupListQuerySchema,
    responses: { 200: topupListSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, query, user }) => topupsOfMember(db, user, params.id, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/topup/member',
    summary:
      'Find the member to top up by exact e-mail or username (any case): id, name and username to confirm',
    tags: ['topups'],
    access: 'member',
    query: topupMemberQuerySchema,
    responses: { 200: topupMemberSchema, 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
    handler: async ({ query, user }) => findTopupMember(db, user, query.q),
  });
}
