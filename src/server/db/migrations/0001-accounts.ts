import { type Kysely, sql } from 'kysely';

// Users, sessions, rate-limit counters and server secrets: the accounts foundation.
// Column types that both SQLite and PostgreSQL understand, so one migration serves both.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'admin')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('unblock').check(sql`status in ('unblock', 'block')`),
    )
    .addColumn('is_active', 'text', (c) =>
      c.notNull().defaultTo('inactive').check(sql`is_active in ('active', 'inactive')`),
    )
    .addColumn('roi_status', 'text', (c) =>
      c.notNull().defaultTo('open').check(sql`roi_status in ('open', 'close')`),
    )
    .addColumn('level_status', 'text', (c) =>
      c.notNull().defaultTo('open').check(sql`level_status in ('open', 'close')`),
    )
    .addColumn('address', 'text')
    .addColumn('business_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('business_balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fullname', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('reffer_by', 'text')
    .addColumn('sponsor_id', 'text', (c) => c.references('users.id'))
    .addColumn('refferal_code', 'text', (c) => c.notNull().unique())
    .addColumn('last_login', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('verify_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('activation_date', 'text')
    .addColumn('paid_member', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('level_month', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('roi_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_team', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bep20', 'text')
    .addColumn('trc20', 'text')
    .execute();
  // Usernames are unique whatever their case, so "Alice" cannot pose as "alice".
  await sql`create unique index users_username_lower on users (lower(username))`.execute(db);
  await db.schema.createIndex('users_sponsor_id').on('users').column('sponsor_id').execute();
  await db.schema.createIndex('users_role_created').on('users').columns(['role', 'created_at']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['app_secrets', 'rate_limits', 'sessions', 'users'])
    await db.schema.dropTable(table).execute();
}
