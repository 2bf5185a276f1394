import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  adminNotificationSchema,
  bannerSchema,
  createNotificationSchema,
  markSeenSchema,
  memberNotificationSchema,
  NOTIFICATION_MESSAGES,
  notificationIdParamsSchema,
  notificationsHomeSchema,
  recipientCandidateSchema,
  recipientSearchQuerySchema,
} from '../../../shared/notifications.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { pushToAllMembers, pushToMembers } from '../push/push.service.ts';
import { readImageField } from '../uploads/uploads.service.ts';
import {
  createNotification,
  currentBanner,
  listMyNotifications,
  listNotificationsForAdmin,
  listNotificationsOfUser,
  markNotificationSeen,
  notificationsHome,
  removeNotification,
  searchRecipients,
  uploadBanner,
} from './notifications.service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const memberList = v.object({ notifications: v.array(memberNotificationSchema) });
const tags = ['notifications'];

export function registerNotificationsRoutes(api: FastifyInstance, deps: { db: Db; dataDir: string }): void {
  const { db } = deps;

  defineRoute(api, {
    method: 'POST',
    url: '/notifications',
    summary: 'Send a notification to all members or to chosen members (admin)',
    tags,
    access: 'admin',
    body: createNotificationSchema,
    responses: {
      201: v.object({ message: v.string(), notification: adminNotificationSchema }),
      ...errors,
    },
    handler: async ({ body, user, reply }) => {
      const notification = await createNotification(db, user, body);
      // Web Push (issue 6): the notification has committed; sent in the background, never failing this call.
      const push = { title: notification.title, body: notification.message, url: '/user/notifications' };
      void (notification.users
        ? pushToAllMembers(db, push)
        : pushToMembers(db, notification.recipients, push));
      return reply.status(201).send({ message: NOTIFICATION_MESSAGES.created, notification });
    },
  });

  defineRoute(api, {
    method: 'POST',
    url: '/notifications/banner',
    summary:
      'Upload the member dashboard banner (admin; multipart, field image; PNG, JPEG or WebP, at most 5 MB and 40 megapixels)',
    tags,
    access: 'admin',
    responses: {
      201: v.object({ message: v.string(), banner: bannerSchema }),
      413: errorBodySchema,
      ...errors,
    },
    handler: async ({ user, request, reply }) => {
      const bytes = await readImageField(request, 'image');
      const banner = await uploadBanner(db, deps.dataDir, user, bytes);
      return reply.status(201).send({ message: NOTIFICATION_MESSAGES.bannerCreated, banner });
    },
  });

  defineRoute(api, {
    method: 'GET',
    url: '/notifications/banner',
    summary: 'The current banner (the newest uploaded), or null',
    tags,
    access: 'signed-in',
    responses: { 200: v.object({ banner: v.nullable(bannerSchema) }), 401: errorBodySchema },
    handler: async () => ({ banner: await currentBanner(db) }),
  });

  defineRoute(api, {
    method: 'GET',
    url: '/notifications',
    summary: 'Admin: every notification, newest first. Member: your own, newest first, with seen and seen_at',
    tags,
    access: 'signed-in',
    responses: {
      200: v.object({
        notifications: v.union([v.array(adminNotificationSchema), v.array(memberNotificationSchema)]),
      }),
      401: errorBodySchema,
    },
    handler: async ({ user }) => ({
      notifications:
        user.user.role === 'admin'
          ? await listNotificationsForAdmin(db)
          : await listMyNotifications(db, user),
    }),
  });

  defineRoute(api, {
    method: 'GET',
    url: '/notifications/home',
    summary: "The signed-in member's unread count and the site pop-ups not seen yet (newest first)",
    tags,
    access: 'member',
    responses: { 200: notificationsHomeSchema, 401: errorBodySchema, 403: errorBodySchema },
    offlineCopy: true,
    handler: async ({ user }) => notificationsHome(db, user),
  });

  defineRoute(api, {
    method: 'GET',
    url: '/notifications/users',
    summary: 'Members whose e-mail contains the text, any case (admin; the create form\u2019s user search)',
    tags,
    access: 'admin',
    query: recipientSearchQuerySchema,
    responses: { 200: v.object({ users: v.array(recipientCandidateSchema) }), ...errors },
    handler: async ({ query }) => ({ users: await searchRecipients(db, query.email) }),
  });

  defineRoute(api, {
    method: 'GET',
    url: '/notifications/user/:id',
    summary:
      "A member's notifications, newest first, with seen and seen_at (your own, or any member's for an admin)",
    tags,
    access: 'signed-in',
    params: notificationIdParamsSchema,
    responses: { 200: memberList, ...errors },
    offlineCopy: true,
    handler: async ({ params, user }) => ({
      notifications: await listNotificationsOfUser(db, user, params.id),
    }),
  });

  defineRoute(api, {
    method: 'PUT',
    url: '/notifications/:id/seen',
    summary: 'Mark one of your notifications seen (member); seen_at keeps the first time',
    tags,
    access: 'member',
    params: notificationIdParamsSchema,
    body: markSeenSchema,
    responses: {
      200: v.object({ message: v.string(), notification: memberNotificationSchema }),
      ...errors,
    },
    handler: async ({ params, body, user }) => ({
      message: NOTIFICATION_MESSAGES.markedSeen,
      notification: await markNotificationSeen(db, user, params.id, body.userId),
    }),
  });

  defineRoute(api, {
    method: 'DELETE',
    url: '/notifications/delete/:id',
    summary: 'Delete a notification for everyone (admin)',
    tags,
    access: 'admin',
    params: notificationIdParamsSchema,
    responses: { 200: v.object({ message: v.string() }), ...errors },
    handler: async ({ params, user }) => {
      await removeNotification(db, user, params.id);
      return { message: NOTIFICATION_MESSAGES.deleted };
    },
  });
}
