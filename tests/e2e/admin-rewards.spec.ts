import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { REWARD_MESSAGES } from '../../src/shared/rewards.ts';
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

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reward claims' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reward transactions' })).toBeVisible();
  await expect(page.getByTestId('reward-claims')).toBeVisible();
});
