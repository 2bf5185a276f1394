import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ACCOUNT_TEXT } from '../../src/shared/account.ts';
import {
  closeTestPlan,
  createTestPlan,
  creditByApi,
  mailText,
  memberIdOf,
  newMember,
  referralCodeOf,
  registerByApi,
  signInAdminByApi,
  signInMember,
} from './helpers.ts';

// A new member's first run on a phone: the dashboard opens with the next steps (verify the e-mail, add
// money, choose a plan, invite someone), each ticks as it is done, and the guide leaves once all are.
// Empty lists give their next step: the direct members list hands on the referral link.

const guide = (page: Page) => page.getByRole('region', { name: 'Your first steps' });
const step = (page: Page, key: string) => guide(page).locator(`li[data-step="${key}"]`);

async function expectSteps(page: Page, done: Record<'verify' | 'money' | 'plan' | 'invite', boolean>) {
  for (const [key, isDone] of Object.entries(done)) {
    await expect(step(page, key), key).toHaveAttribute('data-done', String(isDone));
    // Ticked: a check mark beside "Done"; open: "To do" beside the link that does it.
    await expect(step(page, key).locator('.badge'), key).toHaveText(isDone ? '✓ Done' : 'To do');
  }
  const count = Object.values(done).filter(Boolean).length;
  await expect(guide(page).getByTestId('first-steps-count')).toHaveText(`${count} of 4 done`);
}

async function goHome(page: Page) {
  await page.getByRole('navigation', { name: 'Member' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
}

test('a new member sees the first steps tick one by one, and the guide leaves once all are done', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin: APIRequestContext = await playwright.request.newContext({ baseURL });
  const api: APIRequestContext = await playwright.request.newContext({ baseURL });
  const codes: APIRequestContext = await playwright.request.newContext({ baseURL });
  const member = newMember('firstrun');
  let planId = '';
  try {
    await registerByApi(api, member);
    await signInAdminByApi(admin);
    const created = await createTestPlan(admin, 'First');
    planId = created.id;
    const planName = created.name;

    await signInMember(page, member);
    await expect(guide(page)).toBeVisible();
    await expectSteps(page, { verify: false, money: false, plan: false, invite: false });
    // The guide comes first, under the welcome.
    const guideTop = (await guide(page).boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const walletsTop = (await page.getByRole('heading', { name: 'Your wallets' }).boundingBox())?.y ?? 0;
    expect(guideTop).toBeLessThan(walletsTop);

    // Verify the e-mail: the step leads to the card that does it, and ticks once the code is in.
    await step(page, 'verify').getByRole('link', { name: 'Verify your e-mail' }).click();
    const card = page.getByRole('region', { name: ACCOUNT_TEXT.verifyTitle });
    await expect(card).toBeInViewport();
    await card.getByRole('button', { name: ACCOUNT_TEXT.sendCode }).click();
    const code = /\b(\d{6})\b/.exec(await mailText(api, member.email, /\b\d{6}\b/))?.[1] ?? '';
    await card.getByLabel(ACCOUNT_TEXT.code).fill(code);
    await card.getByRole('button', { name: ACCOUNT_TEXT.verify }).click();
    await expect(card.getByTestId('email-status')).toHaveText(ACCOUNT_TEXT.verified);
    await expectSteps(page, { verify: true, money: false, plan: false, invite: false });

    // Add money: the step opens the ways to add money; money reaching the Active Wallet ticks it.
    await step(page, 'money').getByRole('link', { name: 'Add money' }).click();
    await expect(page).toHaveURL(/\/user\/add-money$/);
    await creditByApi(admin, await memberIdOf(admin, member.email), '150.00');
    await goHome(page);
    await expectSteps(page, { verify: true, money: true, plan: false, invite: false });

    // Choose a plan: bought from the Active Wallet, the step stays ticked for "Add money" too, though
    // the wallet now holds less than was added.
    await step(page, 'plan').getByRole('link', { name: 'Choose a plan' }).click();
    await expect(page).toHaveURL(/\/user\/subscription$/);
    const plan = page.locator(`li[data-plan="${planName}"]`);
    await plan.getByRole('button', { name: `Invest in ${planName}` }).click();
    await plan.getByLabel('Amount (USD)').fill('150');
    await plan.getByRole('button', { name: 'Review' }).click();
    await page
      .getByRole('dialog', { name: 'Review your investment' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.getByRole('dialog', { name: 'Investment made' }).getByRole('button', { name: 'OK' }).click();
    await goHome(page);
    await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
    await expectSteps(page, { verify: true, money: true, plan: true, invite: false });

    // Invite someone: the step leads to the referral link; a sign-up with it ticks the last step and
    // the guide is gone, for good.
    await step(page, 'invite').getByRole('link', { name: 'Invite someone' }).click();
    await expect(page.getByRole('region', { name: 'Your referral link' })).toBeInViewport();
    await registerByApi(api, newMember('firstrunfriend'), await referralCodeOf(codes, member));
    await page.reload();
    await expect(page.getByTestId('direct-count')).toHaveText('1');
    await expect(guide(page)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('direct-count')).toHaveText('1');
    await expect(guide(page)).toHaveCount(0);
  } finally {
    // Other specs' members see every open plan: this one closes again.
    if (planId) await closeTestPlan(admin, planId);
    await Promise.all([admin.dispose(), api.dispose(), codes.dispose()]);
  }
});

test('a member who does not want the guide hides it, and it stays hidden', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL });
  const member = newMember('hidesteps');
  try {
    await registerByApi(api, member);
    await signInMember(page, member);
    await expectSteps(page, { verify: false, money: false, plan: false, invite: false });
    await guide(page).getByRole('button', { name: 'Hide these steps' }).click();
    await expect(guide(page)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
    await expect(page.getByTestId('direct-count')).toHaveText('0');
    await expect(guide(page)).toHaveCount(0);
  } finally {
    await api.dispose();
  }
});

test('an empty direct members list hands on the referral link: Copy puts it on the clipboard, Share opens the share sheet', async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL });
  const member = newMember('emptyteam');
  try {
    await registerByApi(api, member);
    const code = await referralCodeOf(api, member);
    // The phone's share sheet, as a browser that has one offers it: what the page hands it is recorded.
    await page.addInitScript(() => {
      const shared: ShareData[] = [];
      Object.assign(window, { sharedWith: shared });
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => {
          shared.push(data);
        },
      });
    });
    await signInMember(page, member);
    await page.goto('/user/direct-members');
    await expect(page.getByTestId('direct-members-empty')).toHaveText(
      'No direct members yet. Share your referral link to invite people.',
    );
    const invite = page.getByTestId('direct-members-invite');
    const link = `${new URL(baseURL ?? '').origin}/registration?ref=${code}`;
    await expect(invite.getByRole('textbox', { name: 'Referral link' })).toHaveValue(link);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await invite.getByRole('button', { name: 'Copy link' }).click();
    await expect(invite.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    await invite.getByRole('button', { name: 'Share' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { sharedWith: ShareData[] }).sharedWith))
      .toEqual([{ title: 'Join me', text: 'Sign up with my referral link', url: link }]);
  } finally {
    await api.dispose();
  }
});

