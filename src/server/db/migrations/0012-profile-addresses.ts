import type { Kysely } from 'kysely';

// Issue 14, the member's profile:
// - email_codes.used_at: a code is marked used (not deleted) by the call it guards, so trying it again
//   says "already used" rather than "ask for a code first".
// - payout_address_changes: when each payout address was last set and by whom. RULES.md: an address
//   the member saved is usable for withdrawals 24 hours later, one an admin set at once; usable_from
//   says which, so the withdrawals issue compares one column. One row per (member, network).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_codes').addColumn('used_at', 'text').execute();
  await db.schema
    .createTable('payout_address_changes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_by_role', 'text', (c) => c.notNull())
    .addColumn('usable_from', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_address_changes_pk', ['user_id', 'network'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payout_address_changes').execute();
  await db.schema.alterTable('email_codes').dropColumn('used_at').execute();
}
