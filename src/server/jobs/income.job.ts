import { Cron } from 'croner';
import type { IncomeConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { catchUpIncome, type IncomeRunObserver } from '../modules/income/income.service.ts';

// The daily income run's schedule (RULES.md "Daily income"): at INCOME_SCHEDULE (00:05 UTC) every
// server tries to pay yesterday; the date's row in income_runs lets exactly one of them in. Every
// INCOME_RETRY_MS the same check also finishes a run that failed or whose server died, pays the dates
// of the last INCOME_CATCH_UP_DAYS that were missed while no server ran at 00:05, pays the rest of the
// dates an admin ran before they ended (a date is final only after it ends), and closes the
// investments whose earning window has ended.

type Log = {
  info: (object: unknown, message: string) => void;
  error: (object: unknown, message: string) => void;
};

export type IncomeJob = { stop: () => Promise<void>; tick: () => Promise<void> };

export function startIncomeJob(
  db: Db,
  config: IncomeConfig & { onRunFinished?: IncomeRunObserver },
  log: Log,
): IncomeJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return Promise.resolve();
    // One tick at a time in this process; the next one starts after.
    running ??= (async () => {
      try {
        const { runs, closed } = await catchUpIncome(db, config);
        for (const outcome of runs)
          if (outcome.kind === 'paid')
            log.info({ income: { date: outcome.date, ...outcome.totals } }, 'daily income paid');
        if (closed > 0)
          log.info({ income: { closed } }, 'investments whose earning window ended were closed');
      } catch (error) {
        log.error({ err: error }, 'daily income run failed; it is retried on the next check');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const daily =
    config.schedule === 'off' ? undefined : new Cron(config.schedule, { timezone: 'UTC', unref: true }, tick);
  const retry = config.retryMs > 0 ? setInterval(tick, config.retryMs) : undefined;
  retry?.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      daily?.stop();
      if (retry) clearInterval(retry);
      await running;
    },
  };
}
