import type { Db } from '../../db/database.ts';

/** A member (never an admin) with their current pair. */
export async function findMemberPair(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'self_trade_pair', 'self_trade_updated_at'])
    .where('id', '=', userId)
    .where('role', '=', 'user')
    .executeTakeFirst();
}

export async function updateMemberPair(db: Db, userId: string, pair: string, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ self_trade_pair: pair, self_trade_updated_at: now })
    .where('id', '=', userId)
    .execute();
}
