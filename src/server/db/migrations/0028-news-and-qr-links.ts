import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 19, news and QR links (docs/rules.md "News and QR links").
// - news: a title, a body and an optional picture (an upload's name); published_at null is a draft,
//   which only admins see. The list is read newest first by (published_at, created_at).
// - qr_links: a label and a value (an https link or a wallet address) shown to members as QR codes
//   where they deposit.
// - uploads.purpose gains 'news' (the picture, which every signed-in person may see, as an achiever's
//   photo). SQLite cannot change a check constraint in place, so its uploads table is rebuilt, as 0020 did.

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;
const PURPOSES = sql`purpose in ('banner', 'ticket', 'deposit', 'achiever', 'news')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('news')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('published_at', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('news_published').on('news').columns(['published_at', 'created_at']).execute();
  await db.schema
    .createTable('qr_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  if (isPostgres(db)) {
    await sql`alter table uploads drop constraint uploads_purpose_check`.execute(db);
    await sql`alter table uploads add constraint uploads_purpose_check check (${PURPOSES})`.execute(db);
    return;
  }
  await db.schema
    .createTable('uploads_new')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(PURPOSES))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into uploads_new select name, owner_id, purpose, content_type, size_bytes, width, height, created_at from uploads`.execute(
    db,
  );
  await db.schema.dropTable('uploads').execute();
  await sql`alter table uploads_new rename to uploads`.execute(db);
  await db.schema.createIndex('uploads_purpose').on('uploads').columns(['purpose', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('qr_links').execute();
  await db.schema.dropTable('news').execute();
}
