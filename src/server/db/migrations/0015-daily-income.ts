import { type Kysely, sql } from 'kysely';
import { addDays, dateOf } from '../../../shared/dates.ts';

// Issue 15: the daily income run (RULES.md "Daily income").
// - income_runs: one row per UTC date, its primary key the run's lock: whoever inserts it (or takes
//   over a failed run, or one whose lease ran out because its server died) pays that date; a
//   completed date pays nothing more. It keeps the totals, who started it and why it failed.
// - roi_payments: one row per (investment, date), unique: a date can never pay an investment twice.
//   Its id is 'roi:<topup>:<date>' and is also the id of the ledger transfer that paid it.
// - level_incomes: one row per (ROI payment, earner, level), unique; id 'lvl:<roi payment>:<level>',
//   also the ledger transfer's id.
// - topups.roi_end_date: the last date an investment earns (its purchase date + duration - 1), so
//   the run's statements compare dates as text on both databases.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('income_runs')
    .addColumn('run_date', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'completed', 'failed')`))
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('schedule', 'admin')`))
    .addColumn('started_by', 'text', (c) => c.references('users.id'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('investments_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('roi_total_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('level_total_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('level_payments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('income_runs_status').on('income_runs').column('status').execute();

  await db.schema
    .createTable('roi_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('topup_id', 'text', (c) => c.notNull().references('topups.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('run_date', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('roi_payments_once')
    .on('roi_payments')
    .columns(['topup_id', 'run_date'])
    .unique()
    .execute();
  await db.schema
    .createIndex('roi_payments_user')
    .on('roi_payments')
    .columns(['user_id', 'run_date'])
    .execute();

  await db.schema
    .createTable('level_incomes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('roi_payment_id', 'text', (c) => c.notNull())
    .addColumn('source_user_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull().check(sql`level >= 1`))
    .addColumn('percent_bp', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('run_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('level_incomes_once')
    .on('level_incomes')
    .columns(['roi_payment_id', 'user_id', 'level'])
    .unique()
    .execute();
  await db.schema
    .createIndex('level_incomes_user')
    .on('level_incomes')
    .columns(['user_id', 'run_date'])
    .execute();

  await db.schema.alterTable('topups').addColumn('roi_end_date', 'text').execute();
  const topups = await db
    .selectFrom('topups' as never)
    .select(['id', 'created_at', 'duration_days'] as never[])
    .execute();
  for (const row of topups as { id: string; created_at: string; duration_days: number }[]) {
    await db
      .updateTable('topups' as never)
      .set({ roi_end_date: addDays(dateOf(row.created_at), Number(row.duration_days) - 1) } as never)
      .where('id' as never, '=', row.id as never)
      .execute();
  }
  await db.schema.createIndex('topups_status_id').on('topups').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('topups_status_id').execute();
  await db.schema.alterTable('topups').dropColumn('roi_end_date').execute();
  for (const table of ['level_incomes', 'roi_payments', 'income_runs'])
    await db.schema.dropTable(table).execute();
}
