import { type Kysely, sql } from 'kysely';
import { backfillTeamTotals } from './0024-team-totals.ts';

// Principal that may leave the platform (docs/rules.md "Team figures", "Withdrawals"):
// - a principal withdrawal, pending or paid, no longer counts in team business: the stored totals are
//   computed again from the data with the withdrawn principal taken out (the running totals take it
//   out at each request from now on);
// - activation_codes.funding: 'promotional' (the platform gave the principal: it earns, but is never
//   paid out in cash) or 'paid' (the member paid for the code outside the platform: withdrawable).
//   Every code made before is promotional, the safe reading: nobody recorded that one was paid for.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from team_totals`.execute(db);
  await backfillTeamTotals(db);
  await db.schema
    .alterTable('activation_codes')
    .addColumn('funding', 'text', (c) =>
      c.notNull().defaultTo('promotional').check(sql`funding in ('promotional', 'paid')`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('activation_codes').dropColumn('funding').execute();
}
