import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';

// npm run bench: requests per second and latency of the real server on SQLite, over loopback, for
// the calls every visit makes. Needs a build (npm run build). Numbers, not pass/fail: compare runs.

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
const { app } = await buildApp(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const mainBundle = readdirSync('dist/assets').find((f) => /^index-.*\.js$/.test(f));
const cases: { name: string; path: string; headers: Record<string, string> }[] = [
  { name: 'GET /api/v1/health (database round trip)', path: '/api/v1/health', headers: {} },
  {
    name: 'GET /login (app shell, brotli)',
    path: '/login',
    headers: { accept: 'text/html', 'accept-encoding': 'br' },
  },
  ...(mainBundle
    ? [
        {
          name: 'GET main bundle (precompressed brotli)',
          path: `/assets/${mainBundle}`,
          headers: { 'accept-encoding': 'br' },
        },
      ]
    : []),
];

console.log(`${DURATION_S} s each, 50 connections, loopback\n`);
for (const c of cases) {
  const result = await autocannon({
    url: `${base}${c.path}`,
    headers: c.headers,
    connections: 50,
    duration: DURATION_S,
  });
  const failed = result.non2xx + result.errors;
  console.log(
    `${c.name.padEnd(45)} ${String(Math.round(result.requests.average)).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${failed ? `  (${failed} failed)` : ''}`,
  );
}
await app.close();
rmSync(dataDir, { recursive: true, force: true });
