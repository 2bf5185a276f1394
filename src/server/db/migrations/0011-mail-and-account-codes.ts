import type { Kysely } from 'kysely';

// Issue 14: the mail outbox, password-reset links and e-mailed codes.
// - mail_outbox: written in the same transaction as what caused the mail; a worker sends it. A row is
//   claimed by moving next_attempt_at forward with a guarded update (a lease), so two server instances
//   on one database never send the same mail, and a crashed sender's claim simply runs out.
// - password_resets: only the sha256 of the link's token is kept; used_at makes it single use.
// - email_codes: one live code per (member, purpose), hashed; a new code replaces the old one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('mail_outbox_to')
    .on('mail_outbox')
    .columns(['to_address', 'created_at'])
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('email_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_codes_pk', ['user_id', 'purpose'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['email_codes', 'password_resets', 'mail_outbox'])
    await db.schema.dropTable(table).execute();
}
