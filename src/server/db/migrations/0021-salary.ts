import { type Kysely, sql } from 'kysely';

// Issue 17 item 3, salary (RULES.md: monthly tiers by new team business in the month and active directs,
// paid on the 1st for the month before, once).
// - salary_tiers: what an admin keeps; a tier with payments is never deleted (their history names it).
// - salary_payments: unique per (member, month): whoever inserts it pays that member that month, once,
//   whatever races, retries or servers; its id is the paying ledger transfer's, written in the same
//   transaction. It keeps the tier's name and amount as paid, and the figures that qualified.
// - salary_runs: one row per month, for the scheduler (a month to catch up, a run whose server died:
//   its lease ran out) and the dashboard (the last run). It only keeps servers from repeating work;
//   the payments' unique key is what pays once.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('salary_tiers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('min_business_cents', 'bigint', (c) => c.notNull().check(sql`min_business_cents > 0`))
    .addColumn('min_active_directs', 'integer', (c) => c.notNull().check(sql`min_active_directs >= 0`))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('salary_tiers_name').on('salary_tiers').column('name').unique().execute();
  await db.schema
    .createTable('salary_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('tier_id', 'text', (c) => c.notNull().references('salary_tiers.id'))
    .addColumn('tier_name', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('new_business_cents', 'bigint', (c) => c.notNull())
    .addColumn('active_directs', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('schedule', 'admin')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('salary_payments_once')
    .on('salary_payments')
    .columns(['user_id', 'month'])
    .unique()
    .execute();
  await db.schema.createIndex('salary_payments_month').on('salary_payments').column('month').execute();
  await db.schema.createIndex('salary_payments_created').on('salary_payments').column('created_at').execute();
  await db.schema.createIndex('salary_payments_tier').on('salary_payments').column('tier_id').execute();
  await db.schema
    .createTable('salary_runs')
    .addColumn('month', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'completed', 'failed')`))
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('schedule', 'admin')`))
    .addColumn('started_by', 'text', (c) => c.references('users.id'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('lease_until_ms', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('members_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('salary_runs').execute();
  await db.schema.dropTable('salary_payments').execute();
  await db.schema.dropTable('salary_tiers').execute();
}
