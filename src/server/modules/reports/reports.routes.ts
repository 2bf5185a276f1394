import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import { reportExportQuerySchema, reportQuerySchema, reportsSchema } from '../../../shared/reports.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { reportCsvStream, reportFileName, reportsFor } from './reports.service.ts';

const adminErrors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

export function registerReportsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/admin/reports',
    summary:
      'Deposits, withdrawals paid, income paid by kind, transfers, new and activated members, and income against deposits for a period of UTC days (from, to included), per day or month, every bucket present (admin)',
    tags: ['reports', 'admin'],
    access: 'admin',
    query: reportQuerySchema,
    responses: { 200: reportsSchema, ...adminErrors },
    handler: async ({ query, user }) => reportsFor(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/admin/reports/export',
    summary:
      'One report of GET /admin/reports as a CSV file: the same rows and figures as its table, with a totals row (admin)',
    tags: ['reports', 'admin'],
    access: 'admin',
    query: reportExportQuerySchema,
    responses: adminErrors,
    handler: async ({ query, user, reply }) => {
      const stream = await reportCsvStream(db, user, query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${reportFileName(query)}"`)
        .send(stream);
    },
  });
}
