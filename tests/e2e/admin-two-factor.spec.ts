import { execFileSync } from 'node:child_process';
import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN, E2E_DATA_DIR } from '../../playwright.config.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import { DIALOG } from '../../src/shared/messages.ts';
import { DEFAULT_SETTINGS, SETTINGS_MESSAGES } from '../../src/shared/settings.ts';
import { TWO_FACTOR, TWO_FACTOR_TEXT } from '../../src/shared/two-factor.ts';
import { adminTwoFactorAsDefault, adminTwoFactorOffForTests } from '../helpers/test-settings.ts';
import { Authenticator } from './authenticator.ts';
import { csrfHeaders, fillSignIn, nextClientAddress } from './helpers.ts';

// Issue 14 item 4 for admins, on a desktop: /admin/settings holds the setting "require two-factor
// sign-in for admins" and the admin's own two-factor sign-in. The setting cannot be turned on before
// one's own is on; once on, an admin without it sees only the set-up. Every admin spec of the run shares
// E2E_ADMIN, so this one works as a second admin of its own (made with the admin:create command) and
// only signs E2E_ADMIN in to look; the setting is turned off again whatever happens.

/** A second admin in the run's database, by the command operators use (docs/deployment.md). */
function createSecondAdmin() {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const admin = { email: `e2e.totp-admin.${id}@example.com`, password: `Quiet-Lantern-${id}` };
  execFileSync(
    'npx',
    [
      'tsx',
      'src/server/cli/create-admin.ts',
      '--email',
      admin.email,
      '--password',
      admin.password,
      '--name',
      'Second Admin',
    ],
    { env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: 'warn' }, stdio: 'pipe' },
  );
  return admin;
}

const section = (page: Page, title: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });
const ownCard = (page: Page) => section(page, TWO_FACTOR_TEXT.adminTitle);
const settingCard = (page: Page) => section(page, TWO_FACTOR_TEXT.title);

test('an admin turns on their own two-factor sign-in, then requires it of every admin', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const second = createSecondAdmin();
  // The second admin's own session through the API, for the clean-up below: it outlives a failure.
  const cleanup = await playwright.request.newContext({ baseURL });
  const signIn = await cleanup.post('/api/v1/auth/adminsignin', {
    headers: { ...(await csrfHeaders(cleanup)), 'X-Forwarded-For': nextClientAddress() },
    data: second,
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const other = await browser.newContext({ viewport: { width: 1366, height: 850 } });
  try {
    let app: Authenticator | undefined;

    await test.step('Settings is in the side navigation and holds the setting and the own card', async () => {
      await page.goto('/admin-login');
      await fillSignIn(page, second.email, second.password);
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
      await expect(page).toHaveURL(/\/admin\/settings$/);
      await expect(
        page.getByRole('heading', { name: TWO_FACTOR_TEXT.settingsTitle, level: 1 }),
      ).toBeVisible();
      await expect(settingCard(page).getByLabel(TWO_FACTOR_TEXT.requireForAdmins)).not.toBeChecked();
      await expect(ownCard(page).getByTestId('two-factor-status')).toHaveText(TWO_FACTOR_TEXT.off);
    });

    await test.step('the setting cannot be turned on before the admin’s own two-factor sign-in', async () => {
      await settingCard(page).getByLabel(TWO_FACTOR_TEXT.requireForAdmins).check();
      await settingCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.save }).click();
      const error = page.getByRole('dialog', { name: DIALOG.errorTitle });
      await expect(error.getByText(TWO_FACTOR.settingNeedsOwn)).toBeVisible();
      await error.getByRole('button', { name: DIALOG.close, exact: true }).click();
      await expect(settingCard(page).getByLabel(TWO_FACTOR_TEXT.requireForAdmins)).not.toBeChecked();
    });

    await test.step('the admin turns on their own with the key and a code, and sees ten recovery codes', async () => {
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.start }).click();
      const secret = (await ownCard(page).getByTestId('two-factor-secret').textContent()) ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      app = new Authenticator(secret);
      await ownCard(page)
        .getByLabel(TWO_FACTOR_TEXT.confirmCode)
        .fill(await app.next(page));
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.confirm }).click();
      await expect(ownCard(page).getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.done }).click();
      await expect(ownCard(page).getByTestId('two-factor-status')).toHaveText(TWO_FACTOR_TEXT.on);
    });

    await test.step('now the setting turns on', async () => {
      await settingCard(page).getByLabel(TWO_FACTOR_TEXT.requireForAdmins).check();
      await settingCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.save }).click();
      await expect(page.getByText(SETTINGS_MESSAGES.saved)).toBeVisible();
      await expect(settingCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.save })).toBeDisabled();
    });

    await test.step('an admin without two-factor sign-in sees only the set-up', async () => {
      const look = await other.newPage();
      await look.goto('/admin-login');
      await fillSignIn(look, E2E_ADMIN.email, E2E_ADMIN.password);
      await expect(look.getByText(TWO_FACTOR_TEXT.adminRequiredNotice)).toBeVisible();
      await expect(ownCard(look).getByRole('button', { name: TWO_FACTOR_TEXT.start })).toBeVisible();
      await look.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Members' }).click();
      await expect(look.getByText(TWO_FACTOR_TEXT.adminRequiredNotice)).toBeVisible();
      await expect(look.getByRole('heading', { level: 1, name: 'Members' })).toHaveCount(0);
    });

    await test.step('signing in again asks this admin for the code', async () => {
      if (!app) throw new Error('two-factor sign-in was not set up');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page).toHaveURL(/\/admin-login/);
      await fillSignIn(page, second.email, second.password);
      await expect(page.getByRole('heading', { name: TWO_FACTOR_TEXT.codeStep })).toBeVisible();
      await page.getByLabel(TWO_FACTOR_TEXT.confirmCode).fill(await app.next(page));
      await page.getByRole('button', { name: TWO_FACTOR_TEXT.verify }).click();
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
    });

    await test.step('the setting goes off again, and the admin turns their own off with a code', async () => {
      if (!app) throw new Error('two-factor sign-in was not set up');
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
      await settingCard(page).getByLabel(TWO_FACTOR_TEXT.requireForAdmins).uncheck();
      await settingCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.save }).click();
      await expect(settingCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.save })).toBeDisabled();
      await ownCard(page)
        .getByLabel(TWO_FACTOR_TEXT.turnOffCode)
        .fill(await app.next(page));
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.turnOff }).click();
      await expect(ownCard(page).getByTestId('two-factor-status')).toHaveText(TWO_FACTOR_TEXT.off);
    });
  } finally {
    // Whatever failed above, the shared admin must find the setting off (this admin has two-factor
    // sign-in whenever the setting could be on, so the call is not held back).
    const off = await cleanup.put('/api/v1/settings', {
      headers: await csrfHeaders(cleanup),
      data: { admin_two_factor_required: false },
    });
    expect(off.status(), await off.text()).toBe(200);
    await Promise.all([cleanup.dispose(), other.close()]);
  }
});

