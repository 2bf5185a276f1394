import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';
import { findUpload } from './uploads.repository.ts';
import {
  readImageField,
  STORED_NAME,
  storeImage,
  type UploadPurpose,
  uploadsDirOf,
} from './uploads.service.ts';

// Serves stored images to signed-in people only: a banner to anyone signed in, a ticket image to its
// owner and admins (anyone else gets the same 404 as for a name that does not exist). The content
// type is ours (every stored file is WebP we encoded), never sniffed.

export async function registerUploadsRoutes(
  api: FastifyInstance,
  deps: { db: Db; dataDir: string },
): Promise<void> {
  await api.register(async (scope) => {
    // Runs after the app-wide no-store hook: an image the person may see can stay in their own cache.
    scope.addHook('onSend', async (_request, reply) => {
      if (reply.statusCode === 200) reply.header('cache-control', 'private, max-age=86400');
    });
    registerRoute(scope, deps);
  });
}

function registerRoute(api: FastifyInstance, deps: { db: Db; dataDir: string }): void {
  defineRoute(api, {
    method: 'GET',
    url: '/uploads/:name',
    summary: 'A stored image (banner, ticket image, deposit screenshot, achiever photo, news picture)',
    tags: ['uploads'],
    access: 'signed-in',
    params: v.object({ name: v.string() }),
    handler: async ({ params, user, reply }) => {
      if (!STORED_NAME.test(params.name)) throw notFound();
      const upload = await findUpload(deps.db, params.name);
      if (!upload) throw notFound();
      // A banner, an achiever's photo and a news picture are for everyone signed in; the others for
      // their owner and admins.
      const open = upload.purpose === 'banner' || upload.purpose === 'achiever' || upload.purpose === 'news';
      if (!open && user.user.role !== 'admin' && upload.owner_id !== user.user.id) throw notFound();
      let bytes: Buffer;
      try {
        bytes = await readFile(join(uploadsDirOf(deps.dataDir), upload.name));
      } catch {
        throw notFound();
      }
      return reply
        .header('content-type', upload.content_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="${upload.name}"`)
        .send(bytes);
    },
  });
}

/**
 * POST `url` (admin): one picture for what the admin is writing (an achiever's photo, a news item's
 * picture), re-encoded and stored like every upload; answers the name to send with the record.
 */
export function defineAdminImageUpload(
  app: FastifyInstance,
  { db, dataDir }: { db: Db; dataDir: string },
  options: { url: string; what: string; purpose: UploadPurpose; tags: string[] },
): void {
  defineRoute(app, {
    method: 'POST',
    url: options.url,
    summary: `Upload ${options.what} (multipart field "image": PNG, JPEG or WebP, at most 5 MB); answers the name to send as "image" (admin)`,
    tags: options.tags,
    access: 'admin',
    responses: {
      201: v.object({ image: v.object({ name: v.string(), url: v.string() }) }),
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      413: errorBodySchema,
    },
    handler: async ({ user, request, reply }) => {
      const bytes = await readImageField(request, 'image');
      const image = await storeImage(db, dataDir, { bytes, ownerId: user.user.id, purpose: options.purpose });
      return reply.status(201).send({ image: { name: image.name, url: image.url } });
    },
  });
}
