import { sql } from 'kysely';
import { type Db, isPostgres } from '../../db/database.ts';
import type { LevelPercentTable } from '../../db/schema.ts';

// Who earns a share of a payment up the sponsor line: the one place where RULES.md "Daily income"'s
// qualification rule lives, used by the activation income of a top-up (one source) and by the daily
// run's level income (thousands of ROI payments at once, set-based).
//
// At level L an upline earns `percent(L)` of the source's cents, rounded down to the cent, when they
// are a member (never an admin), unblocked, active, with level income open, and have at least L active
// direct members (the source's owner counts). One who does not qualify is skipped; the money is not
// passed further up.
//
// The caller fills `income_sources` (source_id, owner_id, owner_name, cents) in its transaction, calls
// fillLevelEarners, and reads `income_earners`. Both are temporary tables of the connection, emptied
// at each use, so they never outlive the transaction's work or leak between callers.

export type LevelEarner = {
  source_id: string;
  owner_id: string;
  owner_name: string;
  user_id: string;
  level: number;
  percent_bp: number;
  amount_cents: number;
};

/** Creates this connection's work tables when missing; `trx` is a transaction (one connection). */
async function ensureWorkTables(trx: Db): Promise<void> {
  await sql`create temp table if not exists income_sources (source_id text primary key, owner_id text not null,
    owner_name text not null, cents bigint not null)`.execute(trx);
  await sql`create temp table if not exists income_line (source_id text not null, level integer not null,
    upline_id text not null)`.execute(trx);
  await sql`create temp table if not exists income_earners (source_id text not null, owner_id text not null,
    owner_name text not null, user_id text not null, level integer not null, percent_bp integer not null,
    amount_cents bigint not null)`.execute(trx);
  await sql`create temp table if not exists income_directs (user_id text primary key, active_directs integer not null)`.execute(
    trx,
  );
  await sql`create temp table if not exists income_percents (level integer primary key, percent_bp integer not null)`.execute(
    trx,
  );
}

/** Empties the work tables (creating them on this connection's first use). */
export async function resetLevelWork(trx: Db): Promise<void> {
  await ensureWorkTables(trx);
  // PostgreSQL deletes row by row; truncate empties a table at once (SQLite's bare delete already does).
  if (isPostgres(trx))
    await sql`truncate income_sources, income_line, income_earners, income_directs, income_percents`.execute(
      trx,
    );
  else
    for (const table of [
      'income_sources',
      'income_line',
      'income_earners',
      'income_directs',
      'income_percents',
    ])
      await sql`delete from ${sql.table(table)}`.execute(trx);
}

/**
 * PostgreSQL plans joins from table statistics, which temporary tables only get from analyze: without
 * them it guesses their sizes and may scan a large table once per row.
 */
export async function analyzeWork(trx: Db, tables: string[]): Promise<void> {
  if (isPostgres(trx)) for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(trx);
}

export async function addLevelSource(
  trx: Db,
  source: { source_id: string; owner_id: string; owner_name: string; cents: number },
): Promise<void> {
  await sql`insert into income_sources (source_id, owner_id, owner_name, cents)
    values (${source.source_id}, ${source.owner_id}, ${source.owner_name}, ${source.cents})`.execute(trx);
}

/**
 * Fills income_earners from income_sources by a level list: `percents` (basis points, level 1 first)
 * when the caller kept one (the daily run pays a date by the list its first run started with), else the
 * list `kind` as it stands in this transaction. Returns how many earn.
 */
export async function fillLevelEarners(
  trx: Db,
  kind: LevelPercentTable['kind'],
  percents?: readonly number[],
): Promise<number> {
  if (percents === undefined)
    await sql`insert into income_percents (level, percent_bp)
      select level, percent_bp from level_percents where kind = ${kind}`.execute(trx);
  else if (percents.length > 0)
    await sql`insert into income_percents (level, percent_bp) values ${sql.join(
      percents.map((bp, index) => sql`(${index + 1}, ${bp})`),
    )}`.execute(trx);
  const top = await sql<{
    levels: number | string | null;
  }>`select max(level) as levels from income_percents`.execute(trx);
  const levels = Number(top.rows[0]?.levels ?? 0);
  if (levels === 0) return 0;
  // The sponsor line, one level per statement (a sponsor is set once, at registration, to an existing
  // member, so the line has no cycles).
  await sql`insert into income_line (source_id, level, upline_id)
    select s.source_id, 1, u.sponsor_id from income_sources s join users u on u.id = s.owner_id
    where u.sponsor_id is not null`.execute(trx);
  for (let level = 2; level <= levels; level += 1) {
    await sql`insert into income_line (source_id, level, upline_id)
      select l.source_id, cast(${level} as integer), u.sponsor_id from income_line l join users u on u.id = l.upline_id
      where l.level = ${level - 1} and u.sponsor_id is not null`.execute(trx);
  }
  await analyzeWork(trx, ['income_sources', 'income_line']);
  // Each upline's active direct members, counted through the sponsor index. `role || ''` keeps the
  // planner off the (role, created_at) index: SQLite took it and read every member for each upline.
  await sql`insert into income_directs (user_id, active_directs)
    select x.upline_id, (select count(d.id) from users d
      where d.sponsor_id = x.upline_id and d.is_active = 'active' and d.role || '' = 'user')
    from (select distinct upline_id from income_line) x`.execute(trx);
  const result =
    await sql`insert into income_earners (source_id, owner_id, owner_name, user_id, level, percent_bp, amount_cents)
    select s.source_id, s.owner_id, s.owner_name, l.upline_id, l.level, p.percent_bp, s.cents * p.percent_bp / 10000
    from income_line l
    join income_sources s on s.source_id = l.source_id
    join income_percents p on p.level = l.level
    join users u on u.id = l.upline_id
    join income_directs d on d.user_id = l.upline_id
    where u.role = 'user' and u.status = 'unblock' and u.is_active = 'active' and u.level_status = 'open'
      and d.active_directs >= l.level and s.cents * p.percent_bp / 10000 > 0`.execute(trx);
  await analyzeWork(trx, ['income_earners']);
  return Number(result.numAffectedRows ?? 0);
}

export async function levelEarners(trx: Db): Promise<LevelEarner[]> {
  const { rows } =
    await sql<LevelEarner>`select source_id, owner_id, owner_name, user_id, level, percent_bp, amount_cents
    from income_earners order by source_id, level`.execute(trx);
  return rows.map((row) => ({
    ...row,
    level: Number(row.level),
    percent_bp: Number(row.percent_bp),
    amount_cents: Number(row.amount_cents),
  }));
}
