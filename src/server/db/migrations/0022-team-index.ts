import type { Kysely } from 'kysely';

// Team issue: the team's figures are recursive queries over users.sponsor_id (team.repository.ts). Each
// step of the recursion looks up a member's direct members and reads their id and role, then sums each
// member's investments: with these two indexes both are read from the index alone, not from the table
// rows (docs/performance.md, "Team"). users_sponsor_id is a prefix of the new users index, so it goes.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_sponsor_role_id')
    .on('users')
    .columns(['sponsor_id', 'role', 'id'])
    .execute();
  await db.schema.dropIndex('users_sponsor_id').execute();
  await db.schema
    .createIndex('topups_user_amount')
    .on('topups')
    .columns(['user_id', 'amount_cents'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('topups_user_amount').execute();
  await db.schema.createIndex('users_sponsor_id').on('users').column('sponsor_id').execute();
  await db.schema.dropIndex('users_sponsor_role_id').execute();
}
