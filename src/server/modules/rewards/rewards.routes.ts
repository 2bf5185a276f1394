import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  carryForwardSchema,
  memberRewardRowsSchema,
  memberRewardsSchema,
  rewardClaimRowSchema,
  rewardClaimSchema,
  rewardIdParamsSchema,
  rewardInitializeSchema,
  rewardPlanSchema,
  rewardPlanUpdateSchema,
  rewardReminderResultSchema,
  rewardReminderSchema,
  rewardSchema,
  unclaimedRewardsSchema,
} from '../../../shared/rewards.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { membersAndRewards, sendRewardReminders, unclaimedRewards } from './reward-reminders.service.ts';
import {
  carryForward,
  changeRewardPlan,
  claimReward,
  createRewardPlan,
  memberRewards,
  removeRewardPlan,
  rewardClaims,
  rewardPlans,
} from './rewards.service.ts';

// API.md "Team and rewards" and spec 7 "Rewards". A claim moves money, so it is a POST (with CSRF);
// the spec's GET /rewards/user/claim/{id} only shows what can be claimed (RULES.md).

const messageSchema = v.object({ message: v.string() });
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

export function registerRewardsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const tags = ['rewards'];

  defineRoute(app, {
    method: 'GET',
    url: '/rewards',
    summary: 'The reward ladder: rank, team business needed, reward, by business needed',
    tags,
    access: 'signed-in',
    responses: { 200: v.object({ rewards: v.array(rewardSchema) }), 401: errorBodySchema },
    handler: async () => rewardPlans(db),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/rewards',
    summary: 'Add a reward plan (admin, audited)',
    tags: [...tags, 'admin'],
    access: 'admin',
    body: rewardPlanSchema,
    responses: { 201: v.object({ message: v.string(), reward: rewardSchema }), ...errors },
    handler: async ({ body, user, reply }) => {
      const outcome = await createRewardPlan(db, user, body);
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/rewards/:id',
    summary: 'Change a reward plan (admin, audited)',
    tags: [...tags, 'admin'],
    access: 'admin',
    params: rewardIdParamsSchema,
    body: rewardPlanUpdateSchema,
    responses: { 200: v.object({ message: v.string(), reward: rewardSchema }), ...errors },
    handler: async ({ params, body, user }) => changeRewardPlan(db, user, params.id, body),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/rewards/:id',
    summary: 'Delete a reward plan nobody has claimed (admin, audited); a claimed one is a 409',
    tags: [...tags, 'admin'],
    access: 'admin',
    params: rewardIdParamsSchema,
    responses: { 200: messageSchema, ...errors },
    handler: async ({ params, user }) => removeRewardPlan(db, user, params.id),
  });

  for (const url of ['/rewards/user/:id', '/rewards/user/claim/:id']) {
    defineRoute(app, {
      method: 'GET',
      url,
      summary:
        "The ladder as a member stands on it: team business, each reward reached and claimed or not, the next one (your own, or anyone's for an admin); moves nothing",
      tags,
      access: 'signed-in',
      params: rewardIdParamsSchema,
      responses: { 200: memberRewardsSchema, 401: errorBodySchema, 404: errorBodySchema },
      handler: async ({ params, user }) => memberRewards(db, user, params.id),
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/rewards/user/business/:id',
    summary: "A member's team business (your own, or anyone's for an admin)",
    tags,
    access: 'signed-in',
    params: rewardIdParamsSchema,
    responses: { 200: v.object({ team_business: v.string() }), 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => ({
      team_business: (await memberRewards(db, user, params.id)).team_business,
    }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/rewards/user/claim/:id',
    summary:
      'Claim a reached reward into Income Working, once per reward and member (a second claim is a 409); accepts an Idempotency-Key header',
    tags,
    access: 'member',
    params: rewardIdParamsSchema,
    body: rewardClaimSchema,
    responses: { 201: messageSchema, ...errors },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await claimReward(db, user, params.id, body.reward_id, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/rewards/carry-forward/:id',
    summary:
      "The team business beyond the member's last reached reward, carried toward the next one (your own, or anyone's for an admin). The ladder is cumulative, so the carry is always applied: this moves no money and changes nothing; 422 before the first reward and after the last",
    tags,
    access: 'signed-in',
    params: rewardIdParamsSchema,
    responses: { 200: v.object({ message: v.string(), carry_forward: carryForwardSchema }), ...errors },
    handler: async ({ params, user }) => carryForward(db, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/rewards/claims',
    summary: 'Every reward claim, newest first (admin)',
    tags: [...tags, 'admin'],
    access: 'admin',
    responses: {
      200: v.object({ claims: v.array(rewardClaimRowSchema) }),
      401: errorBodySchema,
      403: errorBodySchema,
    },
    handler: async ({ user }) => rewardClaims(db, user),
  });

  // Reward reminders (docs/rules.md "Reward reminders"): read-only views of rewards reached and not
  // claimed, and an admin's reminder to claim them. None of these moves money.

  defineRoute(app, {
    method: 'POST',
    url: '/rewards/initialize',
    summary:
      "The member's ladder, exactly as GET /rewards/user/{id} (your own, or anyone's for an admin): our ladder needs no per-member setup, so this moves nothing",
    tags,
    access: 'signed-in',
    body: rewardInitializeSchema,
    responses: { 200: memberRewardsSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ body, user }) => memberRewards(db, user, body.user_id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users/get/defaulterreward/:id',
    summary:
      "A member's rewards reached and not claimed yet (userrewardnotification): your own, or anyone's for an admin",
    tags,
    access: 'signed-in',
    params: rewardIdParamsSchema,
    responses: { 200: unclaimedRewardsSchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => unclaimedRewards(db, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/users/rewards',
    summary:
      'Every member who reached at least one reward (allrewards): team business, rewards reached, claimed and unclaimed, by team business, highest first (admin)',
    tags: [...tags, 'admin'],
    access: 'admin',
    responses: { 200: memberRewardRowsSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => membersAndRewards(db, user),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/users/send/reward',
    summary:
      'Remind each member with rewards to claim (or only the given user_ids) by a notification, one per member (admin, audited); accepts an Idempotency-Key header',
    tags: [...tags, 'admin'],
    access: 'admin',
    body: rewardReminderSchema,
    responses: { 200: rewardReminderResultSchema, ...errors },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await sendRewardReminders(db, user, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });
}
