import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 17, achievers (RULES.md: an admin-curated gallery of photo, name and rank, shown to members).
// uploads.purpose gains 'achiever' (the photo, which every signed-in person may see, as a banner). SQLite
// cannot change a check constraint in place, so its uploads table is rebuilt with the same rows, as 0017 did.

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;
const PURPOSES = sql`purpose in ('banner', 'ticket', 'deposit', 'achiever')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('achievers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rank', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('achievers_created').on('achievers').column('created_at').execute();

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
  await db.schema.dropTable('achievers').execute();
}
