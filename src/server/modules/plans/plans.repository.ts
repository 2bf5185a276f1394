import type { Db } from '../../db/database.ts';
import type { LevelPercentTable, PlanTable } from '../../db/schema.ts';

// The only SQL of plans and level percents.

export async function insertPlan(trx: Db, plan: PlanTable): Promise<void> {
  await trx.insertInto('plans').values(plan).execute();
}

export async function findPlan(db: Db, id: string): Promise<PlanTable | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listPlans(db: Db, kind: PlanTable['kind'], activeOnly: boolean): Promise<PlanTable[]> {
  let query = db.selectFrom('plans').selectAll().where('kind', '=', kind);
  if (activeOnly) query = query.where('status', '=', 'active');
  return query.orderBy('min_amount_cents').orderBy('created_at').orderBy('id').execute();
}

export async function updatePlan(
  trx: Db,
  id: string,
  changes: Partial<Omit<PlanTable, 'id' | 'kind' | 'created_at'>>,
): Promise<void> {
  await trx.updateTable('plans').set(changes).where('id', '=', id).execute();
}

export async function hasInvestments(db: Db, planId: string): Promise<boolean> {
  const row = await db
    .selectFrom('topups')
    .select('id')
    .where('plan_id', '=', planId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePlan(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('plans').where('id', '=', id).execute();
}

export async function levelPercents(db: Db, kind: LevelPercentTable['kind']): Promise<number[]> {
  const rows = await db
    .selectFrom('level_percents')
    .select(['level', 'percent_bp'])
    .where('kind', '=', kind)
    .orderBy('level')
    .execute();
  return rows.map((row) => Number(row.percent_bp));
}

/** Replaces a whole list in the caller's transaction. */
export async function replaceLevelPercents(
  trx: Db,
  kind: LevelPercentTable['kind'],
  percents: number[],
): Promise<void> {
  await trx.deleteFrom('level_percents').where('kind', '=', kind).execute();
  if (percents.length === 0) return;
  await trx
    .insertInto('level_percents')
    .values(percents.map((percent_bp, index) => ({ kind, level: index + 1, percent_bp })))
    .execute();
}
