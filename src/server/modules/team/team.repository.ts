import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

// The SQL of the team's reads. The figures (team size, team business, direct members) are the stored
// totals of team_totals, kept with every sign-up and investment (team-totals.repository.ts); who is in
// a team and where are recursive queries over users.sponsor_id (indexed), the same text on SQLite and
// PostgreSQL. Only members (role 'user') are in a team; the root admin sponsors those who joined
// without a code, so an admin's own tree is every member.

/** A guard against a sponsor chain that loops: no real team is this deep. */
const MAX_LEVELS = 10_000;

export type TeamStats = {
  id: string;
  investment_cents: number;
  team_size: number;
  team_business_cents: number;
  children_count: number;
};

/**
 * Each user's own investment, team size, team business (every level below them) and direct members:
 * the stored totals (team-totals.repository.ts), one row per id, whatever the size of the team.
 */
export async function teamStats(db: Db, ids: string[]): Promise<Map<string, TeamStats>> {
  const stats = new Map<string, TeamStats>();
  if (ids.length === 0) return stats;
  const rows = await db
    .selectFrom('team_totals')
    .select(['user_id', 'invested_cents', 'team_size', 'team_business_cents', 'direct_count'])
    .where('user_id', 'in', [...new Set(ids)])
    .execute();
  for (const row of rows)
    stats.set(row.user_id, {
      id: row.user_id,
      investment_cents: Number(row.invested_cents),
      team_size: Number(row.team_size),
      team_business_cents: Number(row.team_business_cents),
      children_count: Number(row.direct_count),
    });
  return stats;
}

/** teamStats for a tree as teamTree shows it: `nodeId` and, under it, `shown` (each shown member's shown direct members). */
export async function treeStats(
  db: Db,
  nodeId: string,
  shown: Map<string, { id: string }[]>,
): Promise<Map<string, TeamStats>> {
  return teamStats(db, [nodeId, ...[...shown.values()].flat().map((r) => r.id)]);
}

/**
 * Every member whose team business (all investments of the downline, as teamStats counts it) is at
 * least `minCents` (and more than nothing), highest first: the rank holders of the reward ladder and the CTO.
 */
export async function membersWithBusiness(db: Db, minCents: number) {
  const rows = await db
    .selectFrom('team_totals as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['u.id', 'u.username', 'u.fullname', 't.team_business_cents as business'])
    // role || '': SQLite (no ANALYZE) would otherwise walk every member by the role index and look
    // up each one's totals; this way it reads only the totals' business index from minCents up.
    .where(sql<string>`u.role || ''`, '=', 'user')
    .where('t.team_business_cents', '>=', minCents)
    .where('t.team_business_cents', '>', 0)
    .orderBy('t.team_business_cents', 'desc')
    .orderBy('u.username')
    .execute();
  return rows.map((r) => ({ ...r, business: Number(r.business) }));
}

export type TeamRow = {
  id: string;
  sponsor_id: string;
  username: string;
  fullname: string;
  is_active: 'active' | 'inactive';
  created_at: string;
  lvl: number;
};

/**
 * The members `depth` levels under `nodeId`, level 1 first, each level in order of joining. The rows
 * carry their columns from the recursive step: joined back to users afterwards, SQLite scanned every
 * member to find the few rows of the answer.
 */
export async function levelsUnder(db: Db, nodeId: string, depth: number): Promise<TeamRow[]> {
  const { rows } =
    await sql<TeamRow>`with recursive down(id, sponsor_id, username, fullname, is_active, created_at, lvl) as (
      select id, sponsor_id, username, fullname, is_active, created_at, 1 from users
      where sponsor_id = ${nodeId} and role || '' = 'user'
      union all
      select u.id, u.sponsor_id, u.username, u.fullname, u.is_active, u.created_at, d.lvl + 1
      from users u join down d on u.sponsor_id = d.id
      where u.role || '' = 'user' and d.lvl < ${depth}
    )
    select id, sponsor_id, username, fullname, is_active, created_at, lvl from down
    order by lvl, created_at, id`.execute(db);
  return rows.map((r) => ({ ...r, lvl: Number(r.lvl) }));
}

/** How many levels below `rootId` the member `nodeId` is (0: the root itself), or undefined when not in its team. */
export async function levelInTeam(db: Db, rootId: string, nodeId: string): Promise<number | undefined> {
  const { rows } = await sql<{ dist: string | number }>`with recursive up(id, sponsor_id, dist) as (
      select id, sponsor_id, 0 from users where id = ${nodeId}
      union all
      select u.id, u.sponsor_id, up.dist + 1 from users u join up on u.id = up.sponsor_id
      where up.id <> ${rootId} and up.dist < ${MAX_LEVELS}
    )
    select dist from up where id = ${rootId}`.execute(db);
  return rows[0] === undefined ? undefined : Number(rows[0].dist);
}

export async function findTeamMember(db: Db, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'fullname', 'is_active', 'created_at', 'role'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Members of the downline whose username contains `fragment`, with the ids from the root down to them. */
export async function searchTeam(db: Db, rootId: string, fragment: string, limit: number) {
  const pattern = `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<{
    id: string;
    username: string;
    fullname: string;
    lvl: string | number;
    path: string;
  }>`
    with recursive down(id, lvl, path) as (
      select id, 1, ${rootId} || ',' || id from users where sponsor_id = ${rootId} and role || '' = 'user'
      union all
      select u.id, d.lvl + 1, d.path || ',' || u.id from users u join down d on u.sponsor_id = d.id
      where u.role || '' = 'user' and d.lvl < ${MAX_LEVELS}
    )
    select u.id, u.username, u.fullname, d.lvl, d.path from down d join users u on u.id = d.id
    where lower(u.username) like ${pattern} escape '\\'
    order by d.lvl, u.username limit ${limit}`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    fullname: r.fullname,
    level: Number(r.lvl),
    path: r.path.split(','),
  }));
}
