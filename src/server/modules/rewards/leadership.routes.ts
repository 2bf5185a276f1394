import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import { leadershipSchema, memberRankSchema } from '../../../shared/leadership.ts';
import { formatCents } from '../../../shared/money.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { rankHolders } from './rank-holders.ts';
import { memberRewards } from './rewards.service.ts';

// Spec 7 "Leadership": GET /leadership/list (admin) and /leadership/by/{userId}.
export function registerLeadershipRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/leadership/list',
    summary:
      'Members by the highest rung of the reward ladder their team business reaches, highest first (admin)',
    tags: ['rewards', 'admin'],
    access: 'admin',
    responses: { 200: leadershipSchema, 401: errorBodySchema, 403: errorBodySchema },
    // Ordered by team business, highest first: the highest rung first too.
    handler: async () => ({
      leaders: (await rankHolders(db)).map((h) => ({
        user_id: h.id,
        username: h.username,
        fullname: h.fullname,
        rank: h.rank,
        team_business: formatCents(h.business),
      })),
    }),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/leadership/by/:userId',
    summary:
      "A member's rank (the highest rung reached, or null) and team business: your own, or anyone's for an admin",
    tags: ['rewards'],
    access: 'signed-in',
    params: v.object({ userId: v.pipe(v.string(), v.nonEmpty()) }),
    responses: { 200: memberRankSchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => {
      const standing = await memberRewards(db, user, params.userId);
      const reached = standing.rewards.filter((r) => r.reached).at(-1);
      return { rank: reached?.rank ?? null, team_business: standing.team_business };
    },
  });
}
