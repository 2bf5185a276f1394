import { expect, test } from '@playwright/test';
import { addMonths, monthBefore, type SalaryPayment } from '../../src/shared/salary.ts';
import { csrfHeaders, signInAdminByApi, signInMember } from './helpers.ts';
import { type SalaryLeader, salaryCleanUp, salaryLeader } from './salary-setup.ts';

// Issue 17 item 3 on a phone: a member whose team brought in new business two months ago, with an
// active direct member, reads the salary they were paid for that month, and the tiers, on the rewards
// screen. The screen shows the server's history (other specs' tiers share the database, so the
// figures are compared with the server's answer, not assumed).

const month = addMonths(monthBefore(), -1);
const tierName = `E2E Member salary ${Date.now().toString(36)}`;
let setup: SalaryLeader | undefined;
let tierId = '';
let payment: SalaryPayment | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(admin);
    setup = await salaryLeader(admin, () => playwright.request.newContext({ baseURL }), 'salmem', month);
    const tier = await admin.post('/api/v1/salary/tiers', {
      headers: await csrfHeaders(admin),
      data: { name: tierName, min_business: '30', min_active_directs: 1, amount: '4.75' },
    });
    expect(tier.status(), await tier.text()).toBe(201);
    tierId = ((await tier.json()) as { tier: { id: string } }).tier.id;
    const run = await admin.post('/api/v1/salary/run', {
      headers: await csrfHeaders(admin),
      data: { month },
    });
    expect(run.status(), await run.text()).toBe(200);
    const history = await admin.get(`/api/v1/salary/user-history/${setup.leaderId}`);
    expect(history.status()).toBe(200);
    payment = ((await history.json()) as { data: SalaryPayment[] }).data[0];
  } finally {
    await admin.dispose();
  }
});

test.afterAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(admin);
    await salaryCleanUp(admin, setup?.planId ?? '', tierId);
  } finally {
    await admin.dispose();
  }
});

test('a member reads their salary history and the tiers on the rewards screen', async ({ page }) => {
  if (!setup || !payment) throw new Error('the salary was not set up');
  expect(payment.month).toBe(month);
  await signInMember(page, setup.leader);
  await page.getByRole('link', { name: 'Rewards' }).click();
  await expect(page).toHaveURL(/\/user\/rewards$/);
  const salary = page.getByRole('region', { name: 'Salary' });
  await expect(salary.getByRole('heading', { level: 2, name: 'Salary' })).toBeVisible();
  const tier = salary.getByTestId('salary-tier').filter({ hasText: tierName });
  await expect(tier).toContainText('$30.00');
  await expect(tier).toContainText('$4.75');
  const paid = salary.getByTestId('salary-payment');
  await expect(paid).toHaveCount(1);
  await expect(paid).toContainText(`${month}: $${payment.amount}`);
  await expect(paid).toContainText(payment.tier_name);
  await expect(paid).toContainText('1 active directs');
});
