import { Cron } from 'croner';
import type { SalaryConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { catchUpSalary } from '../modules/salary/salary-run.service.ts';

// The monthly salary's schedule (RULES.md "Rewards, salary, CTO, leadership"): at SALARY_SCHEDULE
// (00:10 UTC on the 1st) every server tries to pay last month; the payments' unique (member, month)
// key pays each member once however many try. Every SALARY_RETRY_MS the same check pays the ended
// months a stopped server missed (SALARY_CATCH_UP_MONTHS back) and finishes a run whose server died.

type Log = {
  info: (object: unknown, message: string) => void;
  error: (object: unknown, message: string) => void;
};

export type SalaryJob = { stop: () => Promise<void>; tick: () => Promise<void>; nextRun: () => Date | null };

export function startSalaryJob(db: Db, config: SalaryConfig, log: Log): SalaryJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return Promise.resolve();
    // One tick at a time in this process; the next one starts after.
    running ??= (async () => {
      try {
        for (const outcome of await catchUpSalary(db, config))
          if (!outcome.skipped)
            log.info(
              { salary: { month: outcome.month, members: outcome.membersPaid, cents: outcome.totalCents } },
              'monthly salary paid',
            );
      } catch (error) {
        log.error({ err: error }, 'monthly salary run failed; it is retried on the next check');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const monthly =
    config.schedule === 'off' ? undefined : new Cron(config.schedule, { timezone: 'UTC', unref: true }, tick);
  const retry = config.retryMs > 0 ? setInterval(tick, config.retryMs) : undefined;
  retry?.unref();
  return {
    tick,
    nextRun: () => monthly?.nextRun() ?? null,
    stop: async () => {
      stopped = true;
      monthly?.stop();
      if (retry) clearInterval(retry);
      await running;
    },
  };
}
