import { sql } from 'kysely';
import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { type Db, isPostgres } from '../../db/database.ts';
import type { IncomeRunTable } from '../../db/schema.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';

// The only SQL of the daily income run. A date is paid in chunks of investments (by id), each chunk
// one transaction of set-based statements: the ROI payments, the investments' progress, the level
// income, the ledger rows and the balances commit together or not at all. The unique keys
// (roi_payments (topup_id, run_date), level_incomes (roi_payment_id, user_id, level), and the ids
// shared with ledger_transfers) make a second payment impossible whatever the timing; the run's
// lease only keeps two servers from doing the same work at once.

export const ROI_KIND: LedgerKind = 'roi';
export const LEVEL_INCOME_KIND: LedgerKind = 'level_income';

// ---- the run's row: claim, renew, finish ----

export type Claim = { kind: 'claimed'; resumed: boolean } | { kind: 'completed' } | { kind: 'busy' };

/**
 * Takes the date for `owner`: a new run, or a failed run, or one whose lease ran out (its server
 * died or stalled), or a completed run that is not final (it started before its date ended, so
 * investments bought later that day are still unpaid). A final date is done; a date another process
 * holds is busy. `levelPercents` (the ROI level list as JSON) is kept by the date's first run; a later
 * run of the date pays by the list kept.
 */
export async function claimRun(
  db: Db,
  input: {
    date: string;
    owner: string;
    trigger: IncomeRunTable['trigger'];
    startedBy: string | null;
    leaseMs: number;
    levelPercents: string;
  },
): Promise<Claim> {
  const nowMs = Date.now();
  const inserted = await db
    .insertInto('income_runs')
    .values({
      run_date: input.date,
      status: 'running',
      trigger: input.trigger,
      started_by: input.startedBy,
      started_at: new Date(nowMs).toISOString(),
      finished_at: null,
      lease_owner: input.owner,
      lease_until_ms: nowMs + input.leaseMs,
      attempts: 1,
      investments_paid: 0,
      roi_total_cents: 0,
      level_total_cents: 0,
      level_payments: 0,
      duration_ms: 0,
      error: null,
      final: 0,
      level_percents: input.levelPercents,
    })
    .onConflict((oc) => oc.column('run_date').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed', resumed: false };
  const taken = await db
    .updateTable('income_runs')
    .set({
      status: 'running',
      trigger: input.trigger,
      started_by: input.startedBy,
      lease_owner: input.owner,
      lease_until_ms: nowMs + input.leaseMs,
      attempts: sql`attempts + 1`,
      error: null,
      // A run of the date before this column existed had no list kept: the one in force now.
      level_percents: sql`coalesce(level_percents, ${input.levelPercents})`,
    })
    .where('run_date', '=', input.date)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'failed'),
        eb.and([eb('status', '=', 'running'), eb('lease_until_ms', '<', nowMs)]),
        eb.and([eb('status', '=', 'completed'), eb('final', '=', 0)]),
      ]),
    )
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed', resumed: true };
  const row = await findRun(db, input.date);
  return row?.status === 'completed' ? { kind: 'completed' } : { kind: 'busy' };
}

export async function findRun(db: Db, date: string): Promise<IncomeRunTable | undefined> {
  return db.selectFrom('income_runs').selectAll().where('run_date', '=', date).executeTakeFirst();
}

