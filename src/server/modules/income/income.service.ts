import { randomUUID } from 'node:crypto';
import { addDays, dateOf, yesterday } from '../../../shared/dates.ts';
import { INCOME_MESSAGES } from '../../../shared/income.ts';
import { formatCents } from '../../../shared/money.ts';
import type { Db } from '../../db/database.ts';
import type { IncomeRunTable } from '../../db/schema.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { levelPercents } from '../plans/plans.repository.ts';
import {
  addRunTotals,
  type ChunkTotals,
  claimRun,
  closeEndedInvestments,
  findRun,
  finishRun,
  lockChunkInvestments,
  nextChunkEnd,
  oldestActiveStart,
  payChunk,
  renewLease,
  roiBatchAsLevelSources,
  runStatuses,
  selectRoiBatch,
  unfinishedRuns,
} from './income.repository.ts';
import { fillLevelEarners, resetLevelWork } from './level-earners.repository.ts';

// RULES.md "Daily income": one UTC date at a time, in chunks of investments. A date is claimed by one
// process (its income_runs row and lease); each chunk is one transaction that pays what is still
// unpaid, so a run stopped anywhere (a crash, a killed process, a failed statement) is completed by
// the next attempt and pays exactly what one clean run pays.
//
// A date is final only once a run of it started after it ended: a run of a date still under way (an
// admin paying today) pays what is active then and leaves the date open, and a later run of it (the
// scheduler's run of yesterday, or staff) pays what is still unpaid, by the unique keys. Every run of a
// date pays by the level list its first run kept, so one date is never paid under two lists.

export type IncomeRunOptions = {
  /** How long a claim holds without news from its process; another may take the date over after. */
  leaseMs: number;
  /** Investments per transaction. */
  chunkSize: number;
  /** A pause between chunks, which leaves room for members' requests during a long run (SQLite). */
  chunkPauseMs: number;
  /** Told of every run this process finished or failed (the metrics' run durations). */
  onRunFinished?: IncomeRunObserver;
};

export type IncomeRunObserver = (status: 'completed' | 'failed', seconds: number) => void;

export const DEFAULT_INCOME_OPTIONS: IncomeRunOptions = { leaseMs: 60_000, chunkSize: 5000, chunkPauseMs: 0 };

export type RunRequest = {
  date: string;
  trigger: IncomeRunTable['trigger'];
  startedBy: string | null;
};

export type RunOutcome =
  | { kind: 'paid'; date: string; totals: ChunkTotals; resumed: boolean }
  | { kind: 'completed'; date: string }
  | { kind: 'busy'; date: string };

/** One process's name for its claims: a lease names the process that holds it. */
const PROCESS_OWNER = randomUUID();

class LostLease extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long after a date ends a run must start to make it final: a purchase stamped a moment before
 * midnight commits a moment after, and a run reading before that commit would miss it.
 */
export const FINAL_AFTER_MS = 60_000;

/** Whether a run of `date` that starts at `now` sees every investment the date will ever have. */
export const endedBefore = (date: string, now: Date) =>
  now.getTime() >= Date.parse(`${addDays(date, 1)}T00:00:00.000Z`) + FINAL_AFTER_MS;

/** The level list a run keeps, as stored (JSON); a run always stores one, so none is a defect. */
function keptPercents(json: string | null | undefined): number[] {
  const list: unknown = JSON.parse(json ?? 'null');
  if (!Array.isArray(list) || !list.every((bp) => Number.isSafeInteger(bp) && bp >= 0))
    throw new Error('the income run keeps no valid level list');
  return list;
}

/**
 * Pays one date (or finishes paying it, or pays what a run before the date ended left unpaid). Throws
 * when a chunk fails; the run is then marked failed. `now`: the caller's clock, which says whether the
 * date has ended (the scheduler's, moved in tests).
 */
