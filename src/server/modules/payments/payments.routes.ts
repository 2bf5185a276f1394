import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  adminPaymentListSchema,
  adminPaymentQuerySchema,
  createPaymentSchema,
  currenciesSchema,
  manualCreditSchema,
  minAmountParamsSchema,
  minAmountSchema,
  paymentIdParamsSchema,
  paymentListSchema,
  paymentSchema,
  sandboxPaySchema,
} from '../../../shared/payments.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import {
  allPayments,
  createPayment,
  currencies,
  handleIpn,
  manualCredit,
  minAmount,
  myPayments,
  type PaymentsDeps,
  paymentStatus,
  sandboxPay,
} from './payments.service.ts';

// API.md "Crypto payments": base /api/v1/payments.
export function registerPaymentsRoutes(app: FastifyInstance, deps: PaymentsDeps): void {
  const tags = ['payments'];

  defineRoute(app, {
    method: 'GET',
    url: '/payments/currencies',
    summary: "The provider's currencies (the app offers only usdtbsc)",
    tags,
    access: 'signed-in',
    responses: { 200: currenciesSchema, 502: errorBodySchema },
    handler: async () => currencies(deps),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/payments/min-amount/:from/:to',
    summary: 'The smallest payment the provider accepts for the currency pair',
    tags,
    access: 'signed-in',
    params: minAmountParamsSchema,
    responses: { 200: minAmountSchema, 502: errorBodySchema },
    handler: async ({ params }) => minAmount(deps, params.from, params.to),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/payments/create-payment',
    summary:
      "A BEP20 USDT invoice for the session's member (the body's id is ignored); accepts an Idempotency-Key header",
    tags,
    access: 'member',
    body: createPaymentSchema,
    responses: { 201: paymentSchema, 400: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await createPayment(deps, user, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/payments/payment-status/:payment_id',
    summary: "A payment's status, asked again from the provider while it is open; only your own",
    tags,
    access: 'signed-in',
    params: paymentIdParamsSchema,
    responses: { 200: paymentSchema, 404: errorBodySchema },
    handler: async ({ params, user }) => paymentStatus(deps, user, params.payment_id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/payments/ipn',
    summary:
      "NOWPayments' callback, verified with x-nowpayments-sig (HMAC-SHA512 of the key-sorted JSON body); the status is then re-read from the provider",
    tags,
    access: 'public',
    body: v.record(v.string(), v.unknown()),
    responses: { 200: v.object({ message: v.string() }), 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ body, request }) => handleIpn(deps, body, request.headers['x-nowpayments-sig']),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/payments/sandbox/:payment_id/pay',
    summary:
      'Sandbox only: simulate the payer sending the full pay_amount (or less: partially_paid); 404 with another provider',
    tags,
    access: 'member',
    params: paymentIdParamsSchema,
    body: sandboxPaySchema,
    responses: { 200: paymentSchema, 404: errorBodySchema, 409: errorBodySchema },
    handler: async ({ params, body, user }) => sandboxPay(deps, user, params.payment_id, body.amount),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/payments/mine',
    summary: "The signed-in member's crypto payments, newest first (deposit history)",
    tags,
    access: 'member',
    responses: { 200: paymentListSchema },
    handler: async ({ user }) => myPayments(deps, user),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/payments/all',
    summary: 'Every crypto payment with its member and credit, newest first, by status and page (admin)',
    tags: [...tags, 'admin'],
    access: 'admin',
    query: adminPaymentQuerySchema,
    responses: { 200: adminPaymentListSchema, 400: errorBodySchema },
    handler: async ({ query, user }) => allPayments(deps, user, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/payments/:payment_id/manual-credit',
    summary:
      "Credit a partially paid payment by hand to the member's Active Wallet, once, with a reason (admin, audited); accepts an Idempotency-Key header",
    tags: [...tags, 'admin'],
    access: 'admin',
    params: paymentIdParamsSchema,
    body: manualCreditSchema,
    responses: {
      201: v.object({ message: v.string(), payment: paymentSchema }),
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await manualCredit(deps, user, params.payment_id, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });
}
