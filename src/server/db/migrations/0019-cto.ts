import { type Kysely, sql } from 'kysely';

// Issue 17, CTO (RULES.md: a share of the month's deposits split equally among the members holding the
// top two ranks, paid when an admin presses Pay, once a month). cto_payments' primary key is the month:
// whoever inserts it pays that month, once, whatever races or retries; cto_payouts is unique per
// (month, member) and its id is the paying ledger transfer's.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cto_payments')
    .addColumn('month', 'text', (c) => c.primaryKey())
    .addColumn('deposits_cents', 'bigint', (c) => c.notNull())
    .addColumn('share_bp', 'integer', (c) => c.notNull())
    .addColumn('pool_cents', 'bigint', (c) => c.notNull())
    .addColumn('members', 'integer', (c) => c.notNull().check(sql`members > 0`))
    .addColumn('per_member_cents', 'bigint', (c) => c.notNull().check(sql`per_member_cents > 0`))
    .addColumn('paid_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('paid_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('cto_payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('month', 'text', (c) => c.notNull().references('cto_payments.month'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('rank', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cto_payouts_once')
    .on('cto_payouts')
    .columns(['month', 'user_id'])
    .unique()
    .execute();
  await db.schema.createIndex('cto_payouts_user').on('cto_payouts').columns(['user_id', 'month']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cto_payouts').execute();
  await db.schema.dropTable('cto_payments').execute();
}
