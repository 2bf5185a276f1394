import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  SALARY_MESSAGES,
  salaryDashboardSchema,
  salaryPageOf,
  salaryPageQuerySchema,
  salaryPaymentSchema,
  salaryRunResultSchema,
  salaryRunSchema,
  salaryTierOutSchema,
  salaryTierSchema,
  salaryTierStatSchema,
  salaryTierUpdateSchema,
  salaryTodayStatsSchema,
  userSalarySchema,
} from '../../../shared/salary.ts';
import type { SalaryConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import {
  changeSalaryTier,
  createSalaryTier,
  removeSalaryTier,
  salaryDashboard,
  salaryTierStats,
  salaryTiers,
  salaryTodayStats,
  salaryTransactions,
  userSalaries,
  userSalaryHistory,
} from './salary.service.ts';
import { runSalaryByAdmin } from './salary-run.service.ts';

// Spec 7 "Salary" (its six reads, exact paths) and the tier and run calls the spec leaves open
// (docs/api.md "Salary"). Running a month moves money, so it is a POST (with CSRF).

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};
const idParams = v.object({ id: v.pipe(v.string(), v.trim(), v.nonEmpty(SALARY_MESSAGES.notFound)) });
const tierAnswer = v.object({ message: v.string(), tier: salaryTierOutSchema });

export function registerSalaryRoutes(
  app: FastifyInstance,
  { db, salary, nextRun }: { db: Db; salary: SalaryConfig; nextRun: () => Date | null },
): void {
  const tags = ['salary'];
  const adminTags = ['salary', 'admin'];

  defineRoute(app, {
    method: 'GET',
    url: '/salary/tiers',
    summary: 'The salary tiers: name, new team business in a month, active direct members, amount',
    tags,
    access: 'signed-in',
    responses: { 200: v.object({ tiers: v.array(salaryTierOutSchema) }), 401: errorBodySchema },
    handler: async () => salaryTiers(db),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/salary/tiers',
    summary: 'Add a salary tier (admin, audited)',
    tags: adminTags,
    access: 'admin',
    body: salaryTierSchema,
    responses: { 201: tierAnswer, ...errors },
    handler: async ({ body, user, reply }) => reply.status(201).send(await createSalaryTier(db, user, body)),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/salary/tiers/:id',
    summary:
      'Change a salary tier (admin, audited); payments made keep the name and amount they were paid at',
    tags: adminTags,
    access: 'admin',
    params: idParams,
    body: salaryTierUpdateSchema,
    responses: { 200: tierAnswer, ...errors },
    handler: async ({ params, body, user }) => changeSalaryTier(db, user, params.id, body),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/salary/tiers/:id',
    summary: 'Delete a salary tier nobody was paid at (admin, audited); one with payments is a 409',
    tags: adminTags,
    access: 'admin',
    params: idParams,
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, user }) => removeSalaryTier(db, user, params.id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/salary/run',
    summary:
      "Pay an ended month's salaries now (admin, audited; default last month); a repeat, even a concurrent one, pays nothing more",
    tags: adminTags,
    access: 'admin',
    body: salaryRunSchema,
    responses: { 200: salaryRunResultSchema, ...errors },
    handler: async ({ body, user }) => runSalaryByAdmin(db, user, body.month, salary),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/salary/user-salaries',
    summary:
      'Members paid a salary, one row each: months paid, total, last month (admin; ?page&limit&month&search)',
    tags: adminTags,
    access: 'admin',
    query: salaryPageQuerySchema,
    responses: { 200: salaryPageOf(userSalarySchema), ...errors },
    handler: async ({ query, user }) => userSalaries(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/salary/transactions',
    summary: 'Every salary payment, newest month first (admin; ?page&limit&month&search)',
    tags: adminTags,
    access: 'admin',
    query: salaryPageQuerySchema,
    responses: { 200: salaryPageOf(salaryPaymentSchema), ...errors },
    handler: async ({ query, user }) => salaryTransactions(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/salary/today-stats',
    summary: 'Salaries paid today, and the members qualifying for the month under way so far (admin)',
    tags: adminTags,
    access: 'admin',
    responses: { 200: salaryTodayStatsSchema, ...errors },
    handler: async ({ user }) => salaryTodayStats(db, user),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/salary/user-history/:userId',
    summary:
      "A member's salaries, newest month first (your own, or anyone's for an admin; ?page&limit&month)",
    tags,
    access: 'signed-in',
    params: v.object({ userId: v.pipe(v.string(), v.trim(), v.nonEmpty(SALARY_MESSAGES.memberNotFound)) }),
    query: salaryPageQuerySchema,
    responses: { 200: salaryPageOf(salaryPaymentSchema), ...errors },
    handler: async ({ params, query, user }) => userSalaryHistory(db, user, params.userId, query),
  });

  // The spec's client built this path without its slash; the alias answers it the same.
  for (const url of ['/salary/tier-stats', '/salarytier-stats'])
    defineRoute(app, {
      method: 'GET',
      url,
      summary: 'Each salary tier with the members paid at it and the total (admin)',
      tags: adminTags,
      access: 'admin',
      responses: { 200: v.object({ tiers: v.array(salaryTierStatSchema) }), ...errors },
      handler: async ({ user }) => salaryTierStats(db, user),
    });

  defineRoute(app, {
    method: 'GET',
    url: '/salary/admin-dashboard',
    summary: 'Salary totals by month, the last run and the next scheduled one (admin)',
    tags: adminTags,
    access: 'admin',
    responses: { 200: salaryDashboardSchema, ...errors },
    handler: async ({ user }) => salaryDashboard(db, user, nextRun),
  });
}