/** Extends the lease inside a chunk's transaction; false when another process took the date over. */
export async function renewLease(trx: Db, date: string, owner: string, leaseMs: number): Promise<boolean> {
  const result = await trx
    .updateTable('income_runs')
    .set({ lease_until_ms: Date.now() + leaseMs })
    .where('run_date', '=', date)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type ChunkTotals = {
  investments: number;
  roiCents: number;
  levelCents: number;
  levelPayments: number;
};

export async function addRunTotals(trx: Db, date: string, totals: ChunkTotals): Promise<void> {
  await trx
    .updateTable('income_runs')
    .set({
      investments_paid: sql`investments_paid + ${totals.investments}`,
      roi_total_cents: sql`roi_total_cents + ${totals.roiCents}`,
      level_total_cents: sql`level_total_cents + ${totals.levelCents}`,
      level_payments: sql`level_payments + ${totals.levelPayments}`,
    })
    .where('run_date', '=', date)
    .execute();
}

export async function finishRun(
  db: Db,
  date: string,
  owner: string,
  outcome: { status: 'completed' | 'failed'; error: string | null; elapsedMs: number; final: boolean },
): Promise<void> {
  await db
    .updateTable('income_runs')
    .set({
      status: outcome.status,
      final: outcome.final ? 1 : 0,
      error: outcome.error,
      finished_at: new Date().toISOString(),
      duration_ms: sql`duration_ms + ${Math.round(outcome.elapsedMs)}`,
      lease_owner: null,
      lease_until_ms: 0,
    })
    .where('run_date', '=', date)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * A run (income_runs, or salary_runs, which keep the same status and lease) that the scheduler must
 * finish: it failed, or it is "running" with a lease that ran out (its server died). The one
 * definition, for the retries and for the admin dashboard's count.
 */
export const unfinishedRun = (nowMs: number) =>
  sql<boolean>`(status = 'failed' or (status = 'running' and lease_until_ms < ${nowMs}))`;

export async function unfinishedRuns(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('income_runs')
    .select('run_date')
    .where(unfinishedRun(Date.now()))
    .orderBy('run_date')
    .execute();
  return rows.map((row) => row.run_date);
}

/**
 * The status of each run between `from` and `to` (inclusive): 'open' for a completed run that is not
 * final (it paid what was active when it started, before its date ended).
 */
export async function runStatuses(db: Db, from: string, to: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('income_runs')
    .select(['run_date', 'status', 'final'])
    .where('run_date', '>=', from)
    .where('run_date', '<=', to)
    .execute();
  return new Map(
    rows.map((row) => [row.run_date, row.status === 'completed' && !Number(row.final) ? 'open' : row.status]),
  );
}

/** The purchase date of the oldest active investment: no date before it has anything to pay. */
export async function oldestActiveStart(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('topups')
    .select((eb) => eb.fn.min<string>(sql`substr(created_at, 1, 10)`).as('start'))
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.start ?? undefined;
}

/**
 * Closes the active investments whose earning window ended on or before `through`: every date they
 * could earn on is settled, so the days they were not paid (owner blocked, ROI closed) are lost for good.
 */
export async function closeEndedInvestments(db: Db, through: string): Promise<number> {
  const result = await db
    .updateTable('topups')
    .set({ status: 'completed' })
    .where('status', '=', 'active')
    .where('roi_end_date', '<=', through)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---- one chunk ----

/** The last id of the next chunk of active investments after `afterId`, or undefined when none is left. */
export async function nextChunkEnd(db: Db, afterId: string, size: number): Promise<string | undefined> {
  const rows = await db
    .selectFrom('topups')
    .select('id')
    .where('status', '=', 'active')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(size)
    .execute();
  return rows.at(-1)?.id;
}

/**
 * PostgreSQL: locks the chunk's investments, in id order, before reading what they have been paid. Runs
 * of two dates at once (two catch-ups, two admins) then take an investment in turn: the second waits for
 * the first's commit and, each statement reading afresh under read committed, sees its payment, so the
 * cap and the duration hold. Without it both read the same progress and both paid a full day. SQLite
 * runs one writing transaction at a time.
 */
export async function lockChunkInvestments(trx: Db, afterId: string, lastId: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from topups where status = 'active' and id > ${afterId} and id <= ${lastId}
    order by id for no key update`.execute(trx);
}

async function ensureRoiBatch(trx: Db): Promise<void> {
  await sql`create temp table if not exists income_roi_batch (id text primary key, topup_id text not null,
    user_id text not null, username text not null, plan_name text not null, amount_cents bigint not null)`.execute(
    trx,
  );
  if (isPostgres(trx)) await sql`truncate income_roi_batch`.execute(trx);
  else await sql`delete from income_roi_batch`.execute(trx);
}

/**
 * The ROI this chunk pays on `date` (RULES.md "Daily income"): each investment bought on or before the
 * date, whose last earning date is not past, whose owner is unblocked with ROI open, not yet paid for
 * the date and under its income cap (its own, fixed when bought), earns amount x daily rate rounded down to the cent, and never more
 * than what is left under the cap. Fills income_roi_batch; returns how many.
 */
export async function selectRoiBatch(
  trx: Db,
  date: string,
  afterId: string,
  lastId: string,
): Promise<number> {
  await ensureRoiBatch(trx);
  const result =
    await sql`insert into income_roi_batch (id, topup_id, user_id, username, plan_name, amount_cents)
    select 'roi:' || t.id || ':' || cast(${date} as text), t.id, t.user_id, u.username, p.name,
      case when t.amount_cents * t.roi_bp / 10000 < t.roi_cap_cents - t.roi_paid_cents
        then t.amount_cents * t.roi_bp / 10000 else t.roi_cap_cents - t.roi_paid_cents end
    from topups t
    join users u on u.id = t.user_id
    join plans p on p.id = t.plan_id
    where t.status = 'active' and t.id > ${afterId} and t.id <= ${lastId}
      and substr(t.created_at, 1, 10) <= ${date} and t.roi_end_date >= ${date}
      and t.roi_paid_cents < t.roi_cap_cents and t.amount_cents * t.roi_bp / 10000 > 0
      and u.status = 'unblock' and u.roi_status = 'open'
      and not exists (select 1 from roi_payments r where r.topup_id = t.id and r.run_date = ${date})`.execute(
      trx,
    );
  return Number(result.numAffectedRows ?? 0);
}

/** The batch's ROI as the sources of level income. */
export async function roiBatchAsLevelSources(trx: Db): Promise<void> {
  await sql`insert into income_sources (source_id, owner_id, owner_name, cents)
    select id, user_id, username, amount_cents from income_roi_batch`.execute(trx);
}

/**
 * PostgreSQL: locks every ledger account the chunk credits, and the platform's income account, in id
 * order, as a transfer does; so the run and members' transfers cannot deadlock.
 */
async function lockChunkAccounts(trx: Db): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from ledger_accounts where id in (
      select user_id || ':working' from income_roi_batch
      union select user_id || ':working' from income_earners
      union select cast(${PLATFORM.income} as text)
    ) order by id for no key update`.execute(trx);
}

/**
 * Writes the chunk's money: ROI payments and their investments' progress, level incomes, one ledger
 * transfer per payment (from the platform's income account into the member's Income Working wallet),
 * and the balances. Returns the chunk's totals.
 */
export async function payChunk(trx: Db, date: string, nowIso: string): Promise<ChunkTotals> {
  await sql`insert into ledger_accounts (id, user_id, code, balance_cents, held_cents, allow_negative, created_at)
    select distinct user_id || ':working', user_id, 'working', 0, 0, 0, cast(${nowIso} as text)
    from (select user_id from income_roi_batch union select user_id from income_earners) x
    where not exists (select 1 from ledger_accounts a where a.id = x.user_id || ':working')
    on conflict (id) do nothing`.execute(trx);
  await lockChunkAccounts(trx);

  await sql`insert into roi_payments (id, topup_id, user_id, run_date, amount_cents, created_at)
    select id, topup_id, user_id, cast(${date} as text), amount_cents, cast(${nowIso} as text) from income_roi_batch`.execute(
    trx,
  );
  await sql`update topups set
      roi_paid_cents = topups.roi_paid_cents + b.amount_cents,
      roi_days_paid = topups.roi_days_paid + 1,
      status = case when topups.status <> 'active' then topups.status
        when topups.roi_days_paid + 1 >= topups.duration_days
        or topups.roi_paid_cents + b.amount_cents >= topups.roi_cap_cents then 'completed' else 'active' end
    from income_roi_batch b where b.topup_id = topups.id`.execute(trx);
  await sql`insert into level_incomes (id, roi_payment_id, source_user_id, user_id, level, percent_bp, amount_cents, run_date, created_at)
    select 'lvl:' || source_id || ':' || level, source_id, owner_id, user_id, level, percent_bp, amount_cents,
      cast(${date} as text), cast(${nowIso} as text)
    from income_earners`.execute(trx);

  await sql`insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase, pending_id,
      kind, reference, description, created_by, created_at)
    select id, cast(${PLATFORM.income} as text), user_id || ':working', amount_cents, 'single', null,
      cast(${ROI_KIND} as text), 'topup:' || topup_id, 'ROI for ' || cast(${date} as text) || ', ' || plan_name, null,
      cast(${nowIso} as text)
    from income_roi_batch`.execute(trx);
  await sql`insert into ledger_transfers (id, debit_account_id, credit_account_id, amount_cents, phase, pending_id,
      kind, reference, description, created_by, created_at)
    select 'lvl:' || source_id || ':' || level, cast(${PLATFORM.income} as text), user_id || ':working',
      amount_cents, 'single', null, cast(${LEVEL_INCOME_KIND} as text), 'roi:' || source_id,
      'Level income, level ' || level || ', from ' || owner_name, null, cast(${nowIso} as text)
    from income_earners`.execute(trx);

  await sql`update ledger_accounts set balance_cents = ledger_accounts.balance_cents + c.total
    from (select account_id, sum(amount_cents) as total from (
        select user_id || ':working' as account_id, amount_cents from income_roi_batch
        union all select user_id || ':working', amount_cents from income_earners
      ) x group by account_id) c
    where ledger_accounts.id = c.account_id`.execute(trx);
  const { rows } = await sql<{
    investments: number;
    roi: number | null;
    levels: number;
    level: number | null;
  }>`
    select (select count(*) from income_roi_batch) as investments,
      (select sum(amount_cents) from income_roi_batch) as roi,
      (select count(*) from income_earners) as levels,
      (select sum(amount_cents) from income_earners) as level`.execute(trx);
  const totals = {
    investments: Number(rows[0]?.investments ?? 0),
    roiCents: Number(rows[0]?.roi ?? 0),
    levelPayments: Number(rows[0]?.levels ?? 0),
    levelCents: Number(rows[0]?.level ?? 0),
  };
  const paid = totals.roiCents + totals.levelCents;
  if (paid > 0)
    await sql`update ledger_accounts set balance_cents = balance_cents - ${paid} where id = ${PLATFORM.income}`.execute(
      trx,
    );
  return totals;
}
