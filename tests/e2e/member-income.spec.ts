import { type APIRequestContext, expect, test } from '@playwright/test';
import { INCOME_MESSAGES } from '../../src/shared/income.ts';
import { GENERIC, RISK_DISCLAIMER } from '../../src/shared/messages.ts';
import {
  closeTestPlan,
  createTestPlan,
  creditByApi,
  csrfHeaders,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInMember,
} from './helpers.ts';
import { movePurchaseTo, unpaidPastDate } from './income-dates.ts';

// Issue 15 item 4 on a phone: a member with nothing yet sees the empty views, buys a plan, a run pays
// the date, and /user/income shows the ROI today, this month and in all, the 30-day chart, and the
// investment with what it has paid and its rule in words (no countdown, no bar to the cap). The run's
// database is shared: the date is one no run has paid yet (tests/e2e/income-dates.ts).

test('a member buys a plan, a run pays the date, and the member sees the income on /user/income', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin: APIRequestContext = await playwright.request.newContext({ baseURL });
  const register: APIRequestContext = await playwright.request.newContext({ baseURL });
  const member = newMember('income');
  let planId = '';
  try {
    await registerByApi(register, member);
    await signInAdminByApi(admin);
    const created = await createTestPlan(admin, 'Income', { roi_percent: '2' });
    planId = created.id;
    const planName = created.name;
    await creditByApi(admin, await memberIdOf(admin, member.email), '150.00');

    // Nothing yet: the empty views, and the risk warning.
    await signInMember(page, member);
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: 'Income' }).click();
    await expect(page).toHaveURL(/\/user\/income$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Income' })).toBeVisible();
    await expect(page.getByTestId('income-empty')).toBeVisible();
    await expect(page.getByTestId('income-all')).toContainText('$0.00');
    await expect(page.getByTestId('income-investments-empty')).toContainText('You have no investments yet.');
    await expect(page.getByRole('note').filter({ hasText: RISK_DISCLAIMER }).first()).toBeVisible();

    // The member buys 100.00 of the plan from the Active Wallet.
    await page.getByTestId('income-investments-empty').getByRole('link', { name: 'See the plans' }).click();
    await expect(page).toHaveURL(/\/user\/subscription$/);
    const card = page.locator(`li[data-plan="${planName}"]`);
    await card.getByRole('button', { name: `Invest in ${planName}` }).click();
    await card.getByLabel('Amount (USD)').fill('100');
    await card.getByRole('button', { name: 'Review' }).click();
    await page
      .getByRole('dialog', { name: 'Review your investment' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    const receipt = page.getByRole('dialog', { name: 'Investment made' });
    await expect(receipt).toBeVisible();
    await receipt.getByRole('button', { name: 'OK' }).click();

    // A run pays the date of the purchase: 100.00 x 2% = 2.00.
    const mine = await page.request.get('/api/v1/topup/list');
    expect(mine.status()).toBe(200);
    const topupId = ((await mine.json()) as { topups: { id: string; plan_id: string }[] }).topups.find(
      (t) => t.plan_id === planId,
    )?.id;
    expect(topupId).toBeDefined();
    const date = await unpaidPastDate(admin);
    movePurchaseTo(topupId ?? '', date);
    const run = await admin.post('/api/v1/income/run', { headers: await csrfHeaders(admin), data: { date } });
    expect(run.status(), await run.text()).toBe(200);
    expect(await run.json()).toEqual({
      message: INCOME_MESSAGES.runDone,
      run: { date, investments_paid: 1, roi_total: '2.00', level_total: '0.00' },
    });

    // From the dashboard: the income reached Income Working today.
    await page.getByRole('navigation', { name: 'Member' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByTestId('balance-working')).toHaveText('$2.00');
    await page.getByRole('link', { name: 'Income and investments' }).click();
    await expect(page).toHaveURL(/\/user\/income$/);
    await expect(page.getByTestId('income-empty')).toHaveCount(0);
    for (const period of ['income-today', 'income-month', 'income-all']) {
      await expect(page.getByTestId(`${period}-roi`)).toHaveText('$2.00');
      await expect(page.getByTestId(`${period}-activation`)).toHaveText('$0.00');
      await expect(page.getByTestId(`${period}-level`)).toHaveText('$0.00');
    }
    await expect(page.getByTestId('income-chart').getByRole('img')).toHaveAttribute(
      'aria-label',
      /: \$2\.00 in all$/,
    );

    const investment = page.getByTestId('income-investment').filter({ hasText: planName });
    await expect(investment).toHaveCount(1);
    await expect(investment).toContainText('$100.00');
    await expect(investment.getByTestId('investment-roi-paid')).toHaveText('$2.00');
    await expect(investment.getByTestId('investment-days-paid')).toHaveText('1');
    await expect(investment.getByTestId('investment-rule')).toHaveText(
      "The plan's rule: a daily run may pay ROI at 2% of the amount, on at most 30 days, and stops once ROI paid reaches 200% of the amount. A day's ROI is not guaranteed.",
    );
    // What was paid, not what might be: no days counted down, no bar filling toward the cap.
    await expect(investment).not.toContainText('$200.00');
    await expect(investment).not.toContainText(/days? left/i);
    await expect(investment.locator('progress, [role="progressbar"]')).toHaveCount(0);
    await expect(investment.getByText('Active', { exact: true })).toBeVisible();

    // And in their transactions: the ROI payment, from the plan, into Income Working.
    await page
      .getByRole('navigation', { name: 'Income transactions' })
      .getByRole('link', { name: 'ROI income' })
      .click();
    await expect(page).toHaveURL(/\/user\/transaction\/roi_transaction$/);
    await expect(page.getByRole('heading', { level: 1, name: 'ROI income' })).toBeVisible();
    const rows = page.locator('[data-transaction-id]');
    await expect(rows).toHaveCount(1);
    await expect(rows.getByTestId('tx-amount')).toHaveText('+$2.00');
    await expect(rows.getByTestId('tx-source')).toHaveText(planName);
  } finally {
    if (planId) await closeTestPlan(admin, planId);
    await admin.dispose();
    await register.dispose();
  }
});

test.describe('no answer from the server', () => {
  // The service worker would make the request itself, out of page.route's reach.
  test.use({ serviceWorkers: 'block' });

  test('/user/income says "Something went wrong", and "Try again" loads it once the network is back', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const register: APIRequestContext = await playwright.request.newContext({ baseURL });
    const member = newMember('income-offline');
    try {
      await registerByApi(register, member);
    } finally {
      await register.dispose();
    }
    await signInMember(page, member);
    await page.route('**/api/v1/income/summary', (route) => route.abort('internetdisconnected'));
    await page.goto('/user/income');
    const error = page.getByRole('alert').filter({ hasText: GENERIC.noAnswer });
    await expect(error).toBeVisible();
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
    await expect(page.getByRole('note').filter({ hasText: RISK_DISCLAIMER }).first()).toBeVisible();

    await page.unroute('**/api/v1/income/summary');
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Your investments' })).toBeVisible();
    await expect(page.getByTestId('income-empty')).toBeVisible();
    await expect(error).toHaveCount(0);
  });
});
