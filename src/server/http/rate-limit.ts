import type { Db } from '../db/database.ts';
import { tooManyRequests } from './errors.ts';
import { clearCounter, hitCounter, readCounter } from './rate-limit.repository.ts';

// Counters live in the database, so every server instance on one database shares them.

export type Limit = { max: number; windowMs: number };

/** Counts a hit and throws 429 (with Retry-After) once the window holds more than `max`. */
export async function consume(db: Db, key: string, limit: Limit, nowMs = Date.now()): Promise<void> {
  const { hits, reset_at_ms } = await hitCounter(db, key, limit.windowMs, nowMs);
  if (hits > limit.max) throw tooManyRequests(Math.max(1, Math.ceil((Number(reset_at_ms) - nowMs) / 1000)));
}

/** Throws 429 when the window already holds `max` hits, without counting one. */
export async function assertUnder(db: Db, key: string, limit: Limit, nowMs = Date.now()): Promise<void> {
  const row = await readCounter(db, key);
  if (row && Number(row.reset_at_ms) > nowMs && row.hits >= limit.max) {
    throw tooManyRequests(Math.max(1, Math.ceil((Number(row.reset_at_ms) - nowMs) / 1000)));
  }
}

export async function recordHit(db: Db, key: string, limit: Limit, nowMs = Date.now()): Promise<void> {
  await hitCounter(db, key, limit.windowMs, nowMs);
}

export const reset = (db: Db, key: string) => clearCounter(db, key);
