import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { CTO_MESSAGES, previousMonth } from '../../src/shared/cto.ts';
import { REWARD_MESSAGES } from '../../src/shared/rewards.ts';
import { monthBefore, SALARY_MESSAGES } from '../../src/shared/salary.ts';
import { solidImage } from '../fixtures/images.ts';
import { fillSignIn, signInAdminByApi } from './helpers.ts';
import { salaryCleanUp, salaryLeader } from './salary-setup.ts';

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
  // Who reached which rewards, and the reminder (not pressed here: the database is shared).
  await expect(page.getByTestId('members-rewards')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remind members to claim' })).toBeVisible();
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
  // The photo is lazy-loaded with a fixed size: it is visible before it has loaded, so wait for it to
  // load (a photo that never loads keeps a natural width of 0 and fails here).
  await expect
    .poll(() => card.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await card.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Achiever removed' })).toBeVisible();
  await expect(page.getByTestId('achiever').filter({ hasText: name })).toHaveCount(0);
});

// Issue 17 item 3 on a desktop: an admin creates a salary tier (the shared schema refuses a bad one
// first), pays last month by hand, finds the paid member in the paged payments list, and a second
// press pays nothing more.
test('an admin creates a salary tier and pays an ended month once', async ({ page, playwright, baseURL }) => {
  const month = monthBefore();
  const name = `E2E Salary ${Date.now().toString(36)}`;
  const admin = await playwright.request.newContext({ baseURL });
  let planId = '';
  let tierId = '';
  try {
    await signInAdminByApi(admin);
    const setup = await salaryLeader(
      admin,
      () => playwright.request.newContext({ baseURL }),
      'saladm',
      month,
    );
    planId = setup.planId;

    await page.goto('/admin-login');
    await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Reward claims' })
      .click();
    const salary = page.getByRole('region', { name: 'Salary' });
    const form = salary.getByRole('form', { name: 'New salary tier' });
    await form.getByLabel('Tier name').fill(name);
    await form.getByLabel('New team business in the month (USD)').fill('40');
    await form.getByLabel('Active direct members').fill('x');
    await form.getByLabel('Monthly salary (USD)').fill('3.25');
    await form.getByRole('button', { name: 'Create salary tier' }).click();
    await expect(form.getByText(SALARY_MESSAGES.directsInvalid)).toBeVisible();
    await form.getByLabel('Active direct members').fill('1');
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/api/v1/salary/tiers') && r.request().method() === 'POST',
    );
    await form.getByRole('button', { name: 'Create salary tier' }).click();
    tierId = ((await (await created).json()) as { tier: { id: string } }).tier.id;
    await expect(salary.getByRole('status').filter({ hasText: SALARY_MESSAGES.created })).toBeVisible();
    const row = salary.getByTestId('salary-tiers').getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('$40.00');
    await expect(row).toContainText('$3.25');

    await salary.getByLabel('Month to pay').fill(month);
    const pay = salary.getByRole('button', { name: `Pay the salaries of ${month}` });
    await pay.click();
    await expect(salary.getByRole('status').filter({ hasText: SALARY_MESSAGES.runDone })).toContainText(
      new RegExp(`\\d+ paid .* for ${month}`),
    );
    const payments = salary.getByTestId('salary-payments');
    await salary.getByLabel('Search member or tier').fill(setup.leader.username);
    await salary.getByLabel('Search member or tier').press('Enter');
    const paid = payments.getByRole('row').filter({ hasText: `@${setup.leader.username}` });
    await expect(paid).toHaveCount(1);
    await expect(paid).toContainText(month);
    await expect(salary.getByTestId('salary-last-run')).toContainText(`${month}: completed`);

    await pay.click();
    await expect(salary.getByRole('status').filter({ hasText: SALARY_MESSAGES.runDone })).toContainText(
      `0 paid $0.00 for ${month}`,
    );
    await expect(paid).toHaveCount(1);
  } finally {
    await salaryCleanUp(admin, planId, tierId);
    await admin.dispose();
  }
});
