import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { errorBodySchema } from '../../../shared/errors.ts';
import { leadershipSchema, memberRankSchema } from '../../../shared/leadership.ts';
import { formatCents } from '../../../shared/money.ts';
import { exclusionIdSchema } from '../../../shared/rank-exclusions.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { excludeMember, exclusionsOf, restoreMember } from './rank-exclusions.service.ts';
import { listedLeaders } from './rank-holders.ts';
import { memberRewards } from './rewards.service.ts';

// Spec 7 "Leadership": GET /leadership/list (admin), /leadership/by/{userId} and DELETE /leadership/{id},
// which takes a member off the list (an exclusion: their rank and rewards stay; restore undoes it).

const answer = v.object({ message: v.string() });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
export function registerLeadershipRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/leadership/list',
    summary:
      'Members by the highest rung of the reward ladder their team business reaches, highest first, less those removed from the list; `removed` lists the removed, newest first (admin)',
    tags: ['rewards', 'admin'],
    access: 'admin',
    responses: { 200: leadershipSchema, 401: errorBodySchema, 403: errorBodySchema },
    // Ordered by team business, highest first: the highest rung first too.
    handler: async () => ({
      leaders: (await listedLeaders(db)).map((h) => ({
        user_id: h.id,
        username: h.username,
        fullname: h.fullname,
        rank: h.rank,
        team_business: formatCents(h.business),
      })),
      removed: await exclusionsOf(db, 'leadership'),
    }),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/leadership/:id',
    summary:
      "Take a member (id = the member's id) off the leadership list (admin, audited): their own rank and rewards are unchanged; removing a removed member answers the same and changes nothing",
    tags: ['rewards', 'admin'],
    access: 'admin',
    params: exclusionIdSchema,
    responses: { 200: answer, ...errors },
    handler: async ({ params, user }) => excludeMember(db, user, 'leadership', params.id, undefined),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/leadership/:id/restore',
    summary:
      'Put a removed member back on the leadership list (admin, audited); restoring a listed member answers the same and changes nothing',
    tags: ['rewards', 'admin'],
    access: 'admin',
    params: exclusionIdSchema,
    responses: { 200: answer, ...errors },
    handler: async ({ params, user }) => restoreMember(db, user, 'leadership', params.id),
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
