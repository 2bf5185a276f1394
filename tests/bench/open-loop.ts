import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { build, type Histogram } from 'hdr-histogram-js';

// An open-loop load generator: requests fall due at a fixed rate whether or not earlier ones were
// answered, as members' phones send them, and each request's latency runs from when it was DUE, not
// from when it went out. A closed loop (autocannon: each connection waits for its answer before the
// next request) sends less while the server stalls, so the stall hides in a few slow samples
// ("coordinated omission"); here a stall counts against every request it delayed, including those the
// generator itself could not send on time. Percentiles come from an HDR histogram (microseconds,
// 3 significant digits), per window of due time and over any range of windows.

export type SendResult = { status: number };

export type OpenLoopOptions = {
  /** Requests due per second. */
  rate: number;
  /** For how long requests fall due, in seconds. */
  seconds: number;
  /** Sends request number `index`; resolves once its answer has been read whole, rejects on a network error. */
  send: (index: number) => Promise<SendResult>;
  /** The width of a reporting window of due time, ms (default 1000). */
  windowMs?: number;
  /** A request not answered this long after it was sent counts as an error (default 60 s). */
  timeoutMs?: number;
};

export type WindowStats = {
  /** The window's start, in seconds after the first request fell due. */
  fromS: number;
  count: number;
  /** Answers other than 2xx, and network errors (refused, reset, timed out). */
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
};

export type OpenLoopResult = {
  rate: number;
  windows: WindowStats[];
  /** The latencies of windows [from, to) merged, e.g. "once warm". */
  range: (from: number, to: number) => WindowStats;
  statuses: Record<string, number>;
  errors: number;
  /** How late the generator itself sent requests (its own event loop): large values spoil the run. */
  sendLagP99Ms: number;
  sendLagMaxMs: number;
};

const newHistogram = () =>
  build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });

const msOf = (us: number) => us / 1000;

function statsOf(fromS: number, histogram: Histogram, non2xx: number, errors: number): WindowStats {
  return {
    fromS,
    count: histogram.totalCount,
    non2xx,
    errors,
    p50Ms: msOf(histogram.getValueAtPercentile(50)),
    p99Ms: msOf(histogram.getValueAtPercentile(99)),
    p999Ms: msOf(histogram.getValueAtPercentile(99.9)),
    maxMs: msOf(histogram.maxValue),
  };
}

/** Runs the load and resolves once every request due has been answered or has failed. */
export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { rate, seconds, send } = options;
  const windowMs = options.windowMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const total = Math.round(rate * seconds);
  const intervalMs = 1000 / rate;
  const windowCount = Math.ceil((seconds * 1000) / windowMs);
  const windows = Array.from({ length: windowCount }, () => ({
    histogram: newHistogram(),
    non2xx: 0,
    errors: 0,
  }));
  const sendLag = newHistogram();
  const statuses: Record<string, number> = {};
  let errors = 0;
  let outstanding = 0;
  let next = 0;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const start = performance.now() + 10;

  const fire = (index: number, dueAt: number) => {
    const window = windows[Math.min(windowCount - 1, Math.floor((dueAt - start) / windowMs))];
    if (!window) throw new Error('no window for a due request');
    sendLag.recordValue(Math.max(1, Math.round((performance.now() - dueAt) * 1000)));
    outstanding += 1;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
    });
    Promise.race([send(index), timedOut])
      .then(
        ({ status }) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status < 200 || status > 299) window.non2xx += 1;
        },
        () => {
          errors += 1;
          window.errors += 1;
        },
      )
      .finally(() => {
        clearTimeout(timer);
        window.histogram.recordValue(Math.max(1, Math.round((performance.now() - dueAt) * 1000)));
        outstanding -= 1;
        if (next >= total && outstanding === 0) finish();
      });
  };

  // Each tick sends every request due by now, then sleeps until the next one falls due: a tick that
  // comes late (the generator's loop was busy) sends the backlog at once, and their latency still runs
  // from their due times.
  const tick = () => {
    const now = performance.now();
    while (next < total) {
      const dueAt = start + next * intervalMs;
      if (dueAt > now) break;
      fire(next, dueAt);
      next += 1;
    }
    if (next < total) setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
    else if (outstanding === 0) finish();
  };
  setTimeout(tick, Math.max(0, start - performance.now()));
  await finished;

  const merged = (from: number, to: number) => {
    const histogram = newHistogram();
    let non2xx = 0;
    let failed = 0;
    for (const w of windows.slice(from, to)) {
      histogram.add(w.histogram);
      non2xx += w.non2xx;
      failed += w.errors;
    }
    return statsOf((from * windowMs) / 1000, histogram, non2xx, failed);
  };
  return {
    rate,
    windows: windows.map((w, i) => statsOf((i * windowMs) / 1000, w.histogram, w.non2xx, w.errors)),
    range: merged,
    statuses,
    errors,
    sendLagP99Ms: msOf(sendLag.getValueAtPercentile(99)),
    sendLagMaxMs: msOf(sendLag.maxValue),
  };
}

export type HttpTarget = {
  url: string;
  method?: string;
  /** The headers and body of request number `index` (e.g. a new Idempotency-Key each time). */
  request: (index: number) => { headers: Record<string, string>; body?: string };
  /** Connections the generator may open; requests beyond them wait in the agent's queue, on the clock. */
  maxSockets?: number;
};

export type HttpSender = {
  send: OpenLoopOptions['send'];
  /**
   * Opens `count` kept-alive connections before the load, with a GET of `path` on each, as a proxy's
   * pool holds them once it has been running; without it connections open as requests need them.
   */
  preconnect: (count: number, path: string) => Promise<void>;
  close: () => void;
};

/**
 * A `send` for openLoop over node:http with kept-alive connections. The answer is read whole before
 * the request counts as answered.
 */
export function httpSender(target: HttpTarget): HttpSender {
  const agent = new Agent({ keepAlive: true, maxSockets: target.maxSockets ?? 256 });
  const url = new URL(target.url);
  const get = (path: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request({ agent, host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
        res.resume();
        res.once('end', () => resolve());
      });
      req.once('error', reject);
      req.end();
    });
  const send = (index: number) =>
    new Promise<SendResult>((resolve, reject) => {
      const { headers, body } = target.request(index);
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: target.method ?? 'POST',
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.once('error', reject);
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  const preconnect = async (count: number, path: string) => {
    await Promise.all(Array.from({ length: count }, () => get(path)));
  };
  return { send, preconnect, close: () => agent.destroy() };
}

const pad = (value: string, width: number) => value.padStart(width);
const fmt = (ms: number) => (ms >= 100 ? `${Math.round(ms)}` : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/** One line of a report: window, count, failures, p50/p99/p99.9/max in ms. */
export function formatStats(label: string, s: WindowStats): string {
  const failed = s.non2xx + s.errors;
  return `${label.padEnd(14)} ${pad(String(s.count), 6)} req  p50 ${pad(fmt(s.p50Ms), 7)}  p99 ${pad(fmt(s.p99Ms), 7)}  p99.9 ${pad(fmt(s.p999Ms), 7)}  max ${pad(fmt(s.maxMs), 7)} ms${failed ? `  FAILED ${s.non2xx} non-2xx, ${s.errors} errors` : ''}`;
}
