import type { Db } from '../../db/database.ts';
import type { UploadTable } from '../../db/schema.ts';

export async function insertUpload(db: Db, row: UploadTable): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

export async function findUpload(db: Db, name: string): Promise<UploadTable | undefined> {
  return db.selectFrom('uploads').selectAll().where('name', '=', name).executeTakeFirst();
}

/** The newest image stored for a purpose (the member dashboard's banner is the newest banner). */
export async function newestUpload(
  db: Db,
  purpose: UploadTable['purpose'],
): Promise<UploadTable | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .orderBy('name', 'desc')
    .limit(1)
    .executeTakeFirst();
}
