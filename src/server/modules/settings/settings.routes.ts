import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  publicSettingsSchema,
  SETTINGS_MESSAGES,
  settingsAnswerSchema,
  settingsSavedSchema,
  settingsUpdateSchema,
} from '../../../shared/settings.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { readSettings, updateSettings } from './settings.service.ts';

// API.md "Settings": GET and PUT /settings (admin); GET /settings/public, what every visitor may know.

export function registerSettingsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/settings/public',
    summary:
      "The site's name and its support e-mail ('' when none is set): the two settings anyone may read, shown beside members' support tickets",
    tags: ['settings'],
    access: 'public',
    responses: { 200: publicSettingsSchema },
    handler: async () => {
      const { site_name, support_email } = await readSettings(db);
      return { site_name, support_email };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/settings',
    summary:
      'The settings admins change (admin): money and percents as decimal strings with 2 decimals, flags as booleans; a name never changed has its default',
    tags: ['settings', 'admin'],
    access: 'admin',
    responses: { 200: settingsAnswerSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async () => ({ settings: await readSettings(db) }),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/settings',
    summary:
      'Change some settings (admin); an unknown name or a bad value is a 400 and changes nothing; takes effect at once on every server process; audited with before and after',
    tags: ['settings', 'admin'],
    access: 'admin',
    body: settingsUpdateSchema,
    responses: {
      200: settingsSavedSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      422: errorBodySchema,
    },
    handler: async ({ body, user }) => ({
      message: SETTINGS_MESSAGES.saved,
      settings: await updateSettings(db, user.user, body),
    }),
  });
}
