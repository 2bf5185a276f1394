import type { Kysely } from 'kysely';

// The admin's member screens (issue 8) read the audit log newest first, by admin and by member, and
// count a sponsor's direct team (users_sponsor_id exists since 0001). No table changes.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_log_created').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('audit_log_actor_created')
    .on('audit_log')
    .columns(['actor_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_actor_created').execute();
  await db.schema.dropIndex('audit_log_created').execute();
}