test('a browser without a share sheet shows Copy only', async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const member = newMember('noshare');
  try {
    await registerByApi(api, member);
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
    });
    await signInMember(page, member);
    await page.goto('/user/direct-members');
    const invite = page.getByTestId('direct-members-invite');
    await expect(invite.getByRole('button', { name: 'Copy link' })).toBeVisible();
    await expect(invite.getByRole('button', { name: 'Share' })).toHaveCount(0);
  } finally {
    await api.dispose();
  }
});

test("a new member's empty lists each give their next step", async ({ page, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const member = newMember('emptylists');
  try {
    await registerByApi(api, member);
    await signInMember(page, member);

    await page.goto('/user/transaction/all_transaction');
    await expect(page.getByTestId('transactions-empty')).toBeVisible();
    await page.getByTestId('transactions-empty-action').click();
    await expect(page).toHaveURL(/\/user\/add-money$/);

    await page.goto('/user/transaction/transfer_transaction');
    await expect(page.getByTestId('transactions-empty-action')).toHaveText('Send money');

    await page.goto('/user/deposit-history');
    await expect(page.getByTestId('deposits-empty')).toBeVisible();
    await page.getByTestId('deposit-history').getByRole('link', { name: 'Add money' }).click();
    await expect(page).toHaveURL(/\/user\/add-money$/);

    await page.goto('/user/queries');
    await page.getByRole('link', { name: 'Ask support a question' }).click();
    await expect(page).toHaveURL(/\/user\/query\/create$/);

    await page.goto('/user/topup');
    await expect(page.getByTestId('topups-empty')).toBeVisible();
    await page.getByTestId('topups').getByRole('link', { name: 'Choose a plan' }).click();
    await expect(page).toHaveURL(/\/user\/subscription$/);

    await page.goto('/user/transfer');
    await expect(page.getByText('No transfer activity found')).toBeVisible();
    await page.getByRole('button', { name: 'Send money' }).click();
    await expect(page.getByRole('region', { name: 'Send money' })).toBeVisible();
  } finally {
    await api.dispose();
  }
});
