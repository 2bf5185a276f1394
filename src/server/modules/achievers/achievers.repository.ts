import type { Db } from '../../db/database.ts';
import type { AchieverTable } from '../../db/schema.ts';

// The only SQL of the achievers gallery.

export const listAchieverRows = (db: Db) =>
  db.selectFrom('achievers').selectAll().orderBy('created_at', 'desc').limit(500).execute();

export const findAchiever = (db: Db, id: string) =>
  db.selectFrom('achievers').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertAchiever(trx: Db, row: AchieverTable): Promise<void> {
  await trx.insertInto('achievers').values(row).execute();
}

export async function deleteAchiever(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('achievers').where('id', '=', id).execute();
}
