import { readFile } from 'node:fs/promises';
import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  type PlaywrightWorkerArgs,
  test,
} from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { type LevelSettings, PLAN_MESSAGES, type Plan } from '../../src/shared/plans.ts';
import { CODE_MESSAGES } from '../../src/shared/topups.ts';
import {
  csrfHeaders,
  fillSignIn,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';

// The admin's /admin/plans screen on a desktop (issue 15, item 1): plans and activation plans made,
// edited, deactivated and deleted through the form, the level percents, and activation codes with who
// used each. The run shares one database: every plan here has a name of its own, and the level lists
// are put back as they were (other specs' activation income must not change; specs run one at a time).

const unique = (tag: string) =>
  `E2E ${tag} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e5).toString(36)}`;

async function openPlans(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const link = page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Plans', exact: true });
  await link.click();
  await expect(page).toHaveURL(/\/admin\/plans/);
  await expect(link).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Plans' })).toBeVisible();
}

/** Filters a plans table down to one name and answers that row. */
async function findRow(section: Locator, name: string): Promise<Locator> {
  await section.getByLabel('Search by name').fill(name);
  const row = section.locator(`tr[data-plan-name="${name}"]`);
  await expect(row).toHaveCount(1);
  return row;
}

const cellTexts = (row: Locator) => row.locator('td').allInnerTexts();

/** The run's admin in an API context of its own, to arrange and check what the screen cannot show. */
async function adminApi(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined) {
  const context: APIRequestContext = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(context);
  return context;
}

test('the admin creates a plan and an activation plan, edits, deactivates and deletes', async ({ page }) => {
  await openPlans(page);
  const plans = page.getByTestId('plan-section');
  await expect(page.getByRole('tab', { name: 'Plans', exact: true, selected: true })).toBeVisible();

  // A mistake shows on its field before anything is sent.
  await plans.getByRole('button', { name: 'New plan' }).click();
  const form = page.getByRole('dialog', { name: 'New plan' });
  const planName = unique('plan');
  await form.getByLabel('Name').fill(planName);
  await form.getByLabel('Minimum amount (USD)').fill('500');
  await form.getByLabel('Maximum amount (USD)').fill('100');
  await form.getByLabel('Daily ROI %').fill('1.5');
  await form.getByLabel('Duration (days)').fill('30');
  await form.getByRole('button', { name: 'Create plan' }).click();
  await expect(form.getByText(PLAN_MESSAGES.minAboveMax)).toBeVisible();
  await expect(form.getByLabel('Maximum amount (USD)')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Maximum amount (USD)').fill('5000');
  await form.getByRole('button', { name: 'Create plan' }).click();
  await expect(form).toBeHidden();
  await expect(plans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.created);
  let row = await findRow(plans, planName);
  expect(await cellTexts(row)).toEqual(
    expect.arrayContaining([planName, '$500.00 to $5,000.00', '1.5%', '30 days', 'Active']),
  );
  await expectTablesFit(plans);

  // Edit: the form opens filled with the plan.
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit plan' });
  await expect(edit.getByLabel('Name')).toHaveValue(planName);
  await expect(edit.getByLabel('Minimum amount (USD)')).toHaveValue('500.00');
  await expect(edit.getByLabel('Daily ROI %')).toHaveValue('1.50');
  await edit.getByLabel('Daily ROI %').fill('1.75');
  await edit.getByLabel('Duration (days)').fill('45');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(plans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.updated);
  row = await findRow(plans, planName);
  expect(await cellTexts(row)).toEqual(expect.arrayContaining(['1.75%', '45 days']));

  // The activation plan: a fixed price.
  await page.getByRole('tab', { name: 'Activation plans' }).click();
  await expect(page).toHaveURL(/tab=activation/);
  const actplans = page.getByTestId('activation-section');
  await actplans.getByRole('button', { name: 'New activation plan' }).click();
  const actForm = page.getByRole('dialog', { name: 'New activation plan' });
  const actName = unique('package');
  await actForm.getByLabel('Name').fill(actName);
  await actForm.getByLabel('Price (USD)').fill('50');
  await actForm.getByLabel('Daily ROI %').fill('0');
  await actForm.getByLabel('Duration (days)').fill('60');
  await actForm.getByRole('button', { name: 'Create activation plan' }).click();
  await expect(actForm.getByText(PLAN_MESSAGES.roiInvalid)).toBeVisible();
  await actForm.getByLabel('Daily ROI %').fill('1');
  await actForm.getByRole('button', { name: 'Create activation plan' }).click();
  await expect(actForm).toBeHidden();
  await expect(actplans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.actCreated);
  const actRow = await findRow(actplans, actName);
  expect(await cellTexts(actRow)).toEqual(
    expect.arrayContaining([actName, '$50.00', '1%', '60 days', 'Active']),
  );
  await expectTablesFit(actplans);

  // Deactivate, then delete: nobody bought it, so it goes.
  await actRow.getByRole('button', { name: 'Deactivate' }).click();
  await expect(actplans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.actUpdated);
  await expect(actRow.getByText('Inactive')).toBeVisible();
  await expect(actRow.getByRole('button', { name: 'Activate', exact: true })).toBeVisible();

  await actRow.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete' });
  await expect(dialog.getByText('made inactive instead')).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(actplans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.actDeleted);
  await expect(actplans.locator(`tr[data-plan-name="${actName}"]`)).toHaveCount(0);
});

test('the admin edits the level percents, level 1 first, with the shared messages', async ({
  page,
  playwright,
}, testInfo) => {
  const admin = await adminApi(playwright, testInfo.project.use.baseURL);
  const levels = async () => (await (await admin.get('/api/v1/plans/levels')).json()) as LevelSettings;
  const before = await levels();
  try {
    await openPlans(page);
    await page.getByRole('tab', { name: 'Level percents' }).click();
    await expect(page).toHaveURL(/tab=levels/);

    const activation = page.getByTestId('levels-active');
    for (const [index, percent] of before.active_levels.entries())
      await expect(activation.getByLabel(`Level ${index + 1} %`, { exact: true })).toHaveValue(percent);
    const added = `Level ${before.active_levels.length + 1} %`;
    await activation.getByRole('button', { name: 'Add level' }).click();
    await activation.getByLabel(added, { exact: true }).fill('101');
    await activation.getByRole('button', { name: 'Save' }).click();
    await expect(activation.getByText(PLAN_MESSAGES.percentInvalid)).toBeVisible();
    await expect(activation.getByLabel(added, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(await levels()).toEqual(before);

    await activation.getByLabel(added, { exact: true }).fill('1.25');
    await activation.getByRole('button', { name: 'Save' }).click();
    await expect(activation.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.activationLevelsSaved);
    expect((await levels()).active_levels).toEqual([...before.active_levels, '1.25']);
    await page.reload();
    await expect(page.getByTestId('levels-active').getByLabel(added, { exact: true })).toHaveValue('1.25');

    // Put back as it was: the run's other specs count on today's percents.
    await page
      .getByTestId('levels-active')
      .getByRole('button', { name: `Remove level ${before.active_levels.length + 1}` })
      .click();
    await expect(page.getByTestId('levels-active').getByLabel(added, { exact: true })).toHaveCount(0);
    await page.getByTestId('levels-active').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('levels-active').getByTestId('banner-success')).toHaveText(
      PLAN_MESSAGES.activationLevelsSaved,
    );

    // ROI level income: level 1 changed, saved, then put back.
    const roi = page.getByTestId('levels-invest');
    for (const [index, percent] of before.invest_levels.entries())
      await expect(roi.getByLabel(`Level ${index + 1} %`, { exact: true })).toHaveValue(percent);
    if (before.invest_levels.length === 0) await roi.getByRole('button', { name: 'Add level' }).click();
    const level1 = roi.getByLabel('Level 1 %', { exact: true });
    const changed = before.invest_levels[0] === '0.50' ? '0.75' : '0.50';
    await level1.fill(changed);
    await roi.getByRole('button', { name: 'Save' }).click();
    await expect(roi.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.roiLevelsSaved);
    expect((await levels()).invest_levels[0]).toBe(changed);
    if (before.invest_levels.length === 0) await roi.getByRole('button', { name: 'Remove level 1' }).click();
    else await level1.fill(before.invest_levels[0] ?? '');
    await roi.getByRole('button', { name: 'Save' }).click();
    await expect(roi.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.roiLevelsSaved);
    expect(await levels()).toEqual(before);
  } finally {
    // Whatever happened above, the next specs find the percents they started with.
    for (const [which, percents] of [
      ['active', before.active_levels],
      ['invest', before.invest_levels],
    ] as const) {
      const restored = await admin.post(`/api/v1/plans/add${which}level`, {
        headers: await csrfHeaders(admin),
        data: { percents },
      });
      expect(restored.status(), await restored.text()).toBe(200);
    }
    await admin.dispose();
  }
});

test('the admin creates 3 activation codes, sees them listed, and who used the one a member redeemed', async ({
  page,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const admin = await adminApi(playwright, baseURL);
  const planName = unique('code plan');
  const created = await admin.post('/api/v1/plans/add', {
    headers: await csrfHeaders(admin),
    data: { name: planName, min_amount: '20', max_amount: '1000', roi_percent: '1', duration_days: 30 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const plan = ((await created.json()) as { plan: Plan }).plan;

  await openPlans(page);
  await page.getByRole('tab', { name: 'Activation codes' }).click();
  await expect(page).toHaveURL(/tab=codes/);
  const batch = page.getByRole('region', { name: 'Create activation codes' });
  await batch.getByLabel('Plan', { exact: true }).selectOption({ label: planName });
  await batch.getByLabel('Amount (USD)').fill('25');
  await batch.getByLabel('Number of codes').fill('0');
  await batch.getByRole('button', { name: 'Create codes' }).click();
  await expect(batch.getByText(CODE_MESSAGES.countInvalid)).toBeVisible();
  await batch.getByLabel('Number of codes').fill('3');
  // Promotional unless chosen: these are paid for, so their principal can be withdrawn.
  await expect(batch.getByLabel('Principal')).toHaveValue('promotional');
  await batch.getByLabel('Principal').selectOption('paid');
  await batch.getByRole('button', { name: 'Create codes' }).click();
  await expect(batch.getByTestId('banner-success')).toHaveText(CODE_MESSAGES.created);

  const fresh = page.getByTestId('new-codes');
  await expect(fresh.locator('li')).toHaveCount(3);
  const codes = (await fresh.locator('li').allInnerTexts()).map((c) => c.trim());
  expect(codes).toHaveLength(3);
  for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{12}$/);
  await expect(fresh.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await fresh.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile(await (await downloading).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('\uFEFFCode,Plan,Amount (USD),Created');
  for (const code of codes) expect(csv).toContain(`${code},${planName},25.00,`);

  const table = page.getByTestId('codes-table');
  for (const code of codes) {
    const row = table.locator(`tr[data-code="${code}"]`);
    await expect(row).toHaveCount(1);
    expect(await cellTexts(row)).toEqual(
      expect.arrayContaining([code, planName, '$25.00', 'Paid', 'Unused']),
    );
  }

  // A member redeems the first code through the API.
  const member = newMember('codes');
  const memberApi = await playwright.request.newContext({ baseURL });
  await registerByApi(memberApi, member);
  await signInByApi(memberApi, member);
  const redeemed = await memberApi.post('/api/v1/codes/redeem', {
    headers: { ...(await csrfHeaders(memberApi)), 'Idempotency-Key': crypto.randomUUID() },
    data: { code: codes[0]?.toLowerCase() },
  });
  expect(redeemed.status(), await redeemed.text()).toBe(201);
  await memberApi.dispose();

  // The batch is shown once: after a reload only the list has the codes, now with who used the first.
  await page.reload();
  await expect(page.getByTestId('new-codes')).toHaveCount(0);
  const usedRow = table.locator(`tr[data-code="${codes[0]}"]`);
  await expect(usedRow.getByText('Used', { exact: true })).toBeVisible();
  await expect(usedRow).toContainText(member.fullname);
  await expect(usedRow).toContainText(member.email);
  await expect(table.locator(`tr[data-code="${codes[1]}"]`).getByText('Unused')).toBeVisible();
  await expectTablesFit(page.getByRole('region', { name: 'Activation codes', exact: true }));

  await usedRow.getByRole('button', { name: codes[0] }).click();
  const detail = page.getByRole('dialog', { name: 'Activation code' }).getByTestId('code-detail');
  await expect(detail).toContainText(`${member.fullname} (${member.email})`);
  await expect(detail).toContainText(planName);
  await page
    .getByRole('dialog', { name: 'Activation code' })
    .getByRole('button', { name: 'Close', exact: true })
    .click();

  // The plan now has an investment: Delete makes it inactive instead, and says so.
  await page.getByRole('tab', { name: 'Plans', exact: true }).click();
  const plans = page.getByTestId('plan-section');
  const row = await findRow(plans, planName);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(plans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.deactivated);
  await expect(row.getByText('Inactive')).toBeVisible();
  const still = await admin.get(`/api/v1/plans/${plan.id}`);
  expect(((await still.json()) as Plan).status).toBe('inactive');
  await admin.dispose();
});
