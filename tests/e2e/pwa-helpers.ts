import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { createDatabase } from '../../src/server/db/database.ts';
import { adminTwoFactorOffForTests } from '../helpers/test-settings.ts';

/** Waits until the service worker is active and controls the page (its precache is then complete). */
export async function waitForControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null))
    .toBe('activated');
}

/**
 * Waits until a service worker registration is active again. Sign-out and a session's end clear the
 * site's storage, the worker's registration with it (Clear-Site-Data "storage"), and the app registers
 * it again; the page itself stays with the worker it had until it navigates.
 */
export async function waitForRegistration(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null),
    )
    .toBe('activated');
}

/** Width and height from a PNG's header. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type OwnServer = {
  origin: string;
  clientDir: string;
  admin: { email: string; password: string };
  stop: () => Promise<void>;
};

const OWN_ADMIN = { email: 'pwa-admin@example.com', password: 'Pwa-Admin-Pass-2026' };

/**
 * A second server of the real app on a port of its own, serving a copy of the build that a test may
 * change (a "next deploy") while it runs, with its own data folder.
 */
export async function startOwnServer({
  env = {},
}: {
  env?: Record<string, string>;
} = {}): Promise<OwnServer> {
  const root = mkdtempSync(join(tmpdir(), 'platform-pwa-'));
  const clientDir = join(root, 'client');
  cpSync(process.env.CLIENT_DIR ?? 'dist', clientDir, { recursive: true });
  // The worker script is changed in place by the tests: no precompressed copy may shadow it.
  rmSync(join(clientDir, 'sw.js.br'), { force: true });
  rmSync(join(clientDir, 'sw.js.gz'), { force: true });
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CLIENT_DIR: clientDir,
      DATA_DIR: join(root, 'data'),
      ADMIN_EMAIL: OWN_ADMIN.email,
      ADMIN_PASSWORD: OWN_ADMIN.password,
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: 'test',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // What the server said on its way down, for the error below: a failed start is otherwise silent.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-4000);
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${origin}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(
        `the second server did not start (exit code ${child.exitCode}, port ${port}): ${stderr}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Its admin signs in with the password, as on every test server (tests/helpers/test-settings.ts).
  const { db } = createDatabase({
    dataDir: join(root, 'data'),
    databaseUrl: undefined,
    databaseSchema: undefined,
  });
  try {
    await adminTwoFactorOffForTests(db);
  } finally {
    await db.destroy();
  }
  return {
    origin,
    clientDir,
    admin: OWN_ADMIN,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
