import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

// The only SQL of the team: recursive queries over users.sponsor_id (indexed), the same text on
// SQLite and PostgreSQL. Only members (role 'user') are in a team; the root admin sponsors those who
// joined without a code, so an admin's own tree is every member.

/** A guard against a sponsor chain that loops: no real team is this deep. */
const MAX_LEVELS = 10_000;

export type TeamStats = {
  id: string;
  investment_cents: number;
  team_size: number;
  team_business_cents: number;
  children_count: number;
};

/** Each node's own investment, team size, team business (every level below it) and direct members. */
export async function teamStats(db: Db, ids: string[]): Promise<Map<string, TeamStats>> {
  const stats = new Map<string, TeamStats>();
  if (ids.length === 0) return stats;
  const { rows } = await sql<{
    anc: string;
    investment: string | number | null;
    team_size: string | number;
    team_business: string | number | null;
    children_count: string | number;
  }>`with recursive closure(anc, id, dist) as (
      select id, id, 0 from users where id in (${sql.join(ids)})
      union all
      select c.anc, u.id, c.dist + 1 from users u join closure c on u.sponsor_id = c.id
      where u.role || '' = 'user' and c.dist < ${MAX_LEVELS}
    ),
    own as (select c.anc, c.id, c.dist, (select sum(t.amount_cents) from topups t where t.user_id = c.id) as invested
      from closure c)
    select anc,
      sum(case when dist = 0 then invested else 0 end) as investment,
      count(*) - 1 as team_size,
      sum(case when dist > 0 then invested else 0 end) as team_business,
      sum(case when dist = 1 then 1 else 0 end) as children_count
    from own group by anc`.execute(db);
  for (const row of rows)
    stats.set(row.anc, {
      id: row.anc,
      investment_cents: Number(row.investment ?? 0),
      team_size: Number(row.team_size),
      team_business_cents: Number(row.team_business ?? 0),
      children_count: Number(row.children_count),
    });
  return stats;
}

/**
 * teamStats for a tree as teamTree shows it: `nodeId` and, under it, `shown` (each shown member's shown
 * direct members), in one pass over the node's team. teamStats for every shown member walked each
 * shown member's team again (the root's team twice for its first level). Here each row of the team
 * counts towards its nearest shown member (its anchor); a shown member's figures are then its own rows
 * plus those of the shown members under it, added up from the bottom.
 */
export async function treeStats(
  db: Db,
  nodeId: string,
  shown: Map<string, { id: string }[]>,
): Promise<Map<string, TeamStats>> {
  const shownIds = [...shown.values()].flat().map((r) => r.id);
  const { rows } = await sql<{
    anchor: string;
    investment: string | number | null;
    rows_below: string | number;
    business_below: string | number | null;
    direct_below: string | number;
  }>`with recursive closure(anchor, id, sponsor_id, dist) as (
      select id, id, sponsor_id, 0 from users where id = ${nodeId}
      union all
      select ${shownIds.length === 0 ? sql`c.anchor` : sql`case when u.id in (${sql.join(shownIds)}) then u.id else c.anchor end`},
        u.id, u.sponsor_id, c.dist + 1
      from users u join closure c on u.sponsor_id = c.id
      where u.role || '' = 'user' and c.dist < ${MAX_LEVELS}
    ),
    own as (select c.anchor, c.id, c.sponsor_id,
      (select sum(t.amount_cents) from topups t where t.user_id = c.id) as invested from closure c)
    select anchor,
      sum(case when id = anchor then invested else 0 end) as investment,
      count(*) - 1 as rows_below,
      sum(case when id <> anchor then invested else 0 end) as business_below,
      sum(case when id <> anchor and sponsor_id = anchor then 1 else 0 end) as direct_below
    from own group by anchor`.execute(db);
  const partial = new Map(rows.map((r) => [r.anchor, r]));
  const stats = new Map<string, TeamStats>();
  const add = (id: string): TeamStats => {
    const own = partial.get(id);
    const total: TeamStats = {
      id,
      investment_cents: Number(own?.investment ?? 0),
      team_size: Number(own?.rows_below ?? 0),
      team_business_cents: Number(own?.business_below ?? 0),
      children_count: Number(own?.direct_below ?? 0),
    };
    for (const child of shown.get(id) ?? []) {
      const below = add(child.id);
      total.team_size += 1 + below.team_size;
      total.team_business_cents += below.investment_cents + below.team_business_cents;
      total.children_count += 1;
    }
    stats.set(id, total);
    return total;
  };
  if (partial.has(nodeId)) add(nodeId);
  return stats;
}

/**
 * Every member whose team business (all investments of the downline, as teamStats counts it) is at
 * least `minCents`, highest first: the rank holders of the reward ladder and the CTO.
 */
export async function membersWithBusiness(db: Db, minCents: number) {
  const { rows } = await sql<{ id: string; username: string; fullname: string; business: string | number }>`
    with recursive closure(anc, id) as (
      select id, id from users where role = 'user'
      union all
      select c.anc, u.id from users u join closure c on u.sponsor_id = c.id where u.role || '' = 'user'
    ),
    invested as (select user_id, sum(amount_cents) as cents from topups group by user_id),
    business as (
      select c.anc as id, sum(i.cents) as business from closure c join invested i on i.user_id = c.id
      where c.anc <> c.id group by c.anc
    )
    select u.id, u.username, u.fullname, b.business from business b join users u on u.id = b.id
    where b.business >= ${minCents} order by b.business desc, u.username`.execute(db);
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
