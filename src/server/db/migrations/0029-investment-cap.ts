import { type Kysely, sql } from 'kysely';

// Issue 19, the income cap as a setting (docs/rules.md "Settings"): each investment keeps the cap it
// was bought with, in cents, so an admin's change applies to investments made after it and never to
// part of one (a daily run pays in chunks, each its own transaction; a cap read per chunk would pay
// some investments of a date under the old cap and some under the new). Every investment made before
// this column had the fixed 200% cap.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('topups')
    .addColumn('roi_cap_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update topups set roi_cap_cents = 2 * amount_cents`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('topups').dropColumn('roi_cap_cents').execute();
}
