import type { Db } from '../../db/database.ts';
import type { RewardPlanTable } from '../../db/schema.ts';
import { membersWithBusiness } from '../team/team.repository.ts';
import { excludedIds } from './rank-exclusions.repository.ts';
import { listRewardPlans } from './rewards.repository.ts';

// Who holds which rank: each member whose team business reaches a rung of the reward ladder, with the
// highest rung reached. One rule for leadership and the CTO; an admin's exclusions (rank-exclusions) are
// applied on top: here for the leadership list, in the CTO's service for its split.

export type RankHolder = { id: string; username: string; fullname: string; business: number; rank: string };

/** Members reaching at least `lowest` (default the ladder's first rung), highest business first. */
export async function rankHolders(
  db: Db,
  ladder?: RewardPlanTable[],
  lowest?: RewardPlanTable,
): Promise<RankHolder[]> {
  const rungs = ladder ?? (await listRewardPlans(db));
  const floor = lowest ?? rungs[0];
  if (!floor) return [];
  const highestFirst = [...rungs].reverse();
  return (await membersWithBusiness(db, Number(floor.business_needed_cents))).map((m) => ({
    ...m,
    rank: highestFirst.find((r) => m.business >= Number(r.business_needed_cents))?.rank ?? floor.rank,
  }));
}

/**
 * The CTO's qualifiers: the rank holders from `lowest` up who are not blocked (a blocked member earns
 * no CTO, as no level income). Read inside Pay's transaction, so a block made before Pay counts.
 */
export async function unblockedRankHolders(
  db: Db,
  ladder: RewardPlanTable[],
  lowest: RewardPlanTable,
): Promise<RankHolder[]> {
  const holders = await rankHolders(db, ladder, lowest);
  if (holders.length === 0) return [];
  // The blocked among everyone reaching the floor: one query, however many hold a rank.
  const blocked = await db
    .selectFrom('users as u')
    .innerJoin('team_totals as t', 't.user_id', 'u.id')
    .select('u.id')
    .where('u.status', '<>', 'unblock')
    .where('t.team_business_cents', '>=', Number(lowest.business_needed_cents))
    .execute();
  const out = new Set(blocked.map((row) => row.id));
  return holders.filter((h) => !out.has(h.id));
}

/** GET /leadership/list: the rank holders less the members an admin took off the list. */
export async function listedLeaders(db: Db): Promise<RankHolder[]> {
  const [holders, removed] = await Promise.all([rankHolders(db), excludedIds(db, 'leadership')]);
  return holders.filter((h) => !removed.has(h.id));
}
