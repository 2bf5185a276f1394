import type { Kysely } from 'kysely';

// Issue 17, self-trade (docs/rules.md "Self-trade"): the market pair a member follows. One current value
// per member, read with the member's row that every session already loads (it is part of the `auth`
// object), so two nullable columns on users rather than a table: no join, no second row to keep in step.
// No history is kept here; an admin's change is in the audit log with before and after.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('self_trade_pair', 'text').execute();
  await db.schema.alterTable('users').addColumn('self_trade_updated_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('self_trade_updated_at').execute();
  await db.schema.alterTable('users').dropColumn('self_trade_pair').execute();
}
