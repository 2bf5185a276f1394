import { createHash } from 'node:crypto';
import { WALLET_MESSAGES } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import type { IdempotencyKeyTable } from '../../db/schema.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { findKey, insertKey } from './idempotency.repository.ts';

// RULES.md: a repeat with the same Idempotency-Key and body returns the first result and moves
// nothing; the same key with another body is a 409. The key's record is written in the same
// transaction as the money, so a crash or a race can never leave one without the other.

/** What a call answers; `replayed` when it is the stored answer of an earlier request with the same key. */
export type Outcome = { statusCode: number; body: unknown; replayed?: true };

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
const hashOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

/** The key as sent, or a 400 when it is not 1 to 200 visible characters: checked before any work. */
export function checkedKey(key: string): string {
  if (!KEY_PATTERN.test(key))
    throw badRequest([
      { field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 200 visible characters' },
    ]);
  return key;
}

/** The answer already given for this key, if any; the same key with another request is a 409. */
export async function replayOf(
  db: Db,
  ownerId: string,
  key: string | undefined,
  request: unknown,
): Promise<Outcome | undefined> {
  if (key === undefined) return undefined;
  const stored = await findKey(db, ownerId, checkedKey(key));
  if (!stored) return undefined;
  if (stored.request_hash !== hashOf(request)) throw conflict(WALLET_MESSAGES.idempotencyReused);
  return { statusCode: stored.status_code, body: JSON.parse(stored.response_body), replayed: true };
}

/**
 * The record a keyed call writes with its work, for callers that write it themselves in one statement
 * with the work (see transfers on PostgreSQL); undefined without a key. The same rules as runOnce.
 */
export function keyRecord(
  ownerId: string,
  key: string | undefined,
  request: unknown,
  outcome: Outcome,
): IdempotencyKeyTable | undefined {
  if (key === undefined) return undefined;
  return {
    owner_id: ownerId,
    key: checkedKey(key),
    request_hash: hashOf(request),
    status_code: outcome.statusCode,
    response_body: JSON.stringify(outcome.body),
    created_at: new Date().toISOString(),
  };
}

/**
 * Runs `work` once per key. The key's unique index decides, not a look-up beforehand: the work and the
 * key's record commit together, and a request whose key is already taken rolls back whole and answers
 * with the stored result. A repeat costs a rolled-back transaction; every first request, one query less.
 */
export async function runOnce<O extends Outcome = Outcome>(
  db: Db,
  ownerId: string,
  key: string | undefined,
  request: unknown,
  /** Its outcome is returned as is the first time (fields beyond statusCode and body included). */
  work: (trx: Db) => Promise<O>,
): Promise<O | Outcome> {
  if (key === undefined) return db.transaction().execute(work);
  const requestHash = hashOf(request);
  checkedKey(key);
  try {
    return await db.transaction().execute(async (trx) => {
      const outcome = await work(trx);
      await insertKey(trx, {
        owner_id: ownerId,
        key,
        request_hash: requestHash,
        status_code: outcome.statusCode,
        response_body: JSON.stringify(outcome.body),
        created_at: new Date().toISOString(),
      });
      return outcome;
    });
  } catch (error) {
    // The key was taken, by an earlier request or a concurrent one that committed first: ours rolled back
    // whole; answer with theirs (or a 409 for another request under the same key). Ours may have failed
    // on the key's unique index, or earlier, on money the first one had already moved (a 422 for a debit
    // that in fact succeeded once), so any failure looks for a stored answer first.
    const earlier = await replayOf(db, ownerId, key, request);
    if (earlier) return earlier;
    throw error;
  }
}
