import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  PUSH_MESSAGES,
  pushKeySchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from '../../../shared/push.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { publicVapidKey, removeSubscription, saveSubscription } from './push.service.ts';

const tags = ['push'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const messageSchema = v.object({ message: v.string() });

export function registerPushRoutes(api: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(api, {
    method: 'GET',
    url: '/push/key',
    summary: "The server's public VAPID key (applicationServerKey for PushManager.subscribe)",
    tags,
    access: 'signed-in',
    responses: { 200: pushKeySchema, 401: errorBodySchema },
    handler: async () => ({ publicKey: publicVapidKey(db) }),
  });

  defineRoute(api, {
    method: 'POST',
    url: '/push/subscriptions',
    summary:
      "Store or refresh this device's push subscription (member; PushSubscription.toJSON()); a known push service's endpoint only, 409 when another member has it, at most 10 per member (the oldest goes)",
    tags,
    access: 'member',
    body: pushSubscriptionSchema,
    responses: { 201: messageSchema, ...errors, 409: errorBodySchema },
    handler: async ({ body, user, request, reply }) => {
      await saveSubscription(db, user, body, request.headers['user-agent']);
      return reply.status(201).send({ message: PUSH_MESSAGES.subscribed });
    },
  });

  defineRoute(api, {
    method: 'DELETE',
    url: '/push/subscriptions',
    summary: 'Remove one of your push subscriptions, by endpoint (member)',
    tags,
    access: 'member',
    body: pushUnsubscribeSchema,
    responses: { 200: messageSchema, ...errors },
    handler: async ({ body, user }) => {
      await removeSubscription(db, user, body.endpoint);
      return { message: PUSH_MESSAGES.unsubscribed };
    },
  });
}
