import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { devices, expect, type Page, test } from '@playwright/test';
import { registerMember } from '../helpers/client.ts';
import { adminOn, exitCodeOf, freePort, startServerProcess } from '../helpers/server-process.ts';
import { fillSignIn } from './helpers.ts';

// Issue 20 "Restart without losing anything", as a member's open app sees it: the server behind the
// page is stopped with SIGTERM and started again (the same address and database, as a restart behind
// a proxy looks to a browser). The live channel's stream ends with the server's retry time and
// "reconnect" message; the browser reconnects by itself to the new process, a notification sent
// afterwards arrives on the page without a reload, and nothing on the page reports an error. This
// spec runs its own server process (the run's shared server must not restart under the other specs).

const liveStreamOpened = (page: Page) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/events' && r.status() === 200, {
    timeout: 60_000,
  });

test('the live channel reconnects by itself after its server restarts, and the member sees no error', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'platform-e2e-restart-'));
  const env = {
    PORT: String(await freePort()),
    CLIENT_DIR: resolve(process.env.CLIENT_DIR ?? 'dist'),
    DATA_DIR: join(dir, 'db'),
    INCOME_SCHEDULE: 'off',
    INCOME_RETRY_MS: '0',
    SALARY_SCHEDULE: 'off',
    SALARY_RETRY_MS: '0',
  };
  let server = await startServerProcess(env, dir);
  try {
    const member = await registerMember(server.url);
    const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: server.url });
    const page = await context.newPage();
    const firstStream = liveStreamOpened(page);
    await page.goto('/login');
    await fillSignIn(page, member.email, member.password);
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await firstStream;
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    const exited = exitCodeOf(server);
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const reconnected = liveStreamOpened(page);
    server = await startServerProcess(env, dir);
    await reconnected;

    const admin = await adminOn(server.url);
    const sent = await admin.post('/notifications', {
      title: 'After the restart',
      message: 'Sent once the server had started again.',
    });
    expect(sent.status, sent.text).toBe(201);
    await expect(page.getByTestId('unread-count')).toHaveText('1');
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true),
    ).toBe(true);
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await context.close();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
