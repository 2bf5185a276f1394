import { type Kysely, sql } from 'kysely';

// Notifications (spec 3, RULES.md "Notifications and tickets"), uploaded images and live-event marks.
// - notifications: one row per notification an admin (or the ticket desk) sends. users = 1 means all
//   members registered when it was sent; otherwise notification_recipients lists the members.
// - notification_recipients: who a chosen-recipients notification is for, and each member's seen_at.
//   For an all-members notification a member's row is written when they first mark it seen, so the
//   seen state is per member either way.
// - uploads: every stored image (generated name, owner, purpose); the files live in DATA_DIR/uploads.
// - live_event_marks: on SQLite, a live event is announced only once its transaction has committed;
//   the mark written inside the transaction is the proof (see http/live-events.ts).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('users', 'integer', (c) => c.notNull().check(sql`users in (0, 1)`))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('notification', 'site_popup')`))
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_all_created')
    .on('notifications')
    .columns(['users', 'created_at'])
    .execute();

  await db.schema
    .createTable('notification_recipients')
    .addColumn('notification_id', 'text', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seen_at', 'text')
    .addPrimaryKeyConstraint('notification_recipients_pk', ['notification_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('notification_recipients_user')
    .on('notification_recipients')
    .columns(['user_id', 'notification_id'])
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('banner', 'ticket')`))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_purpose').on('uploads').columns(['purpose', 'created_at']).execute();

  await db.schema
    .createTable('live_event_marks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['live_event_marks', 'uploads', 'notification_recipients', 'notifications']) {
    await db.schema.dropTable(table).execute();
  }
}
