import type { Db } from '../db/database.ts';
import { tooManyRequests } from './errors.ts';
import { clearCounter, hitCounter, passGate, readCounter } from './rate-limit.repository.ts';

// Counters live in the database, so every server instance on one database shares them. Each check is
// one atomic write that counts the attempt and answers whether it may go on, so parallel requests
// cannot all pass a check made before any of them was counted.

export type Limit = { max: number; windowMs: number };
/** `free` attempts pass at once, then each waits the next of `delaysMs` (the last one repeats). */
export type Slowdown = { free: number; delaysMs: readonly number[]; forgetMs: number };

const retryAfter = (resetAtMs: number, nowMs: number) =>
  tooManyRequests(Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)));

/** Counts a hit and throws 429 (with Retry-After) once the window holds more than `max`. */
export async function consume(db: Db, key: string, limit: Limit, nowMs = Date.now()): Promise<void> {
  const { hits, reset_at_ms } = await hitCounter(db, key, limit.windowMs, nowMs);
  if (hits > limit.max) throw retryAfter(Number(reset_at_ms), nowMs);
}

/** Counts an attempt if the slowdown lets it through now, else throws 429 with the wait as Retry-After. */
export async function slowDown(db: Db, key: string, gate: Slowdown, nowMs = Date.now()): Promise<void> {
  if (await passGate(db, key, gate, nowMs)) return;
  const row = await readCounter(db, key);
  throw retryAfter(Number(row?.reset_at_ms ?? nowMs), nowMs);
}

/**
 * Throws 429 when the window already holds `max` hits, without counting one. Read-then-count is not
 * atomic (parallel callers all see the same count): prefer consume before the costly work.
 */
export async function assertUnder(db: Db, key: string, limit: Limit, nowMs = Date.now()): Promise<void> {
  const row = await readCounter(db, key);
  if (row && Number(row.reset_at_ms) > nowMs && row.hits >= limit.max)
    throw retryAfter(Number(row.reset_at_ms), nowMs);
}

export async function recordHit(db: Db, key: string, limit: Limit, nowMs = Date.now()): Promise<void> {
  await hitCounter(db, key, limit.windowMs, nowMs);
}

export const reset = (db: Db, key: string) => clearCounter(db, key);
