import { type Kysely, sql } from 'kysely';

// The idle timeout beside the absolute lifetime (docs/rules.md "Settings"): each session keeps when it
// was last used and the idle timeout in force when it was made (as it keeps its lifetime in
// expires_at). A session made before this column counts as used at its sign-in, with the default idle
// timeout of its role.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('last_seen_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('idle_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update sessions set last_seen_at = created_at,
    idle_seconds = case when role = 'admin' then 1800 else 7200 end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('idle_seconds').execute();
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
}
