import type { App } from './app.ts';
import type { ShutdownConfig } from './config.ts';

// A restart that loses nothing (docs/deployment.md "Restarts"). On SIGTERM or SIGINT:
// 1. Readiness answers 503 at once and answers say `Connection: close`, while the process keeps serving
//    for SHUTDOWN_DELAY_MS: the load balancer's health check takes it out of rotation, and clients and
//    proxies leave their kept-alive connections, before anything is refused.
// 2. Then it stops accepting; every event stream is told to reconnect (to another process) and closed;
//    requests in flight finish, a pending SQLite group commit included (an answer is only ever sent
//    after its COMMIT); the jobs stop and the database closes. Exit 0.
// 3. A request still running SHUTDOWN_TIMEOUT_MS after step 2 began cannot hold the exit: its
//    connection is cut and the process exits 1. Its transaction was not committed (an answer comes
//    only after the COMMIT), so the client's retry with the same Idempotency-Key does it once.
// A second signal during the pause ends the pause (an operator at a terminal pressing Ctrl-C again);
// requests in flight are still waited for.

type Exit = (code: number) => void;

export function closeGracefullyOnSignals(
  { app, drain }: Pick<App, 'app' | 'drain'>,
  config: ShutdownConfig,
  exit: Exit = (code) => process.exit(code),
): void {
  let stopping = false;
  let endPause: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      endPause?.();
      return;
    }
    stopping = true;
    drain();
    app.log.info(
      `${signal}: readiness answers 503; serving for ${config.delayMs} ms more, then closing (a second signal skips the wait)`,
    );
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config.delayMs);
      endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    })
      .then(() => {
        endPause = undefined;
        const force = setTimeout(() => {
          app.log.error(
            `requests still running ${config.timeoutMs} ms after the close began (SHUTDOWN_TIMEOUT_MS): cutting them off`,
          );
          app.server.closeAllConnections();
          exit(1);
        }, config.timeoutMs);
        force.unref();
        return app.close();
      })
      .then(
        () => {
          app.log.info('closed: requests finished, streams closed, jobs stopped, database closed');
          exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'the close failed');
          exit(1);
        },
      );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
