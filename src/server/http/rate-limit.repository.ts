import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** Counts one hit in the key's fixed window (a new window once the old one has passed), atomically. */
export async function hitCounter(db: Db, key: string, windowMs: number, nowMs: number) {
  return db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at_ms: nowMs + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.reset_at_ms <= ${nowMs} then 1 else rate_limits.hits + 1 end`,
        reset_at_ms: sql<number>`case when rate_limits.reset_at_ms <= ${nowMs} then ${nowMs + windowMs} else rate_limits.reset_at_ms end`,
      }),
    )
    .returning(['hits', 'reset_at_ms'])
    .executeTakeFirstOrThrow();
}

export async function readCounter(db: Db, key: string) {
  return db
    .selectFrom('rate_limits')
    .select(['hits', 'reset_at_ms'])
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function clearCounter(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
