import { createHash } from 'node:crypto';
import { WALLET_MESSAGES } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { findKey, insertKey } from './idempotency.repository.ts';

// RULES.md: a repeat with the same Idempotency-Key and body returns the first result and moves
// nothing; the same key with another body is a 409. The key's record is written in the same
// transaction as the money, so a crash or a race can never leave one without the other.

export type Outcome = { statusCode: number; body: unknown };

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
const hashOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

function checkedKey(key: string): string {
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
  return { statusCode: stored.status_code, body: JSON.parse(stored.response_body) };
}

export async function runOnce(
  db: Db,
  ownerId: string,
  key: string | undefined,
  request: unknown,
  work: (trx: Db) => Promise<Outcome>,
): Promise<Outcome> {
  if (key === undefined) return db.transaction().execute(work);
  const requestHash = hashOf(request);
  const replay = () => replayOf(db, ownerId, key, request);
  const earlier = await replay();
  if (earlier) return earlier;
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
    // A concurrent request with the same key committed first: ours rolled back whole; answer with theirs.
    // Ours may have failed on the key's unique index, or earlier, on money the winner had already moved
    // (a 422 for a debit that in fact succeeded once), so any failure looks for a winner first.
    const winner = await replay();
    if (winner) return winner;
    throw error;
  }
}
