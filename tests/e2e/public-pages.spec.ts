import { expect, test } from '@playwright/test';

test.describe('public pages on a phone', () => {
  test('the landing page shows the risk warning and the way in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('note').first()).toContainText('you can lose some or all of the money');
    await expect(page.getByRole('link', { name: 'Start Trading Now' })).toHaveAttribute(
      'href',
      '/registration',
    );
    await page.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Member login' })).toBeVisible();
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
