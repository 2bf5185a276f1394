import type { Db } from '../../db/database.ts';
import type { PayoutAddressChangeTable } from '../../db/schema.ts';

export async function findSponsor(db: Db, sponsorId: string) {
  return db
    .selectFrom('users')
    .select(['fullname', 'username'])
    .where('id', '=', sponsorId)
    .executeTakeFirst();
}

export async function findAddressChanges(db: Db, userId: string): Promise<PayoutAddressChangeTable[]> {
  return db.selectFrom('payout_address_changes').selectAll().where('user_id', '=', userId).execute();
}

/** Records the latest change of one of a member's payout addresses (one row per network). */
export async function recordAddressChange(db: Db, row: PayoutAddressChangeTable): Promise<void> {
  await db
    .insertInto('payout_address_changes')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['user_id', 'network']).doUpdateSet({
        changed_at: row.changed_at,
        changed_by: row.changed_by,
        changed_by_role: row.changed_by_role,
        usable_from: row.usable_from,
      }),
    )
    .execute();
}

export async function updateProfileColumns(
  db: Db,
  userId: string,
  changes: {
    fullname?: string;
    phone?: string;
    bep20?: string | null;
    trc20?: string | null;
    updated_at: string;
  },
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}
