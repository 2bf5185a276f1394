import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

// The only SQL of the settings: one row per name that an admin changed, its value as JSON text.

/** Read inside every transfer's transaction: a sql template, as the ledger's statements are. */
export async function readSettingRows(db: Db): Promise<{ name: string; value: string }[]> {
  return (await sql<{ name: string; value: string }>`select name, value from settings`.execute(db)).rows;
}

export async function writeSetting(db: Db, name: string, value: string, nowIso: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value, updated_at: nowIso })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: nowIso }))
    .execute();
}
