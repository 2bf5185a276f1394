import { type Kysely, sql } from 'kysely';

// Issue 17, rewards (RULES.md "Rewards, salary, CTO, leadership"): the reward ladder an admin keeps, and
// each member's claims. reward_claims is unique per (member, reward): a reward pays once, whatever
// races or retries; its id is also the id of the ledger transfer that paid it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reward_plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rank', 'text', (c) => c.notNull())
    .addColumn('business_needed_cents', 'bigint', (c) => c.notNull().check(sql`business_needed_cents > 0`))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reward_plans_rank').on('reward_plans').column('rank').unique().execute();
  await db.schema
    .createTable('reward_claims')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('reward_id', 'text', (c) => c.notNull().references('reward_plans.id'))
    .addColumn('rank', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('team_business_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reward_claims_once')
    .on('reward_claims')
    .columns(['user_id', 'reward_id'])
    .unique()
    .execute();
  await db.schema.createIndex('reward_claims_created').on('reward_claims').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reward_claims').execute();
  await db.schema.dropTable('reward_plans').execute();
}
