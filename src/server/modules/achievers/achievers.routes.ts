import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { ACHIEVER_MESSAGES, achieverInputSchema, achieverSchema } from '../../../shared/achievers.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { defineAdminImageUpload } from '../uploads/uploads.routes.ts';
import { addAchiever, listAchievers, removeAchiever } from './achievers.service.ts';

// Spec 7 "Achievers" (the spec's spelling of the path is kept). The photo is uploaded first
// (POST /achivers/images, multipart) and the add names it, as the deposit screenshots do.

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function registerAchieversRoutes(
  app: FastifyInstance,
  { db, dataDir }: { db: Db; dataDir: string },
): void {
  const tags = ['achievers'];

  defineAdminImageUpload(
    app,
    { db, dataDir },
    {
      url: '/achivers/images',
      what: 'an achiever photo',
      purpose: 'achiever',
      tags: [...tags, 'admin'],
    },
  );

  defineRoute(app, {
    method: 'POST',
    url: '/achivers/add',
    summary: 'Add an achiever to the gallery: name, rank and an uploaded photo (admin, audited)',
    tags: [...tags, 'admin'],
    access: 'admin',
    body: achieverInputSchema,
    responses: { 201: v.object({ message: v.string(), achiever: achieverSchema }), ...errors },
    handler: async ({ body, user, reply }) => reply.status(201).send(await addAchiever(db, user, body)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/achivers/list',
    summary: 'The achievers gallery, newest first',
    tags,
    access: 'signed-in',
    responses: { 200: v.object({ achievers: v.array(achieverSchema) }), 401: errorBodySchema },
    handler: async () => listAchievers(db),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/achivers/:id',
    summary: 'Remove an achiever from the gallery (admin, audited)',
    tags: [...tags, 'admin'],
    access: 'admin',
    params: v.object({ id: v.pipe(v.string(), v.nonEmpty(ACHIEVER_MESSAGES.notFound)) }),
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, user }) => removeAchiever(db, user, params.id),
  });
}
