import type { Db } from '../../db/database.ts';
import type { IdempotencyKeyTable } from '../../db/schema.ts';

export async function findKey(
  trx: Db,
  ownerId: string,
  key: string,
): Promise<IdempotencyKeyTable | undefined> {
  return trx
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function insertKey(trx: Db, row: IdempotencyKeyTable): Promise<void> {
  await trx.insertInto('idempotency_keys').values(row).execute();
}
