import { type Kysely, sql } from 'kysely';

// Support tickets (RULES.md "Notifications and tickets"; docs/rules.md "Support tickets"). One model serves
// both the ticket calls and the older /support calls of spec 7.
// - tickets: the member's question (subject, category, first message, optional image) and its status.
//   last_reply_by / last_reply_at say who is waiting for whom. Nothing is ever deleted: closing keeps it.
// - ticket_responses: the thread, in order; each answer is the member's or an admin's.
// Images are stored by the uploads module; a row keeps only the generated name.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tickets')
    .addColumn('ticket_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('open', 'in_progress', 'resolved', 'closed')`),
    )
    .addColumn('last_reply_by', 'text', (c) => c.notNull().check(sql`last_reply_by in ('user', 'admin')`))
    .addColumn('last_reply_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tickets_user').on('tickets').columns(['user_id', 'updated_at']).execute();
  await db.schema.createIndex('tickets_status').on('tickets').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('tickets_updated').on('tickets').column('updated_at').execute();

  await db.schema
    .createTable('ticket_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.ticket_id'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('author_role', 'text', (c) => c.notNull().check(sql`author_role in ('user', 'admin')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_responses_thread')
    .on('ticket_responses')
    .columns(['ticket_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ticket_responses').execute();
  await db.schema.dropTable('tickets').execute();
}
