import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  directMembersSchema,
  teamIdParamsSchema,
  teamSearchQuerySchema,
  teamSearchSchema,
  treeQuerySchema,
  treeSchema,
} from '../../../shared/team.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute } from '../../http/route.ts';
import { directMembers, searchTeamMembers, teamTree } from './team.service.ts';

// API.md "Team and rewards" and spec 7 "Referral".
export function registerTeamRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const tags = ['team'];
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

  defineRoute(app, {
    method: 'GET',
    url: '/referral/list/:id',
    summary:
      "A member's direct members with their investment, team size and team business (your own, or anyone's for an admin)",
    tags,
    access: 'signed-in',
    params: teamIdParamsSchema,
    responses: { 200: directMembersSchema, ...errors },
    handler: async ({ params, user }) => directMembers(db, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/referral/full/:id',
    summary:
      "A member's downline as a tree, a few levels at a time: ?node (one of the team, default the member), ?depth (1-5, default 2), ?offset (the first level's page)",
    tags,
    access: 'signed-in',
    params: teamIdParamsSchema,
    query: treeQuerySchema,
    responses: { 200: treeSchema, ...errors },
    handler: async ({ params, query, user }) => teamTree(db, user, params.id, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/referral/search/:id',
    summary:
      "Members of a member's team whose username contains ?q, each with the ids from the member down to them",
    tags,
    access: 'signed-in',
    params: teamIdParamsSchema,
    query: teamSearchQuerySchema,
    responses: { 200: teamSearchSchema, ...errors },
    handler: async ({ params, query, user }) => searchTeamMembers(db, user, params.id, query.q),
  });
}
