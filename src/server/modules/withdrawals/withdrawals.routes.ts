import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  compoundAmountSchema,
  compoundWithdrawalSchema,
  incomeWithdrawalSchema,
  principalWithdrawalSchema,
  roiWithdrawalSchema,
  WITHDRAWAL_MESSAGES,
  type WithdrawalKind,
  withdrawalDebitSchema,
  withdrawalDecisionSchema,
  withdrawalDetailSchema,
  withdrawalListQuerySchema,
  withdrawalListSchema,
  withdrawalOptionsSchema,
  withdrawalResultSchema,
} from '../../../shared/withdrawals.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { pushToMembers } from '../push/push.service.ts';
import {
  cancelWithdrawal,
  changeCompoundAmount,
  decideWithdrawal,
  recordPayout,
  requestWithdrawal,
  type WithdrawalOutcome,
  withdrawalList,
} from './withdrawals.service.ts';
import { withdrawalDetail, withdrawalOptions } from './withdrawals-read.service.ts';

// API.md "Withdrawals" and spec 7 "Withdrawal requests" (base /withdrawalrequest).

const idParams = v.object({
  id: v.pipe(v.string(), v.trim(), v.nonEmpty(WITHDRAWAL_MESSAGES.notFound)),
});
const tags = ['withdrawals'];
const moneyResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

/** Web Push: the member hears of the decision once it has committed (not again for a replay). */
function pushNotice(db: Db, outcome: WithdrawalOutcome): void {
  if (outcome.notice && !outcome.replayed)
    void pushToMembers(db, [outcome.notice.memberId], {
      title: outcome.notice.title,
      body: outcome.notice.body,
      url: '/user/withdrawal',
    });
}

export function registerWithdrawalsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const requests = [
    {
      url: '/withdrawalrequest/add',
      kind: 'income',
      body: incomeWithdrawalSchema,
      summary: 'Withdraw income from Income Working to your saved payout address',
    },
    {
      url: '/withdrawalrequest/add/roiwithdrawal',
      kind: 'roi',
      body: roiWithdrawalSchema,
      summary: 'Withdraw the ROI income one of your investments has paid',
    },
    {
      url: '/withdrawalrequest/add/principle',
      kind: 'principal',
      body: principalWithdrawalSchema,
      summary: 'Withdraw the whole principal of one of your matured investments',
    },
    {
      url: '/withdrawalrequest/addcompoundwithdrawal',
      kind: 'compound',
      body: compoundWithdrawalSchema,
      summary: 'Turn Income Working money into a new investment in a plan (compound)',
    },
  ] as const;
  for (const spec of requests) {
    defineRoute(app, {
      method: 'POST',
      url: spec.url,
      summary: `${spec.summary}: needs a code from POST /otp/send (purpose withdrawal); the amount is held at once until an admin decides; accepts an Idempotency-Key header`,
      tags,
      access: 'member',
      body: spec.body,
      responses: { 201: withdrawalResultSchema, ...moneyResponses },
      handler: async ({ body, user, request, reply }) => {
        const input = body as {
          otp: string;
          amount?: number;
          network?: 'bep20' | 'trc20';
          topup_id?: string;
          plan_id?: string;
        };
        const outcome = await requestWithdrawal(
          db,
          user,
          {
            kind: spec.kind,
            otp: input.otp,
            ...(input.amount !== undefined ? { amountCents: input.amount } : {}),
            ...(input.network ? { network: input.network } : {}),
            ...(input.topup_id ? { topupId: input.topup_id } : {}),
            ...(input.plan_id ? { planId: input.plan_id } : {}),
          },
          idempotencyKeyOf(request),
        );
        return reply.status(outcome.statusCode).send(outcome.body);
      },
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/withdrawalrequest/options',
    summary:
      'What you can withdraw: Income Working available, minimum, fee, e-mail verified, payout addresses and when usable, your investments, plans for compound',
    tags,
    access: 'member',
    responses: { 200: withdrawalOptionsSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => withdrawalOptions(db, user),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/withdrawalrequest/list',
    summary:
      'Your withdrawal requests, or every member’s for an admin: pending first, oldest first (the queue), then the decided, newest first; ?status, ?kind, and for an admin ?user_id (one member; a member asking is a 403)',
    tags,
    access: 'signed-in',
    query: withdrawalListQuerySchema,
    responses: {
      200: withdrawalListSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
    },
    handler: async ({ query, user }) => withdrawalList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/withdrawalrequest/by/:id',
    summary:
      'One withdrawal request: your own, or any for an admin with the member’s recent deposits and income',
    tags,
    access: 'signed-in',
    params: idParams,
    responses: { 200: withdrawalDetailSchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => withdrawalDetail(db, user, params.id),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/withdrawalrequest/:id',
    summary:
      'Cancel your own pending request: the held amount is available again; accepts an Idempotency-Key header',
    tags,
    access: 'member',
    params: idParams,
    responses: { 200: withdrawalResultSchema, ...moneyResponses },
    handler: async ({ params, user, request, reply }) => {
      const outcome = await cancelWithdrawal(db, user, params.id, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/withdrawalrequest/compound/amount',
    summary:
      'Change the amount of your own pending compound request (its hold is replaced); accepts an Idempotency-Key header',
    tags,
    access: 'member',
    body: compoundAmountSchema,
    responses: { 200: withdrawalResultSchema, ...moneyResponses },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await changeCompoundAmount(db, user, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/withdrawalrequest/debit',
    summary:
      'Record a payout made to a member outside a request, from Income Working with its fee (admin, audited); accepts an Idempotency-Key header',
    tags: [...tags, 'admin'],
    access: 'admin',
    body: withdrawalDebitSchema,
    responses: { 201: withdrawalResultSchema, ...moneyResponses },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await recordPayout(db, user, body, idempotencyKeyOf(request));
      pushNotice(db, outcome);
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  const decisions: { url: string; kinds?: readonly WithdrawalKind[]; what: string }[] = [
    { url: '/withdrawalrequest/:id', what: 'any withdrawal request' },
    { url: '/withdrawalrequest/update/roi/:id', kinds: ['roi'], what: 'an ROI withdrawal request' },
    {
      url: '/withdrawalrequest/update/principle/:id',
      kinds: ['principal'],
      what: 'a principal withdrawal request',
    },
    { url: '/withdrawalrequest/compound/:id', kinds: ['compound'], what: 'a compound request' },
  ];
  for (const spec of decisions) {
    defineRoute(app, {
      method: 'PUT',
      url: spec.url,
      summary: `Approve (with the payout transaction hash) or reject (with a reason) ${spec.what}, exactly once; the body names its amount and user_id (409 otherwise) (admin, audited); accepts an Idempotency-Key header`,
      tags: [...tags, 'admin'],
      access: 'admin',
      params: idParams,
      body: withdrawalDecisionSchema,
      responses: { 200: withdrawalResultSchema, ...moneyResponses },
      handler: async ({ params, body, user, request, reply }) => {
        const outcome = await decideWithdrawal(
          db,
          user,
          params.id,
          body,
          spec.kinds,
          idempotencyKeyOf(request),
        );
        pushNotice(db, outcome);
        return reply.status(outcome.statusCode).send(outcome.body);
      },
    });
  }
}
