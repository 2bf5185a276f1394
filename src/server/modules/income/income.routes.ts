import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { incomeRunResultSchema, incomeRunSchema } from '../../../shared/income.ts';
import type { IncomeConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { runIncomeByAdmin } from './income.service.ts';

export function registerIncomeRoutes(
  app: FastifyInstance,
  { db, income }: { db: Db; income: IncomeConfig },
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
}
