import { type Kysely, sql } from 'kysely';

// Member-to-member transfers live in the ledger (kind 'transfer'); their status is read from the
// ledger too (a single row is completed; a pending row is pending until its post or void).
// transfer_daily_totals counts what each member sent to others per UTC day: one guarded upsert keeps
// the daily limit under any number of concurrent requests, on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transfer_daily_totals')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addPrimaryKeyConstraint('transfer_daily_totals_pk', ['user_id', 'day'])
    .execute();
  await db.schema
    .createIndex('ledger_transfers_kind')
    .on('ledger_transfers')
    .columns(['kind', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ledger_transfers_kind').execute();
  await db.schema.dropTable('transfer_daily_totals').execute();
}
