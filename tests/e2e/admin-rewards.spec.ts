import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { formatUtcMonth } from '../../src/client/lib/utc-days.ts';
import { CTO_MESSAGES, previousMonth } from '../../src/shared/cto.ts';
import { EXCLUSION_MESSAGES } from '../../src/shared/rank-exclusions.ts';
import { REWARD_MESSAGES } from '../../src/shared/rewards.ts';
import { monthBefore, SALARY_MESSAGES } from '../../src/shared/salary.ts';
import { solidImage } from '../fixtures/images.ts';
import { moveDepositsTo, topRankLeader, unpaidCtoMonth } from './cto-setup.ts';
import { csrfHeaders, fillSignIn, signInAdminByApi } from './helpers.ts';
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
  await cto.getByRole('button', { name: `Pay the CTO of ${formatUtcMonth(figures.month)}` }).click();
  const refusal = await answer;
  expect(refusal.status()).toBe(422);
  const { message } = (await refusal.json()) as { message: string };
  expect([CTO_MESSAGES.nobody, CTO_MESSAGES.poolTooSmall, CTO_MESSAGES.noRanks]).toContain(message);
  await expect(cto.getByRole('alert')).toHaveText(message);
  await expect(cto.getByTestId('cto-paid')).toHaveCount(0);
});

// Issue 17: an admin pays CTO on a desktop. The spec's leader holds the top rank; a deposit of 200.00 is
// approved and moved into an ended month nobody has paid (a month of its own for each repeat), so that
// month's pool is 2.00. The admin picks the month, sees the figures and the leader counted, presses Pay
// once: the leader's Income Working grows by the share, the screen says it is paid, and a second Pay
// (straight to the API) is refused.
test('an admin pays a month’s CTO once, and the leader gets the share', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  const top = await topRankLeader(admin, () => playwright.request.newContext({ baseURL }));
  const who = `${top.leader.fullname} (@${top.leader.username})`;
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const workingOf = async (id: string) => {
    const res = await admin.get(`/api/v1/users/${id}`);
    expect(res.status(), await res.text()).toBe(200);
    return cents(
      ((await res.json()) as { singleuser: { balance: { working: string } } }).singleuser.balance.working,
    );
  };
  try {
    const month = await unpaidCtoMonth(admin);
    const added = await top.directApi.post('/api/v1/deposite/add', {
      headers: await csrfHeaders(top.directApi),
      data: { amount: '200', tx_hash: `0x${crypto.randomUUID().replaceAll('-', '').padEnd(64, '0')}` },
    });
    expect(added.status(), await added.text()).toBe(201);
    const depositId = ((await added.json()) as { deposit: { id: string } }).deposit.id;
    const approved = await admin.put(`/api/v1/deposite/${depositId}`, {
      headers: await csrfHeaders(admin),
      data: { status: 'approved', amount: '200', user_id: top.directId },
    });
    expect(approved.status(), await approved.text()).toBe(200);
    moveDepositsTo(top.directId, month);
    const before = await workingOf(top.leaderId);

    await page.goto('/admin-login');
    await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Reward claims' })
      .click();
    const cto = page.getByRole('region', { name: 'CTO' });
    const preview = page.waitForResponse((r) => r.url().includes(`/api/v1/cto?month=${month}`));
    await cto.getByLabel('Month').fill(month);
    const figures = (await (await preview).json()) as { deposits: string; pool: string; per_member: string };
    expect(figures).toMatchObject({ deposits: '200.00', pool: '2.00' });
    await expect(cto.getByTestId('cto-figures')).toContainText('$200.00');
    await expect(cto.getByTestId('cto-figures')).toContainText('$2.00');
    const qualifier = cto.getByTestId('cto-qualifiers').getByRole('row').filter({ hasText: who });
    await expect(qualifier).toContainText('Counted');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/cto/pay'));
    await cto.getByRole('button', { name: `Pay the CTO of ${formatUtcMonth(month)}` }).click();
    const paid = await answer;
    expect(paid.status(), await paid.text()).toBe(201);
    await expect(cto.getByTestId('cto-paid')).toContainText(`$${figures.per_member} to each of`);
    await expect(cto.getByRole('button', { name: `Pay the CTO of ${formatUtcMonth(month)}` })).toHaveCount(0);
    expect(await workingOf(top.leaderId)).toBe(before + cents(figures.per_member));
    const again = await admin.post('/api/v1/cto/pay', { headers: await csrfHeaders(admin), data: { month } });
    expect(again.status()).toBe(409);
    expect(await workingOf(top.leaderId)).toBe(before + cents(figures.per_member));
  } finally {
    await top.cleanUp();
    await admin.dispose();
  }
});

