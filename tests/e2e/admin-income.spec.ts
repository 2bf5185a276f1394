import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { formatUtcDay } from '../../src/client/lib/utc-days.ts';
import { addDays, dateOf, yesterday } from '../../src/shared/dates.ts';
import { INCOME_MESSAGES } from '../../src/shared/income.ts';
import { PLAN_MESSAGES, type Plan } from '../../src/shared/plans.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
} from './helpers.ts';
import { movePurchaseTo, unpaidPastDate } from './income-dates.ts';
import { expectTablesFit } from './table-fit.ts';

// Issue 15 item 3 on a desktop: an admin makes a plan on /admin/plans, a member invests in it, and the
// admin pays a date by hand on /admin/income: the spec's message, what the run paid, and the run in
// the table. Running the same date again pays nothing. The run's database is shared: the date is
// one no run has paid yet (tests/e2e/income-dates.ts), and the plan is closed at the end.

const unique = (tag: string) =>
  `E2E ${tag} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e5).toString(36)}`;

async function signInAdmin(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test('the admin creates a plan, runs a date on /admin/income and sees the message and the run', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin: APIRequestContext = await playwright.request.newContext({ baseURL });
  const memberApi: APIRequestContext = await playwright.request.newContext({ baseURL });
  let planId = '';
  try {
    await signInAdminByApi(admin);
    await signInAdmin(page);

    // The plan, made on the plans screen.
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Plans', exact: true })
      .click();
    const plans = page.getByTestId('plan-section');
    await plans.getByRole('button', { name: 'New plan' }).click();
    const form = page.getByRole('dialog', { name: 'New plan' });
    const planName = unique('income');
    await form.getByLabel('Name').fill(planName);
    await form.getByLabel('Minimum amount (USD)').fill('10');
    await form.getByLabel('Maximum amount (USD)').fill('5000');
    await form.getByLabel('Daily ROI %').fill('1.5');
    await form.getByLabel('Duration (days)').fill('30');
    await form.getByRole('button', { name: 'Create plan' }).click();
    await expect(form).toBeHidden();
    await expect(plans.getByTestId('banner-success')).toHaveText(PLAN_MESSAGES.created);
    const listed = (await (await admin.get('/api/v1/plans/list')).json()) as { plans: Plan[] };
    planId = listed.plans.find((p) => p.name === planName)?.id ?? '';
    expect(planId).not.toBe('');

    // A member invests 200.00 in it, bought on a date no run has paid yet.
    const member = newMember('income-admin');
    await registerByApi(memberApi, member);
    const memberId = await signInByApi(memberApi, member);
    await creditByApi(admin, memberId, '200.00');
    const bought = await memberApi.post('/api/v1/topup/add', {
      headers: await csrfHeaders(memberApi),
      data: { plan_id: planId, amount: '200.00' },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    const date = await unpaidPastDate(admin);
    movePurchaseTo(((await bought.json()) as { topup: { id: string } }).topup.id, date);

    // The income screen: the date starts at yesterday (UTC).
    const incomeLink = page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Income' });
    await incomeLink.click();
    await expect(page).toHaveURL(/\/admin\/income/);
    await expect(incomeLink).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1, name: 'Income' })).toBeVisible();
    const dateField = page.getByLabel('Date (UTC)');
    await expect(dateField).toHaveValue(yesterday());

    // A future date: the server's word, on the banner and on the field; nothing paid.
    await dateField.fill(addDays(dateOf(), 1));
    await page.getByRole('button', { name: 'Run this date' }).click();
    await expect(page.getByTestId('banner-error')).toHaveText(INCOME_MESSAGES.dateFuture);
    await expect(dateField).toHaveAttribute('aria-invalid', 'true');

    // The date: 200.00 x 1.5% = 3.00 for the one investment bought on or before it.
    await dateField.fill(date);
    await page.getByRole('button', { name: 'Run this date' }).click();
    await expect(page.getByTestId('banner-success')).toHaveText(INCOME_MESSAGES.runDone);
    await expect(page.getByTestId('income-run-last')).toHaveText(
      `${date}: 1 investment paid, ROI $3.00, level income $0.00.`,
    );
    const row = page.getByTestId('income-runs').locator(`tr[data-run-date="${date}"]`);
    await expect(row).toHaveCount(1);
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(0, 5)).toEqual([
      formatUtcDay(date, { zone: false }),
      'Completed',
      '1',
      '$3.00',
      '$0.00',
    ]);
    expect(cells[6]).toContain('Admin (admin)');
    expect(cells[7]).toBe('1');
    expect(cells[8]).toBe('—');
    await expectTablesFit(page.getByRole('region', { name: 'Daily runs' }));

    // The same date again pays nothing, and says so with the same message.
    await page.getByRole('button', { name: 'Run this date' }).click();
    await expect(page.getByTestId('banner-success')).toHaveText(INCOME_MESSAGES.runDone);
    await expect(page.getByTestId('income-run-last')).toHaveText(
      `${date}: 0 investments paid, ROI $0.00, level income $0.00.`,
    );
    await expect(row.locator('td').nth(3)).toHaveText('$3.00');

    // Income paid against deposits received: the figures of the whole run, in dollars.
    const overview = page.getByTestId('income-overview');
    await expect(overview.getByText('ROI paid')).toBeVisible();
    await expect(overview.getByText('Deposits received')).toBeVisible();
    await expect(overview.locator('dd').first()).toHaveText(/^-?\$[\d,]+\.\d{2}$/);
    await expect(page.getByTestId('income-months').locator('tbody tr')).toHaveCount(12);
  } finally {
    if (planId) {
      const closed = await admin.put(`/api/v1/plans/${planId}`, {
        headers: await csrfHeaders(admin),
        data: { status: 'inactive' },
      });
      expect(closed.status(), await closed.text()).toBe(200);
    }
    await admin.dispose();
    await memberApi.dispose();
  }
});
