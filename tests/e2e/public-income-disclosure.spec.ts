import { expect, test } from '@playwright/test';
import { DISCLOSURE_TEXT, INCOME_BANDS } from '../../src/shared/disclosure.ts';
import { RISK_DISCLAIMER } from '../../src/shared/messages.ts';
import { formatPercent } from '../../src/shared/money.ts';

// Issue 17 item 6: a visitor follows the landing page footer's link to the income disclosure and
// sees the figures the server computed from the ledger (this run's database: whatever the other specs
// paid), the bands adding up to every member, and the warnings.

test('a visitor reads the income disclosure from the landing page footer', async ({ page }) => {
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/public/income-disclosure'));
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Useful links' })
    .getByRole('link', { name: 'Income disclosure' })
    .click();
  await expect(page).toHaveURL(/\/income-disclosure$/);
  await expect(page.getByRole('heading', { level: 1, name: DISCLOSURE_TEXT.title })).toBeVisible();
  const figures = (await (await answer).json()) as {
    members: number;
    bands: { id: string; members: number; share_percent: string }[];
    median: string;
  };
  const rows = page.getByTestId('disclosure-bands').locator('tbody tr');
  await expect(rows).toHaveCount(INCOME_BANDS.length);
  for (const band of figures.bands) {
    const row = page.locator(`tr[data-band="${band.id}"]`);
    await expect(row).toContainText(String(band.members));
    await expect(row).toContainText(formatPercent(band.share_percent));
  }
  expect(figures.bands.reduce((sum, b) => sum + b.members, 0)).toBe(figures.members);
  await expect(page.getByTestId('disclosure-members')).toHaveText(String(figures.members));
  await expect(page.getByRole('note').filter({ hasText: DISCLOSURE_TEXT.warning })).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: RISK_DISCLAIMER }).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
