import type { Db } from '../db/database.ts';
import { recheckOpen, type Web3Context } from '../modules/web3/web3.service.ts';

// On-chain deposits still pending or confirming are re-read from the chain every WEB3_POLL_MS (also on
// each GET of one), so a deposit is credited once it has 12 confirmations even if nobody looks at it.
// Any number of servers may run this: crediting is decided by a conditional update per deposit.

type Log = { error: (object: unknown, message: string) => void };

export type Web3Job = { stop: () => Promise<void>; tick: () => Promise<void> };

export function startWeb3Job(db: Db, ctx: Web3Context, log: Log): Web3Job {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return Promise.resolve();
    running ??= (async () => {
      try {
        await recheckOpen(db, ctx);
      } catch (error) {
        log.error({ err: error }, 'on-chain deposit check failed; it is retried on the next one');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const timer = ctx.reader && ctx.config.pollMs > 0 ? setInterval(tick, ctx.config.pollMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
