import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  NEWS_MESSAGES,
  newsInputSchema,
  newsListQuerySchema,
  newsSchema,
  newsUpdateSchema,
} from '../../../shared/news.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { defineAdminImageUpload } from '../uploads/uploads.routes.ts';
import { addNews, changeNews, listNews, readNews, removeNews } from './news.service.ts';

// Spec 7 "News". A picture is uploaded first (POST /news/images, multipart) and the add or change
// names it, as the achievers' photos are.

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const idParams = v.object({ id: v.pipe(v.string(), v.nonEmpty(NEWS_MESSAGES.notFound)) });
const newsAnswer = v.object({ message: v.string(), news: newsSchema });

export function registerNewsRoutes(app: FastifyInstance, { db, dataDir }: { db: Db; dataDir: string }): void {
  const tags = ['news'];
  const adminTags = [...tags, 'admin'];

  defineAdminImageUpload(
    app,
    { db, dataDir },
    {
      url: '/news/images',
      what: 'a news picture',
      purpose: 'news',
      tags: adminTags,
    },
  );

  defineRoute(app, {
    method: 'POST',
    url: '/news/add',
    summary: 'Write news: title, body, optional picture; a draft unless published is true (admin, audited)',
    tags: adminTags,
    access: 'admin',
    body: newsInputSchema,
    responses: { 201: newsAnswer, ...errors },
    handler: async ({ body, user, reply }) => reply.status(201).send(await addNews(db, user, body)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/news/list',
    summary: 'News, newest first (members: published only; admins: drafts too); limit 1-100, default 100',
    tags,
    access: 'signed-in',
    query: newsListQuerySchema,
    responses: { 200: v.object({ news: v.array(newsSchema) }), 400: errorBodySchema, 401: errorBodySchema },
    handler: async ({ query, user }) => listNews(db, user, query.limit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/news/:id',
    summary: 'One news item (a draft is a 404 to a member)',
    tags,
    access: 'signed-in',
    params: idParams,
    responses: { 200: v.object({ news: newsSchema }), ...errors },
    handler: async ({ params, user }) => readNews(db, user, params.id),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/news/:id',
    summary:
      'Change, publish (published: true) or unpublish news; image null removes the picture (admin, audited)',
    tags: adminTags,
    access: 'admin',
    params: idParams,
    body: newsUpdateSchema,
    responses: { 200: newsAnswer, ...errors },
    handler: async ({ params, body, user }) => changeNews(db, user, params.id, body),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/news/:id',
    summary: 'Delete news (admin, audited)',
    tags: adminTags,
    access: 'admin',
    params: idParams,
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, user }) => removeNews(db, user, params.id),
  });
}
