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

/**
 * A slowdown gate in one guarded upsert: the row holds the attempts of a streak (`hits`) and the time
 * before which no further attempt may pass (`reset_at_ms`). The first `free` attempts pass at once;
 * after that an attempt passes only once that time has come, and moves it `delaysMs[n]` further on.
 * A streak with no attempt for `forgetMs` after its time starts over. Answers undefined when refused:
 * the guard makes parallel callers queue on the row, so at most one of them takes a freed slot.
 */
export async function passGate(
  db: Db,
  key: string,
  gate: { free: number; delaysMs: readonly number[]; forgetMs: number },
  nowMs: number,
) {
  // The wait set by the attempt that makes the streak `hits + 1` long (portable SQL: no pow or least).
  const steps = gate.delaysMs.map(
    (delay, i) => sql`when rate_limits.hits + 1 = ${gate.free + i} then ${nowMs + delay}`,
  );
  const last = gate.delaysMs.at(-1) ?? 0;
  const stale = sql<boolean>`rate_limits.reset_at_ms + ${gate.forgetMs} <= ${nowMs}`;
  return db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at_ms: gate.free > 1 ? nowMs : nowMs + (gate.delaysMs[0] ?? 0) })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          hits: sql<number>`case when ${stale} then 1 else rate_limits.hits + 1 end`,
          // Cast: PostgreSQL reads a CASE of bare parameters as text.
          reset_at_ms: sql<number>`cast(case when ${stale} then ${nowMs}
            when rate_limits.hits + 1 < ${gate.free} then ${nowMs}
            ${sql.join(steps, sql` `)}
            else ${nowMs + last} end as bigint)`,
        })
        .where((eb) =>
          eb.or([eb('rate_limits.hits', '<', gate.free), eb('rate_limits.reset_at_ms', '<=', nowMs)]),
        ),
    )
    .returning(['hits', 'reset_at_ms'])
    .executeTakeFirst();
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