// The spec's DELETE /leadership/{id} and PUT /cto/{id} on a desktop: an admin takes a member off the
// leadership list and puts them back, then excludes them from the CTO with a reason, sees the preview
// count them out, and restores them. The spec's own two rungs sit above the rest of the ladder for the
// length of the test (so its member holds a top rank) and are deleted afterwards; nothing is paid.
test('an admin removes a leader from the list and excludes a CTO qualifier, then restores both', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  const top = await topRankLeader(admin, () => playwright.request.newContext({ baseURL }));
  const { tag, leaderId } = top;
  const who = `${top.leader.fullname} (@${top.leader.username})`;
  const leader = top.leader;
  try {
    await page.goto('/admin-login');
    await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reward plans' }).click();
    const leaders = page.getByTestId('leadership');
    await page.getByLabel('Search member or rank').fill(leader.username);
    const listed = leaders.getByRole('row').filter({ hasText: who });
    await expect(listed).toContainText(`E2E CTO Diamond ${tag}`);
    await listed.getByRole('button', { name: `Remove ${who} from the list` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: EXCLUSION_MESSAGES.leadershipRemoved }),
    ).toBeVisible();
    await expect(listed).toHaveCount(0);
    const removed = page.getByTestId('leadership-removed').getByRole('row').filter({ hasText: who });
    await removed.getByRole('button', { name: `Restore ${who}` }).click();
    await expect(
      page.getByRole('status').filter({ hasText: EXCLUSION_MESSAGES.leadershipRestored }),
    ).toBeVisible();
    await expect(removed).toHaveCount(0);
    await expect(listed).toContainText(`E2E CTO Diamond ${tag}`);

    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Reward claims' })
      .click();
    const cto = page.getByRole('region', { name: 'CTO' });
    await expect(cto).toContainText(`Top two ranks: E2E CTO Diamond ${tag} and E2E CTO Gold ${tag}.`);
    const qualifier = cto.getByTestId('cto-qualifiers').getByRole('row').filter({ hasText: who });
    await expect(qualifier).toContainText('Counted');
    await qualifier.getByRole('button', { name: `Exclude ${who} from the CTO` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason (optional)').fill(`House account ${tag}`);
    await dialog.getByRole('button', { name: 'Exclude' }).click();
    await expect(cto.getByRole('status').filter({ hasText: EXCLUSION_MESSAGES.ctoExcluded })).toBeVisible();
    await expect(qualifier).toContainText('Excluded');
    const excluded = cto.getByTestId('cto-excluded').getByRole('row').filter({ hasText: who });
    await expect(excluded).toContainText(`House account ${tag}`);
    await excluded.getByRole('button', { name: `Restore ${who} to the CTO` }).click();
    await expect(cto.getByRole('status').filter({ hasText: EXCLUSION_MESSAGES.ctoRestored })).toBeVisible();
    await expect(qualifier).toContainText('Counted');
    await expect(cto.getByTestId('cto-excluded')).toHaveCount(0);
    await expect(cto.getByTestId('cto-paid')).toHaveCount(0);
  } finally {
    // Back as it was: the member listed and counted, the spec's rungs and plan out of later tests' way.
    for (const path of [`/api/v1/leadership/${leaderId}/restore`, `/api/v1/cto/${leaderId}/restore`])
      expect((await admin.post(path, { headers: await csrfHeaders(admin) })).status()).toBe(200);
    await top.cleanUp();
    await admin.dispose();
  }
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
    const pay = salary.getByRole('button', { name: `Pay the salaries of ${formatUtcMonth(month)}` });
    await pay.click();
    await expect(salary.getByRole('status').filter({ hasText: SALARY_MESSAGES.runDone })).toContainText(
      new RegExp(`\\d+ paid .* for ${month}`),
    );
    const payments = salary.getByTestId('salary-payments');
    await salary.getByLabel('Search member or tier').fill(setup.leader.username);
    await salary.getByLabel('Search member or tier').press('Enter');
    const paid = payments.getByRole('row').filter({ hasText: `@${setup.leader.username}` });
    await expect(paid).toHaveCount(1);
    await expect(paid).toContainText(formatUtcMonth(month, { zone: false }));
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
