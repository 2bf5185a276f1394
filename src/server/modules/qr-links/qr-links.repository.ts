import type { Db } from '../../db/database.ts';
import type { QrLinkTable } from '../../db/schema.ts';

// The only SQL of the QR links.

export const listQrLinkRows = (db: Db) =>
  db.selectFrom('qr_links').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(100).execute();

export const findQrLink = (db: Db, id: string) =>
  db.selectFrom('qr_links').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertQrLink(trx: Db, row: QrLinkTable): Promise<void> {
  await trx.insertInto('qr_links').values(row).execute();
}

export async function updateQrLink(trx: Db, id: string, change: Partial<QrLinkTable>): Promise<void> {
  await trx.updateTable('qr_links').set(change).where('id', '=', id).execute();
}

export async function deleteQrLink(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('qr_links').where('id', '=', id).execute();
}
