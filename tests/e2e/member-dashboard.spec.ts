import { expect, test } from '@playwright/test';
import {
  csrfHeaders,
  expectTapTarget,
  newMember,
  referralCodeOf,
  registerByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';

// Issue 17 item 5: the dashboard every member opens first gathers what they check daily (both
// wallets, income, team and rank, the latest notifications, quick links), each part shown as soon as
// its own answer arrives.

const owner = newMember('dashowner');
const first = newMember('dashfirst');
const second = newMember('dashsecond');
const NOTIFICATION_TITLE = `Dashboard news ${Date.now()}`;

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const codes = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  const self = await playwright.request.newContext({ baseURL });
  try {
    await registerByApi(api, owner);
    const code = await referralCodeOf(codes, owner);
    await registerByApi(api, first, code);
    await registerByApi(api, second, code);
    const ownerId = await signInByApi(self, owner);
    await signInAdminByApi(admin);
    const sent = await admin.post('/api/v1/notifications', {
      headers: await csrfHeaders(admin),
      data: { title: NOTIFICATION_TITLE, message: 'For the dashboard', users: false, recipients: [ownerId] },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  } finally {
    await Promise.all([api.dispose(), codes.dispose(), admin.dispose(), self.dispose()]);
  }
});

test('the dashboard shows wallets, income, team and rank, the latest notifications and quick links', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signInMember(page, owner);
  await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
  await expect(page.getByTestId('income-today')).toHaveText('$0.00');
  await expect(page.getByTestId('income-month')).toHaveText('$0.00');
  await expect(page.getByTestId('active-investments')).toHaveText('0 · $0.00');
  await expect(page.getByTestId('team-size')).toHaveText('2');
  await expect(page.getByTestId('direct-count')).toHaveText('2');
  await expect(page.getByTestId('team-business')).toHaveText('$0.00');
  await expect(page.getByTestId('rank-line')).toContainText('Rank: none yet');
  await expect(page.getByTestId('latest-notifications')).toContainText(NOTIFICATION_TITLE);

  const links = page.getByRole('navigation', { name: 'Quick links' });
  for (const name of ['Send money', 'Add money', 'Withdraw', 'Invest', 'Invite']) {
    await expectTapTarget(links.getByRole('link', { name, exact: true }));
  }
  await links.getByRole('link', { name: 'Send money', exact: true }).click();
  await expect(page).toHaveURL(/\/user\/transfer-form/);
});

test.describe('with the network in view', () => {
  // The service worker would fetch the API itself, out of page.route's sight.
  test.use({ serviceWorkers: 'block' });

  test('a slow part does not hold back the others', async ({ page }) => {
    // The team's answer is held back until the rest of the dashboard has shown.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/referral/full/**', async (route) => {
      await held;
      await route.continue();
    });
    await signInMember(page, owner);
    await expect(page.getByTestId('balance-working')).toBeVisible();
    await expect(page.getByTestId('income-today')).toBeVisible();
    await expect(page.getByTestId('latest-notifications')).toContainText(NOTIFICATION_TITLE);
    await expect(page.getByRole('status').filter({ hasText: 'Loading your team' })).toBeAttached();
    await expect(page.getByTestId('team-size')).toHaveCount(0);
    release();
    await expect(page.getByTestId('team-size')).toHaveText('2');
  });
});
