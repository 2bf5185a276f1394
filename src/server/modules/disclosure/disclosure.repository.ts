import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';

// The only SQL of the income disclosure: grouped in the database, never a row per member in memory.
// Income is every ledger transfer out of the platform's income account into a member's account.

const MOVED = sql`('single', 'post')`;

/** Per-member income in [from, to), for members who joined before `to`: each member's total, as a subquery. */
const memberTotals = (fromIso: string, toIso: string) => sql`
  select u.id, coalesce(i.cents, 0) as cents from users u
  left join (
    select a.user_id, sum(t.amount_cents) as cents from ledger_transfers t
    join ledger_accounts a on a.id = t.credit_account_id
    where t.debit_account_id = ${PLATFORM.income} and t.phase in ${MOVED}
      and t.created_at >= ${fromIso} and t.created_at < ${toIso}
    group by a.user_id
  ) i on i.user_id = u.id
  where u.role = 'user' and u.created_at < ${toIso}`;

/** How many members fall in each band ([fromCents, toCents), the last open-ended). */
export async function bandCounts(
  db: Db,
  fromIso: string,
  toIso: string,
  bands: readonly { id: string; fromCents: number; toCents: number | null }[],
): Promise<Map<string, number>> {
  // The bands are our constants, written into the statement as literals (PostgreSQL cannot type a
  // parameter in a CASE result), and grouped by the alias of a subquery.
  const cases = sql.join(
    bands.map((b) =>
      b.toCents === null
        ? sql`when cents >= ${sql.lit(b.fromCents)} then ${sql.lit(b.id)}`
        : sql`when cents >= ${sql.lit(b.fromCents)} and cents < ${sql.lit(b.toCents)} then ${sql.lit(b.id)}`,
    ),
    sql` `,
  );
  const { rows } = await sql<{ band: string; members: string | number }>`
    select band, count(*) as members from (
      select case ${cases} end as band from (${memberTotals(fromIso, toIso)}) m
    ) b group by band`.execute(db);
  return new Map(rows.map((r) => [r.band, Number(r.members)]));
}

/** The one or two middle totals of `count` members (ordered), for the median. */
export async function middleTotals(db: Db, fromIso: string, toIso: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const offset = Math.floor((count - 1) / 2);
  const take = count % 2 === 0 ? 2 : 1;
  const { rows } = await sql<{ cents: string | number }>`
    select cents from (${memberTotals(fromIso, toIso)}) m order by cents limit ${take} offset ${offset}`.execute(
    db,
  );
  return rows.map((r) => Number(r.cents));
}

/** Money out of a platform account (income paid, or deposits credited) in [from, to). */
export async function paidFrom(db: Db, accountId: string, fromIso: string, toIso: string): Promise<number> {
  const { rows } = await sql<{ cents: string | number | null }>`
    select sum(amount_cents) as cents from ledger_transfers
    where debit_account_id = ${accountId} and phase in ${MOVED} and created_at >= ${fromIso} and created_at < ${toIso}`.execute(
    db,
  );
  return Number(rows[0]?.cents ?? 0);
}
