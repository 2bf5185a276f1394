import { sql } from 'kysely';
import { type Db, isPostgres } from '../../db/database.ts';

// The stored team figures (migration 0024): every event that changes a team's size or business calls
// one of these in its own transaction, so a committed sign-up or investment is always in the totals
// and a rolled-back one never is. The figures of a member are then read from one row.
//
// Who is above a member: their sponsor, that sponsor's sponsor and so on, as long as the one passed
// through is a member (role 'user'): the team walk down stops at anyone who is not a member (an
// admin's own team is every member below them, but an admin is in nobody's team).
//
// PostgreSQL: each event updates every row up the chain, so two investments in one downline both
// update the rows of their common upline (the root's row: every investment). The rows are locked in
// id order before they change, so two events never take them in opposite orders (no deadlock); they
// queue on the shared rows until the first commits. Callers run this last in their transaction, so
// the rows are held for as short a time as possible. SQLite runs one writer at a time.

/** A guard against a sponsor chain that loops: no real team is this deep. */
const MAX_LEVELS = 10_000;

/** The ids above a member, nearest first: their sponsor, and on while the one passed through is a member. */
async function upline(trx: Db, memberId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`with recursive up(id, dist) as (
      select u.sponsor_id, 1 from users u
      where u.id = ${memberId} and u.role = 'user' and u.sponsor_id is not null
      union all
      select s.sponsor_id, up.dist + 1 from up join users s on s.id = up.id
      where s.role = 'user' and s.sponsor_id is not null and up.dist < ${MAX_LEVELS}
    )
    select id from up order by dist`.execute(trx);
  return rows.map((r) => r.id);
}

/** Adds to the totals of `ids` (the upline of a member), locking their rows in id order first on PostgreSQL. */
async function addToUpline(
  trx: Db,
  ids: string[],
  change: { teamSize: number; businessCents: number; directOf?: string; direct?: number },
): Promise<void> {
  if (ids.length === 0) return;
  const sorted = [...new Set(ids)].sort();
  if (isPostgres(trx))
    await sql`select user_id from team_totals where user_id in (${sql.join(sorted)}) order by user_id for no key update`.execute(
      trx,
    );
  await trx
    .updateTable('team_totals')
    .set((eb) => ({
      team_size: eb('team_size', '+', change.teamSize),
      team_business_cents: eb('team_business_cents', '+', change.businessCents),
      direct_count:
        change.directOf === undefined
          ? eb.ref('direct_count')
          : sql<number>`direct_count + case when user_id = ${change.directOf} then ${change.direct ?? 0} else 0 end`,
    }))
    .where('user_id', 'in', sorted)
    .execute();
}

/** A new user (just inserted, same transaction): their own row, and one more in each team above them. */
export async function teamTotalsOnJoin(trx: Db, userId: string): Promise<void> {
  await trx
    .insertInto('team_totals')
    .values({ user_id: userId, invested_cents: 0, team_size: 0, team_business_cents: 0, direct_count: 0 })
    .execute();
  const up = await upline(trx, userId);
  await addToUpline(trx, up, { teamSize: 1, businessCents: 0, directOf: up[0], direct: 1 });
}

/** A new investment of `cents` for `userId` (its topups row inserted in the same transaction). */
export async function teamTotalsOnInvestment(trx: Db, userId: string, cents: number): Promise<void> {
  const up = await upline(trx, userId);
  const ids = [userId, ...up];
  if (isPostgres(trx))
    await sql`select user_id from team_totals where user_id in (${sql.join([...ids].sort())}) order by user_id for no key update`.execute(
      trx,
    );
  await trx
    .updateTable('team_totals')
    .set({ invested_cents: (eb) => eb('invested_cents', '+', cents) })
    .where('user_id', '=', userId)
    .execute();
  await addToUpline(trx, up, { teamSize: 0, businessCents: cents });
}

/**
 * A principal withdrawal of `cents` requested by `userId` (same transaction as its hold): the principal
 * is on its way out, so it no longer counts as their investment nor in any team above them; otherwise
 * the same dollars could be withdrawn and invested again to climb the reward ladder twice. Lowered at
 * the request, not at payout: a reward claimed while the request waits cannot count money leaving.
 */
export async function teamTotalsOnPrincipalOut(trx: Db, userId: string, cents: number): Promise<void> {
  await teamTotalsOnInvestment(trx, userId, -cents);
}

/** A principal withdrawal rejected or cancelled (same transaction as its hold is voided): the principal counts again. */
export async function teamTotalsOnPrincipalBack(trx: Db, userId: string, cents: number): Promise<void> {
  await teamTotalsOnInvestment(trx, userId, cents);
}

/**
 * A user about to be erased (before their users row goes, same transaction): their row goes, and they
 * and their team, with what those invested, are taken off every team above them.
 */
export async function teamTotalsOnErase(trx: Db, userId: string): Promise<void> {
  const own = await trx
    .selectFrom('team_totals as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.invested_cents', 't.team_size', 't.team_business_cents'])
    .where('t.user_id', '=', userId)
    .where('u.role', '=', 'user')
    .executeTakeFirst();
  if (!own) return;
  const up = await upline(trx, userId);
  await addToUpline(trx, up, {
    teamSize: -(1 + Number(own.team_size)),
    businessCents: -(Number(own.invested_cents) + Number(own.team_business_cents)),
    directOf: up[0],
    direct: -1,
  });
  await trx.deleteFrom('team_totals').where('user_id', '=', userId).execute();
}
