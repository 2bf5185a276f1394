import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { registerMember } from '../helpers/client.ts';
import { sleep, startServerProcess } from '../helpers/server-process.ts';

// The member dashboard's cold load on a slow phone (docs/performance.md "The dashboard on a slow
// phone"): the built app (CLIENT_DIR, default ./dist) served by the real server on a fresh SQLite
// database; Chromium with its CPU slowed 4 times and a 1.6 Mbps, 150 ms network (Lighthouse's
// "slow 4G" figures); no HTTP cache and no service worker. Each round signs a new member in, opens
// /user/dashboard and times from the navigation's start to the Active Wallet's balance on screen.
// BENCH_ROUNDS rounds (default 5); the median is reported.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const clientDir = resolve(process.env.CLIENT_DIR ?? 'dist');
const chromiumPath =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-dash-'));
  const server = await startServerProcess({ CLIENT_DIR: clientDir, TRUST_PROXY: '127.0.0.1' }, dataDir);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const times: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const from = { 'X-Forwarded-For': `203.0.113.${round + 1}` };
      const member = await registerMember(server.url, {}, from);
      // Signed in as a person does, unthrottled; the dashboard is then opened cold in a new context
      // holding only that sign-in (the session cookie and the app's stored session).
      const signIn = await browser.newContext({ serviceWorkers: 'block', extraHTTPHeaders: from });
      const first = await signIn.newPage();
      await first.goto(`${server.url}/login`);
      await first.getByLabel('Email').fill(member.email);
      await first.getByLabel('Password').fill(member.password);
      await first.getByRole('button', { name: 'Sign in' }).click();
      await first.getByTestId('balance-business').waitFor();
      await first.waitForFunction(() => (window.localStorage.getItem('root') ?? '').includes('"auth"'));
      const storageState = await signIn.storageState();
      await signIn.close();
      const context = await browser.newContext({
        serviceWorkers: 'block',
        storageState,
        viewport: { width: 390, height: 844 },
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(`${server.url}/user/dashboard`, { waitUntil: 'commit' });
      await page.getByTestId('balance-business').waitFor({ timeout: 60_000 });
      const ms = await page.evaluate(() => performance.now());
      times.push(ms);
      console.log(`round ${round + 1}: the balance showed after ${Math.round(ms)} ms`);
      await context.close();
      await sleep(200);
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `dashboard cold load, CPU 4x slower, 1.6 Mbps / 150 ms: balance shown after ${Math.round(median)} ms (median of ${ROUNDS}; ${sorted.map(Math.round).join(', ')})`,
  );
}

await main();
