import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { CODE_MESSAGES, TOPUP_MESSAGES } from '../../src/shared/topups.ts';
import {
  creditByApi,
  csrfHeaders,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInMember,
  signOutMember,
} from './helpers.ts';

// Issue 15 on a phone: a member buys a plan from the Active Wallet through a review and a receipt,
// tops up another member found by username and confirmed by name, and redeems an activation code
// once. The run shares one database, so each test makes a plan of its own with a unique name, finds
// it by that name, and closes it at the end so members' plan lists stay short.

const uniquePlanName = (tag: string) =>
  `E2E ${tag} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

type Admin = { request: APIRequestContext; planId: string; planName: string };

/** Registers the members; the admin (an API context of its own) makes a $10.00 to $500.00 plan and credits them. */
async function arrange(
  playwright: { request: { newContext: (o: { baseURL?: string }) => Promise<APIRequestContext> } },
  baseURL: string | undefined,
  tag: string,
  members: [Member, string | null][],
): Promise<Admin> {
  const request = await playwright.request.newContext({ baseURL });
  const member = await playwright.request.newContext({ baseURL });
  try {
    for (const [m] of members) await registerByApi(member, m);
  } finally {
    await member.dispose();
  }
  await signInAdminByApi(request);
  const planName = uniquePlanName(tag);
  const created = await request.post('/api/v1/plans/add', {
    headers: await csrfHeaders(request),
    data: {
      name: planName,
      min_amount: '10.00',
      max_amount: '500.00',
      roi_percent: '1.50',
      duration_days: 30,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const planId = ((await created.json()) as { plan: { id: string } }).plan.id;
  for (const [m, amount] of members)
    if (amount) await creditByApi(request, await memberIdOf(request, m.email), amount);
  return { request, planId, planName };
}

async function closePlan(admin: Admin): Promise<void> {
  const closed = await admin.request.put(`/api/v1/plans/${admin.planId}`, {
    headers: await csrfHeaders(admin.request),
    data: { status: 'inactive' },
  });
  expect(closed.status(), await closed.text()).toBe(200);
  await admin.request.dispose();
}

/** Every top-up request the page sends (to prove a refused amount sends none). */
function countTopupPosts(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/v1\/(topup|codes)\//.test(request.url())) count += 1;
  });
  return () => count;
}

test('a member buys a plan through review and receipt: the Active Wallet drops by the amount and the member is active', async ({
  page,
  playwright,
  baseURL,
}) => {
  const member = newMember('plans');
  const admin = await arrange(playwright, baseURL, 'Starter', [[member, '250.00']]);
  try {
    await signInMember(page, member);
    await expect(page.getByTestId('activation-status')).toHaveText('Not activated yet');
    await page.getByRole('link', { name: 'Plans and activation codes' }).click();
    await expect(page).toHaveURL(/\/user\/subscription$/);
    await expect(page.getByTestId('active-wallet')).toHaveText('$250.00');

    const card = page.locator(`li[data-plan="${admin.planName}"]`);
    await expect(card.getByTestId('plan-range')).toHaveText('$10.00 to $500.00');
    await expect(card).toContainText('1.5%');
    await expect(card).toContainText('30 days');
    await expect(card).toContainText('Returns are not guaranteed');
    await card.getByRole('button', { name: `Invest in ${admin.planName}` }).click();

    // Above the plan's maximum, then above the wallet: each said on the field, nothing sent.
    const posts = countTopupPosts(page);
    const amount = card.getByLabel('Amount (USD)');
    await amount.fill('600');
    await card.getByRole('button', { name: 'Review' }).click();
    await expect(card.getByText(TOPUP_MESSAGES.amountRange('10.00', '500.00'))).toBeVisible();
    await amount.fill('300');
    await card.getByRole('button', { name: 'Review' }).click();
    await expect(card.getByText('Not enough in your Active Wallet: $250.00 available')).toBeVisible();
    await expect(card.getByRole('link', { name: 'Add money to your Active Wallet' })).toBeVisible();
    expect(posts()).toBe(0);

    await amount.fill('100');
    await card.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('dialog', { name: 'Review your investment' });
    await expect(review.getByTestId('topup-review')).toHaveText(
      `Invest $100.00 in ${admin.planName} from Active Wallet`,
    );
    await review.getByRole('button', { name: 'Confirm' }).click();

    const receipt = page.getByRole('dialog', { name: 'Investment made' });
    const facts = receipt.getByTestId('topup-receipt');
    await expect(facts).toContainText(admin.planName);
    await expect(facts).toContainText('$100.00');
    await expect(facts.getByRole('definition').last()).not.toBeEmpty();
    expect(posts()).toBe(1);
    await receipt.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('active-wallet')).toHaveText('$150.00');

    await page.getByRole('navigation', { name: 'Member' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByTestId('activation-status')).toHaveText('Activated');
    await expect(page.getByTestId('balance-business')).toHaveText('$150.00');
  } finally {
    await closePlan(admin);
  }
});

test('a member tops up another member found by username, confirmed by name; both see it in their list', async ({
  page,
  playwright,
  baseURL,
}) => {
  const payer = newMember('payer');
  const friend = newMember('friend');
  const admin = await arrange(playwright, baseURL, 'Gift', [
    [payer, '120.00'],
    [friend, null],
  ]);
  try {
    await signInMember(page, payer);
    await page.goto('/user/topup');
    await expect(page.getByTestId('active-wallet')).toHaveText('$120.00');
    await page.getByLabel('Another member').check();
    // A name nobody has is said so; the right one shows the member's name to confirm.
    await page.getByLabel("Member's e-mail or username").fill(`${friend.username}_nobody`);
    await page.getByRole('button', { name: 'Find member' }).click();
    await expect(page.getByText(TOPUP_MESSAGES.memberNotFound)).toBeVisible();
    await page.getByLabel("Member's e-mail or username").fill(friend.username.toUpperCase());
    await page.getByRole('button', { name: 'Find member' }).click();
    const found = page.getByRole('definition').filter({ hasText: friend.fullname });
    await expect(found).toBeVisible();

    await page
      .getByLabel('Plan', { exact: true })
      .selectOption({ label: `${admin.planName} ($10.00 to $500.00)` });
    await page.getByLabel('Amount (USD)').fill('40');
    await page.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('dialog', { name: 'Review your investment' });
    await expect(review.getByTestId('topup-review')).toHaveText(
      `Invest $40.00 in ${admin.planName} for ${friend.fullname} (${friend.username}) from Active Wallet`,
    );
    await review.getByRole('button', { name: 'Confirm' }).click();
    const receipt = page.getByRole('dialog', { name: TOPUP_MESSAGES.created });
    await expect(receipt.getByTestId('topup-receipt')).toContainText(friend.fullname);
    await receipt.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('active-wallet')).toHaveText('$80.00');

    const paidRow = page.locator(`[data-plan="${admin.planName}"]`);
    await expect(paidRow).toHaveCount(1);
    await expect(paidRow).toContainText('$40.00');
    await expect(paidRow).toContainText(friend.fullname);

    await signOutMember(page);
    await signInMember(page, friend);
    await expect(page.getByTestId('activation-status')).toHaveText('Activated');
    await page.goto('/user/topup');
    const receivedRow = page.locator(`[data-plan="${admin.planName}"]`);
    await expect(receivedRow).toHaveCount(1);
    await expect(receivedRow).toContainText('$40.00');
    await expect(receivedRow).toContainText(payer.fullname);
  } finally {
    await closePlan(admin);
  }
});

test('an activation code is redeemed once; a second try says it is used', async ({
  page,
  playwright,
  baseURL,
}) => {
  const member = newMember('code');
  const admin = await arrange(playwright, baseURL, 'Code', [[member, null]]);
  try {
    const batch = await admin.request.post('/api/v1/codes', {
      headers: await csrfHeaders(admin.request),
      data: { plan_id: admin.planId, amount: '25.00', count: 1 },
    });
    expect(batch.status(), await batch.text()).toBe(201);
    const [code] = ((await batch.json()) as { codes: { code: string }[] }).codes;
    if (!code) throw new Error('no code created');

    await signInMember(page, member);
    await page.goto('/user/subscription');
    const form = page.getByRole('region', { name: 'Redeem a code' });
    // Typed as a person might: lower case, with spaces around it.
    await form.getByRole('textbox', { name: 'Activation code' }).fill(` ${code.code.toLowerCase()} `);
    await form.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('dialog', { name: 'Review your code' });
    await expect(review.getByTestId('topup-review')).toHaveText(`Redeem activation code ${code.code}`);
    await review.getByRole('button', { name: 'Redeem' }).click();
    const receipt = page.getByRole('dialog', { name: CODE_MESSAGES.redeemed });
    await expect(receipt.getByTestId('topup-receipt')).toContainText(admin.planName);
    await expect(receipt.getByTestId('topup-receipt')).toContainText('$25.00');
    await receipt.getByRole('button', { name: 'OK' }).click();

    await form.getByRole('textbox', { name: 'Activation code' }).fill(code.code);
    await form.getByRole('button', { name: 'Review' }).click();
    await page
      .getByRole('dialog', { name: 'Review your code' })
      .getByRole('button', { name: 'Redeem' })
      .click();
    const failed = page.getByRole('dialog', { name: 'Code not redeemed' });
    await expect(failed.getByTestId('topup-failure')).toHaveText(CODE_MESSAGES.used);
    await expect(failed).not.toContainText('try again');
    await failed.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(form.getByRole('textbox', { name: 'Activation code' })).toHaveValue(code.code);

    await page.getByRole('navigation', { name: 'Member' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByTestId('activation-status')).toHaveText('Activated');
  } finally {
    await closePlan(admin);
  }
});
