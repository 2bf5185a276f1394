import type { Db } from '../../db/database.ts';
import type { RewardClaimTable, RewardPlanTable } from '../../db/schema.ts';

// The only SQL of rewards.

export const listRewardPlans = (db: Db) =>
  db.selectFrom('reward_plans').selectAll().orderBy('business_needed_cents').orderBy('rank').execute();

export const findRewardPlan = (db: Db, id: string) =>
  db.selectFrom('reward_plans').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertRewardPlan(db: Db, row: RewardPlanTable): Promise<void> {
  await db.insertInto('reward_plans').values(row).execute();
}

export async function updateRewardPlan(db: Db, id: string, change: Partial<RewardPlanTable>): Promise<void> {
  await db.updateTable('reward_plans').set(change).where('id', '=', id).execute();
}

export async function deleteRewardPlan(db: Db, id: string): Promise<void> {
  await db.deleteFrom('reward_plans').where('id', '=', id).execute();
}

export async function hasClaims(db: Db, rewardId: string): Promise<boolean> {
  const row = await db
    .selectFrom('reward_claims')
    .select('id')
    .where('reward_id', '=', rewardId)
    .executeTakeFirst();
  return row !== undefined;
}

export const claimsOf = (db: Db, userId: string) =>
  db.selectFrom('reward_claims').selectAll().where('user_id', '=', userId).execute();

export async function insertClaim(trx: Db, row: RewardClaimTable): Promise<void> {
  await trx.insertInto('reward_claims').values(row).execute();
}

export const allClaims = (db: Db) =>
  db
    .selectFrom('reward_claims as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('c')
    .select(['u.username', 'u.fullname'])
    .orderBy('c.created_at', 'desc')
    .limit(5000)
    .execute();

/** The reward ids each of these members has claimed (in slices: one statement binds a bounded list). */
export async function claimedRewardIds(db: Db, userIds: string[]): Promise<Map<string, Set<string>>> {
  const claimed = new Map<string, Set<string>>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('reward_claims')
      .select(['user_id', 'reward_id'])
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      const set = claimed.get(row.user_id) ?? new Set<string>();
      set.add(row.reward_id);
      claimed.set(row.user_id, set);
    }
  }
  return claimed;
}
