import { expect, test } from '@playwright/test';
import { RISK_DISCLAIMER } from '../../src/shared/messages.ts';

// Spec 2 "Public routes": every public path draws its screen on a phone, with the risk warning in view.

const PUBLIC_PAGES = [
  { path: '/', heading: 'Secure, educational and transparent crypto trading' },
  { path: '/login', heading: 'Member login' },
  { path: '/admin-login', heading: 'Admin login' },
  { path: '/registration', heading: 'Create your account' },
  { path: '/unauthorized', heading: 'Access denied' },
  { path: '/no/such/page', heading: 'Page not found' },
] as const;

test.describe('public pages on a phone', () => {
  for (const { path, heading } of PUBLIC_PAGES) {
    test(`${path} shows its heading and the risk warning`, async ({ page }) => {
      await page.goto(path);
      const title = page.getByRole('heading', { level: 1, name: heading });
      await expect(title).toBeVisible();
      await expect(title).toBeInViewport();
      // One main landmark, holding the heading: where "Skip to content" and screen readers land.
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // The page fits the phone: nothing pushes it wider than the screen.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);

      const warning = page.getByRole('note').filter({ hasText: RISK_DISCLAIMER });
      await expect(warning).toHaveCount(1);
      await warning.scrollIntoViewIfNeeded();
      await expect(warning).toBeVisible();
    });
  }

  test('the landing page shows the risk warning and the way in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('note').first()).toContainText('you can lose some or all of the money');
    await expect(page.getByRole('link', { name: 'Start Trading Now' })).toHaveAttribute(
      'href',
      '/registration',
    );
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Member login' })).toBeVisible();
  });

  test('the sign-up link in the header opens the registration form', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/registration$/);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    for (const label of ['Full name', 'Username', 'Email', 'Phone', 'Password', 'Referral code (optional)'])
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    // The app hands over to the static landing page: a real page load, not a copy drawn in the app.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Secure, educational and transparent crypto trading',
    );
    await expect(page.locator('#root')).toHaveCount(0);
  });
});
