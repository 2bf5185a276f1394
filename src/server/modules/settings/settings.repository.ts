import type { Db } from '../../db/database.ts';

// The only SQL of the settings: one row per name that an admin changed, its value as JSON text.

export async function readSettingRows(db: Db) {
  return db.selectFrom('settings').select(['name', 'value']).execute();
}

export async function writeSetting(db: Db, name: string, value: string, nowIso: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value, updated_at: nowIso })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: nowIso }))
    .execute();
}
