import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import type { IncomeRunObserver } from '../income/income.service.ts';
import { lastIncomeRun, outboxDepthByStatus, transferCountsByKind } from './metrics.repository.ts';

// Issue 20 "Watch it": what an operator graphs and alerts on, in Prometheus' format. One registry per
// app (tests start several apps in one process; the global registry would mix them). Labels name
// routes, kinds and statuses only: never a member, an address or an amount.
//
// Two sources:
// - counted in this process: requests, income runs this process ran, group-commit batches, open
//   streams. Each instance counts its own; sum them across instances.
// - read from the database at scrape time: ledger transfers by kind, the mail outbox, the last income
//   run. Rows of the shared database, so correct whichever instance wrote them (the income run's bulk
//   inserts, a rolled-back transaction that never counts, a restart that keeps the total); every
//   instance reports the same value: take max() across instances, not sum().

export const METRICS_PATH = '/api/v1/metrics';
/** The route label of a request no route matched (its raw URL would be a label per probe). */
export const UNMATCHED_ROUTE = 'unmatched';

const INCOME_STATUSES = ['running', 'completed', 'failed'] as const;

export type Metrics = {
  registry: Registry;
  /**
   * Counts and times every answer of `app` (the root instance, before any route), except those `ignore`
   * picks out (the start's warm-up: src/server/warm-up.ts).
   */
  observeRequests: (app: FastifyInstance, ignore?: (request: FastifyRequest) => boolean) => void;
  onIncomeRunFinished: IncomeRunObserver;
  onGroupCommit: (batchSize: number) => void;
  onLiveClientCount: (count: number) => void;
};

type Log = { warn: (object: unknown, message: string) => void };

export function createMetrics(db: Db, log: Log): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  /** A figure read from the database; a failed read leaves it out of this scrape (an absent series). */
  const readInto = async <T>(
    metric: { reset: () => void },
    name: string,
    read: () => Promise<T>,
    fill: (value: T) => void,
  ) => {
    let value: T;
    try {
      value = await read();
    } catch (error) {
      metric.reset();
      log.warn({ err: error, metric: name }, 'metrics: database read failed');
      return;
    }
    metric.reset();
    fill(value);
  };

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by method and route pattern (a live-event stream: its lifetime)',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Counter({
    name: 'ledger_transfers_total',
    help: 'Ledger rows written, by kind (every phase), read from the shared database at scrape time',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      await readInto(
        this,
        'ledger_transfers_total',
        () => transferCountsByKind(db),
        (rows) => {
          for (const row of rows) this.labels(row.kind).inc(row.count);
        },
      );
    },
  });

  const incomeRuns = new Histogram({
    name: 'income_run_duration_seconds',
    help: 'Daily income runs this process finished, by outcome',
    labelNames: ['status'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  });
  new Gauge({
    name: 'income_last_run_status',
    help: 'The income run started last (any instance): 1 for its status, 0 for the others',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      await readInto(
        this,
        'income_last_run_status',
        () => lastIncomeRun(db),
        (run) => {
          if (run) for (const status of INCOME_STATUSES) this.set({ status }, run.status === status ? 1 : 0);
        },
      );
    },
  });
  new Gauge({
    name: 'income_last_run_finished_timestamp_seconds',
    help: 'When the income run started last finished, in Unix seconds (0 while it runs or before any run)',
    registers: [registry],
    async collect() {
      await readInto(
        this,
        'income_last_run_finished_timestamp_seconds',
        () => lastIncomeRun(db),
        (run) => {
          if (run?.finished_at) this.set(Date.parse(run.finished_at) / 1000);
        },
      );
    },
  });

  new Gauge({
    name: 'mail_outbox_depth',
    help: 'Mails in the outbox not sent: pending (waiting or retrying) and failed (given up)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      await readInto(
        this,
        'mail_outbox_depth',
        () => outboxDepthByStatus(db),
        (rows) => {
          // Both always present, so "no pending mail" reads 0 rather than a missing series.
          const counts = new Map(rows.map((row) => [row.status, row.count]));
          for (const status of ['pending', 'failed']) this.set({ status }, counts.get(status) ?? 0);
        },
      );
    },
  });

  const batches = new Histogram({
    name: 'sqlite_group_commit_batch_size',
    help: 'Transactions and queries made durable by one SQLite COMMIT (group commit; absent on PostgreSQL)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const liveClients = new Gauge({
    name: 'live_stream_clients',
    help: 'Live-event streams (GET /api/v1/events) open on this process',
    registers: [registry],
  });

  return {
    registry,
    observeRequests: (app, ignore = () => false) => {
      // The hot path: one counter and one histogram per answer, nothing else. The route is Fastify's
      // pattern (/api/v1/transfer/byid/:id), never the URL, so ids do not become label values.
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
        // The scrape itself is left out: it would measure the scraper rather than the members.
        if (route !== METRICS_PATH && !ignore(request)) {
          const method = request.method;
          requests.inc({ method, route, status: String(reply.statusCode) });
          durations.observe({ method, route }, reply.elapsedTime / 1000);
        }
        done();
      });
    },
    onIncomeRunFinished: (status, seconds) => incomeRuns.observe({ status }, seconds),
    onGroupCommit: (batchSize) => batches.observe(batchSize),
    onLiveClientCount: (count) => liveClients.set(count),
  };
}
