import { formatCents } from '../../../shared/money.ts';
import {
  type DirectMember,
  TEAM_MESSAGES,
  TEAM_SEARCH_LIMIT,
  type TeamSearch,
  TREE_CHILDREN_LIMIT,
  TREE_DEPTH_DEFAULT,
  type TreeNode,
  type TreeQuery,
} from '../../../shared/team.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  findTeamMember,
  levelInTeam,
  levelsUnder,
  searchTeam,
  type TeamRow,
  type TeamStats,
  teamStats,
  treeStats,
} from './team.repository.ts';

// API.md "Team and rewards": a member reads their own team only (another id is a 404, as if it did
// not exist); an admin reads anyone's. A tree answer holds a few levels; deeper ones load on demand.

async function teamOwner(db: Db, asker: SessionUser, id: string) {
  if (asker.user.role !== 'admin' && asker.user.id !== id) throw notFound(TEAM_MESSAGES.notFound);
  const owner = await findTeamMember(db, id);
  if (!owner) throw notFound(TEAM_MESSAGES.notFound);
  return owner;
}

const EMPTY: Omit<TeamStats, 'id'> = {
  investment_cents: 0,
  team_size: 0,
  team_business_cents: 0,
  children_count: 0,
};

/** GET /referral/list/{id}: direct members, in order of joining. */
export async function directMembers(
  db: Db,
  asker: SessionUser,
  id: string,
): Promise<{ members: DirectMember[] }> {
  await teamOwner(db, asker, id);
  const rows = await levelsUnder(db, id, 1);
  const stats = await teamStats(
    db,
    rows.map((r) => r.id),
  );
  return {
    members: rows.map((r) => {
      const s = stats.get(r.id) ?? { id: r.id, ...EMPTY };
      return {
        id: r.id,
        fullname: r.fullname,
        username: r.username,
        created_at: r.created_at,
        is_active: r.is_active,
        investment: formatCents(s.investment_cents),
        team_size: s.team_size,
        team_business: formatCents(s.team_business_cents),
      };
    }),
  };
}

/**
 * GET /referral/full/{id}?node&depth&offset: the tree under `node` (the member by default, else one of
 * their downline) for `depth` levels (default 2). Each node shows at most 50 children; `offset` pages
 * the first level (for "show more"). `children` is null where the answer stops and there is more.
 */
export async function teamTree(
  db: Db,
  asker: SessionUser,
  id: string,
  query: TreeQuery,
): Promise<{ tree: TreeNode }> {
  await teamOwner(db, asker, id);
  const nodeId = query.node ?? id;
  const baseLevel = nodeId === id ? 0 : await levelInTeam(db, id, nodeId);
  const node = baseLevel === undefined ? undefined : await findTeamMember(db, nodeId);
  if (baseLevel === undefined || !node) throw notFound(TEAM_MESSAGES.notFound);
  const depth = query.depth ?? TREE_DEPTH_DEFAULT;
  const offset = query.offset ?? 0;

  const byParent = new Map<string, TeamRow[]>();
  for (const row of await levelsUnder(db, nodeId, depth)) {
    const siblings = byParent.get(row.sponsor_id) ?? [];
    siblings.push(row);
    byParent.set(row.sponsor_id, siblings);
  }
  // Only what is shown: the first level from `offset`, every other level its first children.
  const shown = new Map<string, TeamRow[]>();
  const visit = (parentId: string, first: boolean) => {
    const all = byParent.get(parentId) ?? [];
    const page = first ? all.slice(offset, offset + TREE_CHILDREN_LIMIT) : all.slice(0, TREE_CHILDREN_LIMIT);
    shown.set(parentId, page);
    for (const child of page) visit(child.id, false);
  };
  visit(nodeId, true);
  const stats = await treeStats(db, nodeId, shown);

  const build = (
    member: { id: string; username: string; fullname: string; is_active: 'active' | 'inactive' },
    level: number,
    depthLeft: number,
    first: boolean,
  ): TreeNode => {
    const s = stats.get(member.id) ?? { id: member.id, ...EMPTY };
    const kids = shown.get(member.id);
    const loaded = depthLeft > 0 && kids !== undefined;
    const before = first ? offset : 0;
    return {
      id: member.id,
      username: member.username,
      fullname: member.fullname,
      is_active: member.is_active,
      level,
      investment: formatCents(s.investment_cents),
      team_size: s.team_size,
      team_business: formatCents(s.team_business_cents),
      children_count: s.children_count,
      children_more: loaded ? Math.max(s.children_count - before - kids.length, 0) : 0,
      children: loaded
        ? kids.map((kid) => build(kid, level + 1, depthLeft - 1, false))
        : s.children_count === 0
          ? []
          : null,
    };
  };
  return { tree: build(node, baseLevel, depth, true) };
}

/** GET /referral/search/{id}?q: members of the team by username, with the way down to each. */
export async function searchTeamMembers(
  db: Db,
  asker: SessionUser,
  id: string,
  q: string,
): Promise<TeamSearch> {
  await teamOwner(db, asker, id);
  return { matches: await searchTeam(db, id, q, TEAM_SEARCH_LIMIT) };
}
