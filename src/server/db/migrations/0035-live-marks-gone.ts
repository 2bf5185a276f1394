import type { Kysely } from 'kysely';

// The live channel on SQLite no longer writes a mark row per announcement: the group commit runs an
// announcement once its transaction is durable (group-commit.ts, afterCommit), two statements fewer
// for every notification. Marks left by a crash announced nothing and are dropped with the table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_event_marks').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('live_event_marks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
