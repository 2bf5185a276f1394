import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { CTO_MESSAGES, previousMonth } from '../../src/shared/cto.ts';
import { REWARD_MESSAGES } from '../../src/shared/rewards.ts';
import { solidImage } from '../fixtures/images.ts';
import { fillSignIn } from './helpers.ts';

// Issue 17 item 2 on a desktop: an admin adds a rung to the reward ladder, changes it, sees it in the
// table, and deletes it (nobody claimed it); the claims list opens.

test('an admin creates, edits and deletes a reward plan', async ({ page }) => {
  const rank = `E2E Admin rank ${Date.now().toString(36)}`;
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reward plans' }).click();
  await expect(page).toHaveURL(/\/admin\/reward-plans$/);
  const form = page.getByRole('form', { name: 'New reward plan' });
  await form.getByLabel('Rank').fill(rank);
  await form.getByLabel('Team business needed (USD)').fill('0');
  await form.getByLabel('Reward (USD)').fill('12.5');
  await form.getByRole('button', { name: 'Create reward plan' }).click();
  await expect(form.getByText('Amount must be greater than 0')).toBeVisible();
  await form.getByLabel('Team business needed (USD)').fill('250000');
  await form.getByRole('button', { name: 'Create reward plan' }).click();
  await expect(page.getByRole('status').filter({ hasText: REWARD_MESSAGES.created })).toBeVisible();
  const table = page.getByTestId('reward-plans');
  const row = table.getByRole('row').filter({ hasText: rank });
  await expect(row).toContainText('$250,000.00');
  await expect(row).toContainText('$12.50');

  await row.getByRole('button', { name: `Edit ${rank}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${rank}` });
  await edit.getByLabel('Reward (USD)').fill('15');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: REWARD_MESSAGES.updated })).toBeVisible();
  await expect(row).toContainText('$15.00');

  await row.getByRole('button', { name: `Delete ${rank}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: REWARD_MESSAGES.deleted })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: rank })).toHaveCount(0);
  // The leadership table sits under the ladder.
  await expect(page.getByRole('heading', { level: 2, name: 'Leadership' })).toBeVisible();
  await expect(page.getByTestId('leadership')).toBeVisible();

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reward claims' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reward transactions' })).toBeVisible();
  await expect(page.getByTestId('reward-claims')).toBeVisible();
});

test('the CTO section shows the server’s figures for last month and its answer to Pay', async ({ page }) => {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  const preview = page.waitForResponse((r) => r.url().includes('/api/v1/cto?month='));
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reward claims' }).click();
  const cto = page.getByRole('region', { name: 'CTO' });
  const figures = (await (await preview).json()) as {
    month: string;
    deposits: string;
    pool: string;
    payment: unknown;
  };
  expect(figures.month).toBe(previousMonth());
  await expect(cto.getByLabel('Month')).toHaveValue(figures.month);
  await expect(cto.getByTestId('cto-figures')).toContainText(`$${Number(figures.pool).toFixed(2)}`);
  // This run's database has no deposits in an ended month: Pay is refused with the server's reason,
  // and nothing is paid.
  expect(figures.payment).toBeNull();
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/cto/pay'));
  await cto.getByRole('button', { name: `Pay the CTO of ${figures.month}` }).click();
  const refusal = await answer;
  expect(refusal.status()).toBe(422);
  const { message } = (await refusal.json()) as { message: string };
  expect([CTO_MESSAGES.nobody, CTO_MESSAGES.poolTooSmall, CTO_MESSAGES.noRanks]).toContain(message);
  await expect(cto.getByRole('alert')).toHaveText(message);
  await expect(cto.getByTestId('cto-paid')).toHaveCount(0);
});

test('an admin adds an achiever with a photo to the gallery and removes it', async ({ page }) => {
  const name = `E2E Achiever ${Date.now().toString(36)}`;
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reward plans' }).click();
  const form = page.getByRole('form', { name: 'Add an achiever' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Rank').fill('Diamond');
  await form
    .getByLabel('Photo')
    .setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: await solidImage('png', 200, 200) });
  await form.getByRole('button', { name: 'Add achiever' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Achiever added' })).toBeVisible();
  const card = page.getByTestId('achiever').filter({ hasText: name });
  await expect(card).toContainText('Diamond');
  await expect(card.getByRole('img', { name })).toBeVisible();
  expect(
    await card.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);
  await card.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Achiever removed' })).toBeVisible();
  await expect(page.getByTestId('achiever').filter({ hasText: name })).toHaveCount(0);
});
