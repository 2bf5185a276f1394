import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { NewsTable } from '../../db/schema.ts';

// The only SQL of news.

/** Newest first: a published item by when it was published, a draft by when it was written. */
export const listNewsRows = (db: Db, { publishedOnly, limit }: { publishedOnly: boolean; limit: number }) => {
  let query = db.selectFrom('news').selectAll();
  if (publishedOnly) query = query.where('published_at', 'is not', null);
  return query
    .orderBy(sql`coalesce(published_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
};

export const findNews = (db: Db, id: string) =>
  db.selectFrom('news').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertNews(trx: Db, row: NewsTable): Promise<void> {
  await trx.insertInto('news').values(row).execute();
}

export async function updateNews(trx: Db, id: string, change: Partial<NewsTable>): Promise<void> {
  await trx.updateTable('news').set(change).where('id', '=', id).execute();
}

export async function deleteNews(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('news').where('id', '=', id).execute();
}
