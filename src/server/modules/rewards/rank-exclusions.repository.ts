import type { Db } from '../../db/database.ts';
import type { RankExclusionScope, RankExclusionTable } from '../../db/schema.ts';

// The only SQL of the exclusions (migration 0026): who an admin took off the leadership list or out of
// the CTO.

/** The ids excluded from `scope`; read inside the caller's transaction when it pays. */
export async function excludedIds(db: Db, scope: RankExclusionScope): Promise<Set<string>> {
  const rows = await db.selectFrom('rank_exclusions').select('user_id').where('scope', '=', scope).execute();
  return new Set(rows.map((r) => r.user_id));
}

export const listExclusions = (db: Db, scope: RankExclusionScope) =>
  db
    .selectFrom('rank_exclusions as x')
    .innerJoin('users as u', 'u.id', 'x.user_id')
    .select(['x.user_id', 'u.username', 'u.fullname', 'x.reason', 'x.created_at'])
    .where('x.scope', '=', scope)
    .orderBy('x.created_at', 'desc')
    .orderBy('u.username')
    .execute();

export const findExclusion = (db: Db, userId: string, scope: RankExclusionScope) =>
  db
    .selectFrom('rank_exclusions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .executeTakeFirst();

/** True when the row was written; false when the member was excluded already (the row stays as it was). */
export async function insertExclusion(trx: Db, row: RankExclusionTable): Promise<boolean> {
  const result = await trx
    .insertInto('rank_exclusions')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'scope']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when a row was removed. */
export async function deleteExclusion(trx: Db, userId: string, scope: RankExclusionScope): Promise<boolean> {
  const result = await trx
    .deleteFrom('rank_exclusions')
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
