import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  actPlanInputSchema,
  actPlanListSchema,
  actPlanUpdateSchema,
  levelPercentsInputSchema,
  levelPercentsResultSchema,
  levelSettingsSchema,
  planDeleteResultSchema,
  planIdParamsSchema,
  planInputSchema,
  planListSchema,
  planResultSchema,
  planSchema,
  planUpdateSchema,
} from '../../../shared/plans.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import {
  changePlan,
  createPlan,
  levelSettings,
  planFor,
  plansFor,
  removePlan,
  setLevelPercents,
} from './plans.service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function registerPlansRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  // Plans (spec 7 "Plans") and activation plans (spec 7 "Activation plans") share one shape; an
  // activation plan's `amount` is its fixed price (its minimum and maximum).
  for (const kind of ['plan', 'activation'] as const) {
    const base = kind === 'plan' ? '/plans' : '/actplan';
    const what = kind === 'plan' ? 'plan' : 'activation plan (a fixed-price package)';
    const tags = ['plans'];

    defineRoute(app, {
      method: 'POST',
      url: `${base}/add`,
      summary: `Create a ${what} (admin, audited)`,
      tags: [...tags, 'admin'],
      access: 'admin',
      body: kind === 'plan' ? planInputSchema : actPlanInputSchema,
      responses: { 201: planResultSchema, ...errors },
      handler: async ({ body, user, reply }) =>
        reply.status(201).send(await createPlan(db, user, kind, body)),
    });

    defineRoute(app, {
      method: 'GET',
      url: `${base}/list`,
      summary: `Every ${what}; members see active ones only`,
      tags,
      access: 'signed-in',
      responses: { 200: kind === 'plan' ? planListSchema : actPlanListSchema, 401: errorBodySchema },
      handler: async ({ user }) => {
        const plans = await plansFor(db, user, kind);
        return kind === 'plan' ? { plans } : { actplans: plans };
      },
    });

    defineRoute(app, {
      method: 'GET',
      url: `${base}/:id`,
      summary: `One ${what}; an inactive one is a 404 for members`,
      tags,
      access: 'signed-in',
      params: planIdParamsSchema,
      responses: { 200: planSchema, 401: errorBodySchema, 404: errorBodySchema },
      handler: async ({ params, user }) => planFor(db, user, kind, params.id),
    });

    defineRoute(app, {
      method: 'PUT',
      url: `${base}/:id`,
      summary: `Change any fields of a ${what} (admin, audited); investments already made keep their rate and duration`,
      tags: [...tags, 'admin'],
      access: 'admin',
      params: planIdParamsSchema,
      body: kind === 'plan' ? planUpdateSchema : actPlanUpdateSchema,
      responses: { 200: planResultSchema, ...errors },
      handler: async ({ params, body, user }) => changePlan(db, user, kind, params.id, body),
    });

    defineRoute(app, {
      method: 'DELETE',
      url: `${base}/:id`,
      summary: `Delete a ${what} nobody bought; one with investments is made inactive instead (admin, audited)`,
      tags: [...tags, 'admin'],
      access: 'admin',
      params: planIdParamsSchema,
      responses: { 200: planDeleteResultSchema, ...errors },
      handler: async ({ params, user }) => removePlan(db, user, kind, params.id),
    });
  }

  for (const which of ['active', 'invest'] as const) {
    defineRoute(app, {
      method: 'POST',
      url: `/plans/add${which}level`,
      summary:
        which === 'active'
          ? 'Replace the activation income percents, level 1 first (admin, audited)'
          : 'Replace the ROI level income percents, level 1 first (admin, audited)',
      tags: ['plans', 'admin'],
      access: 'admin',
      body: levelPercentsInputSchema,
      responses: { 200: levelPercentsResultSchema, ...errors },
      handler: async ({ body, user }) => setLevelPercents(db, user, which, body.percents),
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/plans/levels',
    summary: 'The activation income percents and the ROI level income percents, level 1 first (admin)',
    tags: ['plans', 'admin'],
    access: 'admin',
    responses: { 200: levelSettingsSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async () => levelSettings(db),
  });
}
