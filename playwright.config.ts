import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// End-to-end against the built app served by the real server on its embedded database, in a data
// folder of its own for this run. Debian's Chromium where it is installed, else Playwright's own.

process.env.E2E_RUN ??= randomBytes(4).toString('hex');
export const E2E_DATA_DIR = join(tmpdir(), `platform-e2e-${process.env.E2E_RUN}`);
const PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'E2e-Admin-Pass-2026' };
// The run's mail relay (tests/e2e/mail-sink.ts): SMTP on this port, the received mails over HTTP on the next.
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? PORT + 100);
export const E2E_MAILS_URL = `http://127.0.0.1:${SMTP_PORT + 1}/mails`;
/** POST (refuse every mail to ?to=) and DELETE (accept them again) on the sink (tests/e2e/mail-sink.ts). */
export const E2E_MAIL_REFUSE_URL = `http://127.0.0.1:${SMTP_PORT + 1}/refuse`;

// Debian's Chromium where it is installed, else Playwright's own, always headless and in two builds:
// - the headless shell (Debian's chromium-headless-shell; Playwright's own headless browser is the same
//   shell): the same Blink and V8 without the desktop browser's window UI. Every new context of the
//   full browser in headless mode also starts that UI's own pages (the omnibox popup and other WebUI
//   renderers): about 2 s of CPU a test on a 2-core machine (docs/testing.md "Where the time goes");
// - the full browser, for the specs about what only it has: Web Push and notifications (the shell
//   denies notifications to every site and has no push service).
const firstThere = (paths: string[]) => paths.find((p) => existsSync(p));
const fullBrowserPath =
  process.env.CHROMIUM_PATH ?? firstThere(['/usr/bin/chromium', '/usr/bin/chromium-browser']);
const shellPath =
  process.env.CHROMIUM_SHELL_PATH ??
  firstThere(['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell']);
const args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// With neither installed, Playwright's own: its headless shell by default, its full browser as the
// "chromium" channel. Without the shell, every spec runs in the full browser.
const shell = { executablePath: shellPath ?? fullBrowserPath, args };
const fullBrowser = fullBrowserPath
  ? { executablePath: fullBrowserPath, args }
  : { channel: 'chromium', args };
/** Specs that need the full browser (above). */
const FULL_BROWSER_SPECS = /member-push\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'phone',
      testMatch: /(public|member)[^/]*\.spec\.ts$/,
      testIgnore: FULL_BROWSER_SPECS,
      use: { ...devices['Pixel 7'], launchOptions: shell },
    },
    {
      name: 'phone-browser',
      testMatch: FULL_BROWSER_SPECS,
      use: { ...devices['Pixel 7'], launchOptions: fullBrowser },
    },
    {
      name: 'desktop',
      testMatch: /admin[^/]*\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 850 }, launchOptions: shell },
    },
  ],
  webServer: [
    {
      command: 'npx tsx tests/e2e/mail-sink.ts',
      url: `http://127.0.0.1:${SMTP_PORT + 1}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { E2E_SMTP_PORT: String(SMTP_PORT) },
    },
    {
      command: 'npx tsx src/server/main.ts',
      url: `http://127.0.0.1:${PORT}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: E2E_DATA_DIR,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: 'warn',
        // Argon2id at its least (the production cost is pinned by passwords.test.ts).
        PASSWORD_HASH_COST: 'test',
        SANDBOX_STEP_MS: '300',
        TRUST_PROXY: '127.0.0.1',
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: 'Member Platform <no-reply@example.com>',
        MAIL_POLL_MS: '200',
        // A mail the sink refuses (admin-mail.spec.ts) fails for good after 5 tries: 0.2 + 0.4 + 0.8 +
        // 1.6 s apart here instead of the 7.5 minutes of the default. Nothing else is refused.
        MAIL_RETRY_BASE_MS: '200',
        // The specs pay their own income dates and salary months. A scheduler's timer (the 10-minute
        // retry, or 00:05 UTC during a late run) would pay 30 dates of catch-up in the middle of the
        // suite and push a spec's run off the first page of the runs list, depending on how long the
        // suite takes: a flaky test's cause, so the schedulers stay off here.
        INCOME_SCHEDULE: 'off',
        INCOME_RETRY_MS: '0',
        SALARY_SCHEDULE: 'off',
        SALARY_RETRY_MS: '0',
        // On-chain deposits with no RPC: every deposit waits for an admin (member-web3-deposit.spec.ts).
        DEPOSIT_ADDRESS: '0x7e57000000000000000000000000000000000d0d',
      },
    },
  ],
});