/** The run's database, opened for `use` and closed (the run's server keeps it open too, as the CLI does). */
async function withRunDatabase(use: (db: ReturnType<typeof createDatabase>['db']) => Promise<void>) {
  const { db } = createDatabase({ dataDir: E2E_DATA_DIR, databaseUrl: undefined, databaseSchema: undefined });
  try {
    await use(db);
  } finally {
    await db.destroy();
  }
}

test('by default a new admin sets up two-factor sign-in at first sign-in, before anything else', async ({
  page,
}) => {
  test.setTimeout(120_000);
  expect(DEFAULT_SETTINGS.admin_two_factor_required).toBe(true);
  const fresh = createSecondAdmin();
  // The run turns the setting off for its admins (tests/e2e/global-setup.ts); here it is as a
  // deployment that never changed it, and off again whatever happens.
  await withRunDatabase(adminTwoFactorAsDefault);
  try {
    await test.step('the first sign-in shows only the set-up', async () => {
      await page.goto('/admin-login');
      await fillSignIn(page, fresh.email, fresh.password);
      await expect(page.getByText(TWO_FACTOR_TEXT.adminRequiredNotice)).toBeVisible();
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Members' }).click();
      await expect(page.getByText(TWO_FACTOR_TEXT.adminRequiredNotice)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toHaveCount(0);
    });

    await test.step('with two-factor sign-in set up, the admin reaches the members', async () => {
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.start }).click();
      const secret = (await ownCard(page).getByTestId('two-factor-secret').textContent()) ?? '';
      const app = new Authenticator(secret);
      await ownCard(page)
        .getByLabel(TWO_FACTOR_TEXT.confirmCode)
        .fill(await app.next(page));
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.confirm }).click();
      await expect(ownCard(page).getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
      await ownCard(page).getByRole('button', { name: TWO_FACTOR_TEXT.done }).click();
      await expect(page.getByText(TWO_FACTOR_TEXT.adminRequiredNotice)).toHaveCount(0);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Members' }).click();
      await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
    });
  } finally {
    await withRunDatabase(adminTwoFactorOffForTests);
  }
});
