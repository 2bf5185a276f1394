import type { FastifyInstance } from 'fastify';
import { disclosureSchema } from '../../../shared/disclosure.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { incomeDisclosure } from './disclosure.service.ts';

export function registerDisclosureRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/public/income-disclosure',
    summary:
      'Public: how many members earned how much income in the last 30 whole UTC days (in bands, nothing included), the median, income paid and deposits received; computed from the ledger once a day',
    tags: ['public'],
    access: 'public',
    responses: { 200: disclosureSchema },
    handler: async () => incomeDisclosure(db),
  });
}
