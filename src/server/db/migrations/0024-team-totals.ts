import { type Kysely, sql } from 'kysely';

// Team issue ("team business is computed in SQL ... 50 ms p99"): each member's team figures are stored
// running totals, one row per user, kept in the same transaction as every event that changes them
// (team-totals.repository.ts): a sign-up adds 1 to the team size of each member up the sponsor chain, an
// investment adds its amount to their team business, an erased member is taken off again. Sponsors
// and roles never change after sign-up, and investments are never deleted or changed in amount, so
// these are all the events. Reading a team's figures is then one row, whatever the team's size.
// - invested_cents: the user's own investments (sum of their topups.amount_cents);
// - team_size, team_business_cents: the members below them, every level, and what those invested;
// - direct_count: their direct members.
// Only members (role 'user') are in a team, as the recursive queries counted it: the walk down stops
// at anyone who is not a member, so the walk up stops there too.
// The backfill is the recursive query the team read before (every user with every member below it).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team_totals')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('invested_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('team_size', 'integer', (c) => c.notNull().defaultTo(0).check(sql`team_size >= 0`))
    .addColumn('team_business_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('direct_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`direct_count >= 0`))
    .execute();
  await backfillTeamTotals(db);
  // The rank holders (membersWithBusiness): members by team business, highest first.
  await db.schema
    .createIndex('team_totals_business')
    .on('team_totals')
    .columns(['team_business_cents', 'user_id'])
    .execute();
}

/**
 * Fills team_totals from users, topups and principal withdrawals, for every user; the bench uses it
 * after a bulk load, and migration 0033 to take withdrawn principal out. A principal withdrawal that is
 * pending or paid no longer counts as an investment (docs/rules.md "Team figures").
 */
export async function backfillTeamTotals(db: Kysely<unknown>): Promise<void> {
  await sql`insert into team_totals (user_id, invested_cents, team_size, team_business_cents, direct_count)
    with recursive closure(anc, id, dist) as (
      select id, id, 0 from users
      union all
      select c.anc, u.id, c.dist + 1 from users u join closure c on u.sponsor_id = c.id
      where u.role || '' = 'user' and c.dist < 10000
    ),
    invested as (
      select user_id, sum(cents) as cents from (
        select user_id, amount_cents as cents from topups
        union all
        select user_id, -amount_cents from withdrawals
        where kind = 'principal' and status in ('pending', 'approved')
      ) moves group by user_id
    )
    select c.anc,
      coalesce(sum(case when c.dist = 0 then i.cents else 0 end), 0),
      count(*) - 1,
      coalesce(sum(case when c.dist > 0 then i.cents else 0 end), 0),
      sum(case when c.dist = 1 then 1 else 0 end)
    from closure c left join invested i on i.user_id = c.id
    group by c.anc`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_totals').execute();
}
