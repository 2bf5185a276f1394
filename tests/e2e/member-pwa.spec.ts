import { devices, expect, test } from '@playwright/test';
import { isOfflineCopyPath } from '../../src/shared/offline.ts';
import { type Member, newMember, registerByApi, signInMember } from './helpers.ts';
import { waitForControl } from './pwa-helpers.ts';

// The installed app for a member on a phone (issue 6): the member's screens open from the service
// worker's shell with no network, the API goes to the server (only the member's own transfers,
// balances and notifications pass through the worker, to be copied: member-offline.spec.ts), and the
// app offers installation
// (the browser's own prompt behind an "Install app" button; a one-time hint on iOS Safari).

let member: Member;

test.beforeAll(async ({ request }) => {
  member = newMember('pwa');
  await registerByApi(request, member);
});

test('signed in, the member screens reopen offline from the shell; no other API call passes through the worker', async ({
  page,
  context,
}) => {
  const apiFromWorker: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/') && response.fromServiceWorker())
      apiFromWorker.push(response.url());
  });
  await signInMember(page, member);
  await waitForControl(page);
  // Opened once online, so its code is kept.
  await page.getByRole('link', { name: 'Transfer' }).click();
  await expect(page).toHaveURL(/\/user\/transfer(\?|$)/);
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page).toHaveURL(/\/user\/transfer(\?|$)/);
    await expect(page.getByTestId('member-name')).toHaveText(member.fullname);
    await expect(page.getByRole('navigation', { name: 'Member' })).toBeVisible();
    await page.goto('/user/dashboard');
    await expect(page.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
  expect(apiFromWorker.filter((url) => !isOfflineCopyPath(new URL(url).pathname))).toEqual([]);
});

test('"Install app" appears once the browser offers installation and opens its prompt', async ({ page }) => {
  await signInMember(page, member);
  const install = page.getByRole('button', { name: 'Install app' });
  await expect(install).toBeHidden();
  // Not Safari on iOS: no add-to-home-screen hint.
  await expect(page.getByRole('note').filter({ hasText: 'Add to Home Screen' })).toHaveCount(0);
  // Chromium's own event, with the prompt() a browser gives it, recorded so the test sees it called.
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt: () => Promise<void>;
      userChoice: Promise<{ outcome: string }>;
    };
    event.prompt = async () => {
      (window as { promptShown?: number }).promptShown =
        ((window as { promptShown?: number }).promptShown ?? 0) + 1;
    };
    event.userChoice = Promise.resolve({ outcome: 'dismissed' });
    window.dispatchEvent(event);
  });
  await expect(install).toBeVisible();
  await install.click();
  await expect.poll(() => page.evaluate(() => (window as { promptShown?: number }).promptShown)).toBe(1);
  // The browser allows one prompt per offer: the button goes until it offers again.
  await expect(install).toBeHidden();
});

test.describe('on iOS Safari', () => {
  test.use({ userAgent: devices['iPhone 13'].userAgent });

  test('a short add-to-home-screen hint shows once, and never an install button', async ({ page }) => {
    await signInMember(page, member);
    const hint = page.getByRole('note').filter({ hasText: 'Add to Home Screen' });
    await expect(hint).toBeVisible();
    await expect(page.getByRole('button', { name: 'Install app' })).toBeHidden();
    await hint.getByRole('button', { name: 'Got it' }).click();
    await expect(hint).toBeHidden();
    // Once per device, dismissed or not: the next visit does not show it again.
    await page.evaluate(() => window.localStorage.removeItem('pwa.ios-install-hint-seen'));
    await page.reload();
    await expect(hint).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
    await expect(page.getByRole('note').filter({ hasText: 'Add to Home Screen' })).toHaveCount(0);
  });
});
