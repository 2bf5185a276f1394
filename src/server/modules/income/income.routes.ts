import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  incomeOverviewQuerySchema,
  incomeOverviewSchema,
  incomeRunListQuerySchema,
  incomeRunListSchema,
  incomeRunResultSchema,
  incomeRunSchema,
  incomeSummarySchema,
} from '../../../shared/income.ts';
import type { IncomeConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { type IncomeRunObserver, runIncomeByAdmin } from './income.service.ts';
import { incomeOverview, incomeRuns, incomeSummary } from './income-read.service.ts';

export function registerIncomeRoutes(
  app: FastifyInstance,
  { db, income }: { db: Db; income: IncomeConfig & { onRunFinished?: IncomeRunObserver } },
): void {
  defineRoute(app, {
    method: 'POST',
    url: '/income/run',
    summary:
      'Pay the daily income (ROI and level income) of one UTC date, default yesterday; a date already paid pays nothing and answers zeros; 409 while another server is paying it (admin)',
    tags: ['income'],
    access: 'admin',
    body: incomeRunSchema,
    responses: {
      200: incomeRunResultSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      409: errorBodySchema,
    },
    handler: async ({ body, user }) => runIncomeByAdmin(db, user.user.id, body.date, income),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/income/runs',
    summary:
      "Each date's income run, newest date first: status, investments paid, ROI and level totals, duration, trigger (schedule, admin or catch_up), who started it, attempts and the error of a failed run (admin)",
    tags: ['income'],
    access: 'admin',
    query: incomeRunListQuerySchema,
    responses: { 200: incomeRunListSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ query, user }) => incomeRuns(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/income/overview',
    summary:
      'Income paid (ROI, activation and level income) against deposits received, from the ledger: in all and per UTC month, newest first (admin)',
    tags: ['income'],
    access: 'admin',
    query: incomeOverviewQuerySchema,
    responses: {
      200: incomeOverviewSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
    },
    handler: async ({ query, user }) => incomeOverview(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/income/summary',
    summary:
      "The signed-in member's own income by kind today, this month and in all (by the UTC date it reached Income Working), the last 30 days, and each investment with its ROI paid, days left and progress to its income cap (the cap in force when it was bought)",
    tags: ['income'],
    access: 'member',
    responses: { 200: incomeSummarySchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => incomeSummary(db, user),
  });
}
