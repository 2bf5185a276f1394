import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { IdempotencyKeyTable } from '../../db/schema.ts';

// Both run on every keyed money call, so they are sql templates (see ledger.repository.ts).

export async function findKey(
  trx: Db,
  ownerId: string,
  key: string,
): Promise<IdempotencyKeyTable | undefined> {
  const { rows } = await sql<IdempotencyKeyTable>`select owner_id, key, request_hash, status_code,
    response_body, created_at from idempotency_keys where owner_id = ${ownerId} and key = ${key}`.execute(
    trx,
  );
  return rows[0];
}

export async function insertKey(trx: Db, k: IdempotencyKeyTable): Promise<void> {
  await sql`insert into idempotency_keys (owner_id, key, request_hash, status_code, response_body, created_at)
    values (${k.owner_id}, ${k.key}, ${k.request_hash}, ${k.status_code}, ${k.response_body}, ${k.created_at})`.execute(
    trx,
  );
}
