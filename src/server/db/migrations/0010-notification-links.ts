import { type Kysely, sql } from 'kysely';

// Notifications that open what they are about (issue 22 items 3 and 9), the same on SQLite and PostgreSQL.
// - link: a path inside the member's app (always under /user/) that tapping the notification opens;
//   null for an admin's broadcast, which opens in the list itself.
// - origin: 'broadcast' for what an admin writes and sends (POST /notifications), 'system' for what the
//   app sends one member on its own (a ticket answer, money received, a deposit credited, an adjustment).
//   Existing rows: a broadcast has its 'notification.create' audit row; every other row came from the
//   ticket desk, so it is a system one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('notifications')
    .addColumn('link', 'text', (c) => c.check(sql`link like '/user/%'`))
    .execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('origin', 'text', (c) =>
      c.notNull().defaultTo('broadcast').check(sql`origin in ('broadcast', 'system')`),
    )
    .execute();
  await sql`update notifications set origin = 'system' where not exists (
      select 1 from audit_log a where a.action = 'notification.create' and a.target_id = notifications.id
    )`.execute(db);
  await db.schema
    .createIndex('notifications_origin_created')
    .on('notifications')
    .columns(['origin', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_origin_created').execute();
  await db.schema.alterTable('notifications').dropColumn('origin').execute();
  await db.schema.alterTable('notifications').dropColumn('link').execute();
}
