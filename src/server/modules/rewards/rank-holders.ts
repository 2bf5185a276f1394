import type { Db } from '../../db/database.ts';
import type { RewardPlanTable } from '../../db/schema.ts';
import { membersWithBusiness } from '../team/team.repository.ts';
import { listRewardPlans } from './rewards.repository.ts';

// Who holds which rank: each member whose team business reaches a rung of the reward ladder, with the
// highest rung reached. One rule for leadership and the CTO.

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