export async function runIncomeDate(
  db: Db,
  request: RunRequest,
  options: IncomeRunOptions,
  now = new Date(),
): Promise<RunOutcome> {
  const final = endedBefore(request.date, now);
  const claim = await claimRun(db, {
    date: request.date,
    owner: PROCESS_OWNER,
    trigger: request.trigger,
    startedBy: request.startedBy,
    leaseMs: options.leaseMs,
    levelPercents: JSON.stringify(await levelPercents(db, 'roi')),
  });
  if (claim.kind !== 'claimed') return { kind: claim.kind, date: request.date };
  // The list kept by the date's first run (this one, or an earlier one), read once for every chunk.
  const kept = (await findRun(db, request.date))?.level_percents;
  const percents = keptPercents(kept);

  const startedMs = performance.now();
  const totals: ChunkTotals = { investments: 0, roiCents: 0, levelCents: 0, levelPayments: 0 };
  try {
    let afterId = '';
    for (;;) {
      const lastId = await nextChunkEnd(db, afterId, options.chunkSize);
      if (lastId === undefined) break;
      const chunk = await db.transaction().execute(async (trx) => {
        if (!(await renewLease(trx, request.date, PROCESS_OWNER, options.leaseMs))) throw new LostLease();
        const nowIso = new Date().toISOString();
        await lockChunkInvestments(trx, afterId, lastId);
        await resetLevelWork(trx);
        if ((await selectRoiBatch(trx, request.date, afterId, lastId)) === 0) return undefined;
        await roiBatchAsLevelSources(trx);
        await fillLevelEarners(trx, 'roi', percents);
        const paid = await payChunk(trx, request.date, nowIso);
        await addRunTotals(trx, request.date, paid);
        return paid;
      });
      if (chunk) {
        totals.investments += chunk.investments;
        totals.roiCents += chunk.roiCents;
        totals.levelCents += chunk.levelCents;
        totals.levelPayments += chunk.levelPayments;
      }
      afterId = lastId;
      if (options.chunkPauseMs > 0) await sleep(options.chunkPauseMs);
    }
  } catch (error) {
    // Another process took the date over (this one stalled past its lease): it finishes the date.
    if (error instanceof LostLease) return { kind: 'busy', date: request.date };
    const elapsedMs = performance.now() - startedMs;
    await finishRun(db, request.date, PROCESS_OWNER, {
      status: 'failed',
      final: false,
      error: error instanceof Error ? error.message.slice(0, 500) : String(error),
      elapsedMs,
    }).catch(() => undefined);
    options.onRunFinished?.('failed', elapsedMs / 1000);
    throw error;
  }
  const elapsedMs = performance.now() - startedMs;
  await finishRun(db, request.date, PROCESS_OWNER, { status: 'completed', error: null, elapsedMs, final });
  options.onRunFinished?.('completed', elapsedMs / 1000);
  return { kind: 'paid', date: request.date, totals, resumed: claim.resumed };
}

/** POST /income/run: an admin pays a date (default yesterday, UTC); a future date is refused. */
export async function runIncomeByAdmin(
  db: Db,
  adminId: string,
  date: string | undefined,
  options: IncomeRunOptions,
) {
  const runDate = date ?? yesterday();
  if (runDate > dateOf()) throw badRequest([{ field: 'date', message: INCOME_MESSAGES.dateFuture }]);
  const outcome = await runIncomeDate(db, { date: runDate, trigger: 'admin', startedBy: adminId }, options);
  if (outcome.kind === 'busy') throw new AppError(409, INCOME_MESSAGES.runBusy);
  const totals =
    outcome.kind === 'paid'
      ? outcome.totals
      : { investments: 0, roiCents: 0, levelCents: 0, levelPayments: 0 };
  return {
    message: INCOME_MESSAGES.runDone,
    run: {
      date: runDate,
      investments_paid: totals.investments,
      roi_total: formatCents(totals.roiCents),
      level_total: formatCents(totals.levelCents),
    },
  };
}

export type CatchUpOptions = IncomeRunOptions & {
  /** How many days back (ending yesterday) dates that were never run are paid. */
  catchUpDays: number;
};

export type CatchUpOutcome = { runs: RunOutcome[]; closed: number };

/**
 * The scheduler's work, safe on every server at once (a claim lets one of them in):
 * - pays every date of the last `catchUpDays` (ending yesterday) that has no run yet, from the oldest
 *   active investment's purchase date on: yesterday at 00:05, and the days a stopped server missed;
 * - pays the rest of every date of that window left open by a run made before the date ended;
 * - finishes every date whose run failed or whose process died (its lease ran out);
 * - then closes the investments whose earning window ended on a settled date (every date up to it
 *   completed): the days they were not paid are lost, as RULES.md says of a blocked day.
 */
export async function catchUpIncome(
  db: Db,
  options: CatchUpOptions,
  now = new Date(),
): Promise<CatchUpOutcome> {
  const last = yesterday(now);
  const first = addDays(last, -(options.catchUpDays - 1));
  const start = await oldestActiveStart(db);
  const known = await runStatuses(db, first, last);
  const missing: string[] = [];
  // Dates as text: the later of the window's first date and the oldest investment's purchase date.
  const from = start === undefined ? undefined : [first, start].sort()[1];
  if (from !== undefined)
    for (let date = from; date <= last; date = addDays(date, 1)) if (!known.has(date)) missing.push(date);
  const open = [...known].filter(([, status]) => status === 'open').map(([date]) => date);
  const dates = [...new Set([...(await unfinishedRuns(db)), ...missing, ...open, last])].sort();
  const runs: RunOutcome[] = [];
  for (const date of dates)
    runs.push(await runIncomeDate(db, { date, trigger: 'schedule', startedBy: null }, options, now));

  // Settled through: the last date of the window up to which every date is final (dates before the
  // oldest active investment have nothing left to pay). Dates before the window are never paid again
  // by the scheduler, so they count as settled.
  const settled = await runStatuses(db, first, last);
  let through = addDays(first, -1);
  for (let date = first; date <= last; date = addDays(date, 1)) {
    if (!(start === undefined || date < start || settled.get(date) === 'completed')) break;
    through = date;
  }
  const closed = start === undefined ? 0 : await closeEndedInvestments(db, through);
  return { runs, closed };
}
