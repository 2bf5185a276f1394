import { type APIRequestContext, expect, test } from '@playwright/test';
import { TRANSACTION_MESSAGES } from '../../src/shared/transactions.ts';
import {
  creditByApi,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
  transferByApi,
} from './helpers.ts';

// Issue 15 item 5 on a phone: a member opens Transactions from More and reads their transactions,
// newest first, 10 a page; picks a kind (table_name) and a narrowing (fit), follows a source, searches,
// and sees the empty and error views. The books: twelve credits of $1.00 to $12.00 from support, then
// two transfers to another member: 14 transactions.

let alice: Member;
let bob: Member;

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const admin = await playwright.request.newContext({ baseURL });
  const aliceApi: APIRequestContext = await playwright.request.newContext({ baseURL });
  try {
    alice = newMember('ledger');
    bob = newMember('payee');
    await registerByApi(aliceApi, alice);
    await registerByApi(aliceApi, bob);
    await signInAdminByApi(admin);
    const aliceId = await memberIdOf(admin, alice.email);
    const bobId = await memberIdOf(admin, bob.email);
    await setActiveByApi(admin, aliceId);
    for (let i = 1; i <= 12; i += 1) await creditByApi(admin, aliceId, `${i}.00`);
    await signInByApi(aliceApi, alice);
    await transferByApi(aliceApi, {
      userto_id: bobId,
      amount: '3.25',
      from: 'business',
      to: 'business',
      desc: 'Books',
    });
    await transferByApi(aliceApi, {
      userto_id: bobId,
      amount: '4.75',
      from: 'business',
      to: 'business',
      desc: 'Rent share',
    });
  } finally {
    await admin.dispose();
    await aliceApi.dispose();
  }
});

const rows = (page: import('@playwright/test').Page) => page.locator('[data-transaction-id]');

test('a member pages through all their transactions, newest first, 10 at a time', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signInMember(page, alice);
  await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
  await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: 'Transactions' }).click();
  await expect(page).toHaveURL(/\/user\/transaction\/all_transaction$/);
  await expect(page.getByRole('heading', { level: 1, name: 'All transactions' })).toBeVisible();
  await expect(rows(page)).toHaveCount(10);
  await expect(page.getByText('Page 1 of 2 (14 transactions)')).toBeVisible();
  // Newest first: the two transfers out, then the largest (latest) credit.
  await expect(rows(page).locator('[data-testid="tx-amount"]')).toHaveText([
    '−$4.75',
    '−$3.25',
    '+$12.00',
    '+$11.00',
    '+$10.00',
    '+$9.00',
    '+$8.00',
    '+$7.00',
    '+$6.00',
    '+$5.00',
  ]);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows(page).locator('[data-testid="tx-amount"]')).toHaveText([
    '+$4.00',
    '+$3.00',
    '+$2.00',
    '+$1.00',
  ]);
  await expect(page.getByText('Page 2 of 2 (14 transactions)')).toBeVisible();
  // Nothing is wider than the phone.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
});

test('a member narrows the list by kind, direction, source and search', async ({ page }) => {
  await signInMember(page, alice);
  await page.goto('/user/transaction/all_transaction');
  await expect(rows(page)).toHaveCount(10);

  await page.getByLabel('Type').selectOption({ label: 'Transfers' });
  await expect(page).toHaveURL(/\/user\/transaction\/transfer_transaction$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Transfers' })).toBeVisible();
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).locator('[data-testid="tx-source"]')).toHaveText([bob.username, bob.username]);

  await page.getByLabel('Show').selectOption({ label: 'Money in' });
  await expect(page).toHaveURL(/\/user\/transaction\/transfer_transaction\/in$/);
  await expect(page.getByTestId('transactions-empty')).toHaveText('No transactions found.');
  await page.getByLabel('Show').selectOption({ label: 'Money out' });
  await expect(page).toHaveURL(/\/user\/transaction\/transfer_transaction\/out$/);
  await expect(rows(page)).toHaveCount(2);

  // A source opens everything from it: /transactions/{source}.
  await rows(page).first().getByRole('link', { name: bob.username }).click();
  await expect(page).toHaveURL(new RegExp(`/user/transaction/all_transaction\\?source=${bob.username}$`));
  await expect(page.getByLabel('Source')).toHaveValue(bob.username);
  await expect(rows(page)).toHaveCount(2);

  await page.getByLabel('Search transactions').fill('rent');
  await page.getByLabel('Search transactions').press('Enter');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).locator('[data-testid="tx-amount"]')).toHaveText(['−$4.75']);

  await page.goto(`/transactions/${bob.username}`);
  await expect(page).toHaveURL(new RegExp(`/user/transaction/all_transaction\\?source=${bob.username}$`));
  await expect(rows(page)).toHaveCount(2);
});

test('an empty kind, an unknown list and a failed load each say so', async ({ page }) => {
  await signInMember(page, alice);
  await page.goto('/user/transaction/roi_transaction/invest');
  await expect(page.getByRole('heading', { level: 1, name: 'ROI income: Investments' })).toBeVisible();
  await expect(page.getByTestId('transactions-empty')).toBeVisible();

  await page.goto('/user/transaction/bonus_transaction');
  await expect(page.getByText('There is no such list of transactions.')).toBeVisible();

  await page.route('**/api/v1/tr/user/**', (route) => route.abort('internetdisconnected'));
  await page.goto('/user/transaction/deposit_transaction');
  await expect(page.getByRole('alert')).toContainText(TRANSACTION_MESSAGES.fetchUserFailed);
  await page.unroute('**/api/v1/tr/user/**');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('transactions-empty')).toBeVisible();
});
