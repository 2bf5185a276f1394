import { type Kysely, sql } from 'kysely';

// The daily income run (docs/rules.md "Daily income"):
// - income_runs.final: a completed run is final only when it started after its date ended (UTC). A run
//   of a date still under way pays what is active then and leaves the date open: a later run of it
//   pays what is still unpaid. A run completed before this column counts as final when it started
//   after its date, else it stays open for the next run.
// - income_runs.level_percents: the ROI level list (basis points, level 1 first, as JSON) the date is
//   paid with, kept when the date's first run starts, so a change during a run (each chunk is its own
//   transaction) or between two runs of the date never pays one date under two lists. Dates run before
//   this column take the list in force when they are next run.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('income_runs')
    .addColumn('final', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('income_runs').addColumn('level_percents', 'text').execute();
  await sql`update income_runs set final = 1
    where status = 'completed' and substr(started_at, 1, 10) > run_date`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('income_runs').dropColumn('level_percents').execute();
  await db.schema.alterTable('income_runs').dropColumn('final').execute();
}
