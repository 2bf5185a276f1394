import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

// npm run bench: requests per second and latency of the real server (its own process, production
// build, fresh SQLite database) over loopback, for the calls every visit makes. The load generator
// runs in this process so it does not share the server's event loop. Numbers, not pass/fail.

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 8199);
const base = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitForHealth(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start');
}

try {
  await waitForHealth();
  const mainBundle = readdirSync('dist/assets').find((f) => /^index-.*\.js$/.test(f));
  const cases: { name: string; path: string; headers: Record<string, string> }[] = [
    { name: 'GET /api/v1/health (database round trip)', path: '/api/v1/health', headers: {} },
    { name: 'GET /login (app shell, nonce per response)', path: '/login', headers: { accept: 'text/html' } },
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
  console.log(`${DURATION_S} s each, 50 connections, loopback, server in its own process\n`);
  for (const c of cases) {
    const result = await autocannon({
      url: `${base}${c.path}`,
      headers: c.headers,
      connections: 50,
      duration: DURATION_S,
    });
    const failed = result.non2xx + result.errors;
    console.log(
      `${c.name.padEnd(46)} ${String(Math.round(result.requests.average)).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${failed ? `  (${failed} failed)` : ''}`,
    );
  }
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
