import { type Kysely, sql } from 'kysely';

// The spec's DELETE /leadership/{id} and PUT /cto/{id} ("used as a delete"): an admin's exclusions of a
// member from the leadership list or from the CTO shares of the months not yet paid. The list and the
// qualifiers are computed, and a paid month is in the ledger, so nothing is deleted: an exclusion is a
// row, one per (member, scope), removed again by a restore. Both are audited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rank_exclusions')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('leadership', 'cto')`))
    .addColumn('reason', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rank_exclusions_pk', ['user_id', 'scope'])
    .execute();
  await db.schema
    .createIndex('rank_exclusions_scope')
    .on('rank_exclusions')
    .columns(['scope', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rank_exclusions').execute();
}
