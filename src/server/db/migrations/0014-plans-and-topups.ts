import { type Kysely, sql } from 'kysely';

// Issue 15, first step: plans, level percents, top-ups (investments) and activation income.
// - plans: both kinds in one table (an activation plan is a fixed-price package: min = max). A plan
//   that has investments is never deleted (topups.plan_id references it), only made inactive.
// - level_percents: the activation and ROI level lists, level 1 first, in basis points (1.00 % = 100).
// - topups: one investment each, with what the daily income run needs kept on the row itself (the
//   plan's ROI rate and duration when it was bought, the ROI paid so far and the days paid), so a later
//   edit of the plan never changes an investment already made.
// - activation_codes: an admin's batch of codes, each worth one investment in a plan and amount, paid
//   by the platform (`platform:codes`); used_by is set once by a guarded update, so a code is redeemed
//   once even when two members try at the same moment.
// - activation_incomes: one row per payment; the unique (topup, earner, level) index makes paying the
//   same level twice for one top-up impossible, whatever the timing.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('plan', 'activation')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('min_amount_cents', 'bigint', (c) => c.notNull().check(sql`min_amount_cents > 0`))
    .addColumn('max_amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('roi_bp', 'integer', (c) => c.notNull().check(sql`roi_bp > 0 and roi_bp <= 10000`))
    .addColumn('duration_days', 'integer', (c) => c.notNull().check(sql`duration_days > 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'inactive')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('plans_min_max', sql`max_amount_cents >= min_amount_cents`)
    .execute();
  await db.schema.createIndex('plans_kind_status').on('plans').columns(['kind', 'status']).execute();

  await db.schema
    .createTable('level_percents')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('activation', 'roi')`))
    .addColumn('level', 'integer', (c) => c.notNull().check(sql`level >= 1`))
    .addColumn('percent_bp', 'integer', (c) =>
      c.notNull().check(sql`percent_bp >= 0 and percent_bp <= 10000`),
    )
    .addPrimaryKeyConstraint('level_percents_pk', ['kind', 'level'])
    .execute();
  // RULES.md defaults: activation [5], ROI levels [10, 5, 3, 2, 1].
  const defaults = [
    ['activation', [500]],
    ['roi', [1000, 500, 300, 200, 100]],
  ] as const;
  await db
    .insertInto('level_percents' as never)
    .values(
      defaults.flatMap(([kind, list]) =>
        list.map((percent_bp, index) => ({ kind, level: index + 1, percent_bp })),
      ) as never,
    )
    .execute();

  await db.schema
    .createTable('topups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('userby_id', 'text', (c) => c.references('users.id'))
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('topup', 'retopup', 'entry', 'code')`))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('roi_bp', 'integer', (c) => c.notNull())
    .addColumn('duration_days', 'integer', (c) => c.notNull())
    .addColumn('roi_paid_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('roi_days_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'completed')`))
    .addColumn('ledger_transfer_id', 'text', (c) => c.notNull().unique().references('ledger_transfers.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topups_user').on('topups').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('topups_userby').on('topups').columns(['userby_id', 'created_at']).execute();
  await db.schema.createIndex('topups_plan').on('topups').column('plan_id').execute();
  await db.schema.createIndex('topups_created').on('topups').column('created_at').execute();

  await db.schema
    .createTable('activation_incomes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('topup_id', 'text', (c) => c.notNull().references('topups.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('percent_bp', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('ledger_transfer_id', 'text', (c) => c.notNull().unique().references('ledger_transfers.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activation_incomes_once')
    .on('activation_incomes')
    .columns(['topup_id', 'user_id', 'level'])
    .unique()
    .execute();
  await db.schema
    .createIndex('activation_incomes_earner')
    .on('activation_incomes')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('activation_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_by', 'text', (c) => c.references('users.id'))
    .addColumn('used_at', 'text')
    .addColumn('topup_id', 'text', (c) => c.unique().references('topups.id'))
    .execute();
  await db.schema
    .createIndex('activation_codes_created')
    .on('activation_codes')
    .column('created_at')
    .execute();
  await db
    .insertInto('ledger_accounts' as never)
    .values({
      id: 'platform:codes',
      user_id: null,
      code: 'platform:codes',
      balance_cents: 0,
      held_cents: 0,
      allow_negative: 1,
      created_at: new Date().toISOString(),
    } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['activation_codes', 'activation_incomes', 'topups', 'level_percents', 'plans'])
    await db.schema.dropTable(table).execute();
}
