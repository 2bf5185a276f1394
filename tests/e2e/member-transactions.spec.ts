import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { TRANSACTION_MESSAGES } from '../../src/shared/transactions.ts';
import {
  creditByApi,
  csrfHeaders,
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

// A member on a 360 px phone opens Transactions from More and reads their transactions, newest first,
// 10 a page, as rows of one or two lines under a heading for each day; picks a kind (table_name) and a
// narrowing (fit) behind one Filters button, follows a source, searches, opens a row to read a long
// hash shortened and copy it whole, and sees the empty and error views. The books: twelve credits of
// $1.00 to $12.00 from support, two transfers to another member, then $1,500.00 from support whose
// reason names a deposit's transaction hash: 15 transactions.

const HASH = `0x${'9f2c4e6a8b0d1357'.repeat(4)}`;

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
    const credited = await admin.post('/api/v1/admin/adjustments', {
      headers: { ...(await csrfHeaders(admin)), 'Idempotency-Key': crypto.randomUUID() },
      data: {
        user_id: aliceId,
        wallet: 'business',
        direction: 'credit',
        amount: '1500.00',
        reason: `Deposit ${HASH} credited by support`,
      },
    });
    expect(credited.status(), await credited.text()).toBe(201);
  } finally {
    await admin.dispose();
    await aliceApi.dispose();
  }
});

const rows = (page: Page) => page.locator('[data-transaction-id]');
const amounts = (page: Page) => rows(page).getByTestId('tx-amount');
const filters = (page: Page) => page.getByTestId('tx-filters-button');

/** How far the page, and the list inside it, scroll sideways (0 when everything fits the phone). */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('[data-testid="member-transactions"]');
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      list: list ? list.scrollWidth - list.clientWidth : -1,
      rows: [...document.querySelectorAll<HTMLElement>('[data-transaction-id]')].filter(
        (row) => row.scrollWidth > row.clientWidth || row.getBoundingClientRect().right > window.innerWidth,
      ).length,
    };
  });

/** Opens the Filters panel, sets what is given, and shows the results. */
async function filterBy(
  page: Page,
  choices: { type?: string; show?: string; status?: string; source?: string; search?: string },
) {
  await filters(page).click();
  const form = page.getByRole('form', { name: 'Filter transactions' });
  if (choices.type) await form.getByLabel('Type').selectOption({ label: choices.type });
  if (choices.show) await form.getByLabel('Show').selectOption({ label: choices.show });
  if (choices.status) await form.getByLabel('Status').selectOption({ label: choices.status });
  if (choices.source !== undefined) await form.getByLabel('Source').fill(choices.source);
  if (choices.search !== undefined) await form.getByLabel('Search transactions').fill(choices.search);
  await form.getByRole('button', { name: 'Show results' }).click();
  await expect(form).toHaveCount(0);
}

for (const width of [360, 390]) {
  test(`at ${width} px a member reads two-line rows under their day, 10 a page, nothing sideways`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInMember(page, alice);
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: 'Transactions' }).click();
    await expect(page).toHaveURL(/\/user\/transaction\/all_transaction$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All transactions' })).toBeVisible();
    await expect(rows(page)).toHaveCount(10);
    await expect(page.getByText('Page 1 of 2 (15 transactions)')).toBeVisible();
    // Every row of the books was written today: one day's heading, its list holding all ten rows.
    const today = page.getByRole('list', { name: 'Today' });
    await expect(page.getByRole('heading', { level: 2, name: 'Today' })).toBeVisible();
    await expect(today.getByRole('listitem')).toHaveCount(10);
    // Newest first, one minus sign, thousands grouped.
    await expect(amounts(page)).toHaveText([
      '+$1,500.00',
      '−$4.75',
      '−$3.25',
      '+$12.00',
      '+$11.00',
      '+$10.00',
      '+$9.00',
      '+$8.00',
      '+$7.00',
      '+$6.00',
    ]);
    // The filters wait behind one button: the first screen shows transactions, not a form.
    await expect(filters(page)).toHaveText('Filters');
    await expect(page.getByRole('form', { name: 'Filter transactions' })).toHaveCount(0);
    await expect(rows(page).nth(2)).toBeInViewport();
    // A closed row is one or two lines: type and source, then time and status, the amount beside.
    for (const row of await rows(page).all()) {
      const summary = row.locator('summary');
      const lineHeight = await summary.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
      const box = await summary.boundingBox();
      expect(box?.height ?? 0).toBeLessThanOrEqual(lineHeight * 2 + 16);
    }
    await expect(rows(page).nth(1).getByTestId('tx-type')).toHaveText('Transfer');
    await expect(rows(page).nth(1).getByTestId('tx-time')).toHaveText(/^\d{1,2}:\d{2}\s[AP]M$/);
    await expect(rows(page).nth(1).locator('[data-status]')).toHaveText('Completed');
    expect(await sideways(page)).toEqual({ page: 0, list: 0, rows: 0 });

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(amounts(page)).toHaveText(['+$5.00', '+$4.00', '+$3.00', '+$2.00', '+$1.00']);
    await expect(page.getByText('Page 2 of 2 (15 transactions)')).toBeVisible();
    expect(await sideways(page)).toEqual({ page: 0, list: 0, rows: 0 });
  });
}

test('a row opens every field: a long hash is shortened and Copy puts the whole hash on the clipboard', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 360, height: 800 });
  await signInMember(page, alice);
  await page.goto('/user/transaction/all_transaction');
  const row = rows(page).first();
  await expect(row.getByTestId('tx-amount')).toHaveText('+$1,500.00');
  await expect(row.getByTestId('tx-description')).toBeHidden();
  await row.locator('summary').click();
  const details = row.getByRole('definition');
  await expect(row.getByTestId('tx-source')).toBeVisible();
  await expect(row.getByTestId('tx-date')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
  // The hash reads start…end; the text around it stays whole.
  const description = row.getByTestId('tx-description');
  await expect(description).toContainText(`Deposit ${HASH.slice(0, 6)}…${HASH.slice(-6)}`);
  await expect(description).toContainText('credited by support');
  await expect(description).not.toContainText(HASH);
  await expect(details.getByTestId('tx-short').last()).toHaveText(/^[0-9a-f]{6}…[0-9a-f]{6}$/);
  expect(await sideways(page)).toEqual({ page: 0, list: 0, rows: 0 });

  await description.getByRole('button', { name: 'Copy transaction hash' }).click();
  await expect(description.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(HASH);

  // The transaction's own id is there too, whole on the clipboard.
  const id = (await row.getAttribute('data-transaction-id')) ?? '';
  await row.getByRole('button', { name: 'Copy transaction ID' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(id);

  // Closing the row leaves two lines again.
  await row.locator('summary').click();
  await expect(description).toBeHidden();
});

test('a member narrows the list behind one Filters button: kind, direction, source and search', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signInMember(page, alice);
  await page.goto('/user/transaction/all_transaction');
  await expect(rows(page)).toHaveCount(10);

  await filterBy(page, { type: 'Transfers' });
  await expect(page).toHaveURL(/\/user\/transaction\/transfer_transaction$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Transfers' })).toBeVisible();
  await expect(filters(page)).toHaveText('Filters (1)');
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).getByTestId('tx-party')).toHaveText([bob.username, bob.username]);

  await filterBy(page, { show: 'Money in' });
  await expect(page).toHaveURL(/\/user\/transaction\/transfer_transaction\/in$/);
  await expect(filters(page)).toHaveText('Filters (2)');
  await expect(page.getByTestId('transactions-empty')).toHaveText('No transactions found.');
  await filterBy(page, { show: 'Money out' });
  await expect(page).toHaveURL(/\/user\/transaction\/transfer_transaction\/out$/);
  await expect(rows(page)).toHaveCount(2);
  expect(await sideways(page)).toEqual({ page: 0, list: 0, rows: 0 });

  // A source opens everything from it: /transactions/{source}.
  await rows(page).first().locator('summary').click();
  await rows(page).first().getByRole('link', { name: bob.username }).click();
  await expect(page).toHaveURL(new RegExp(`/user/transaction/all_transaction\\?source=${bob.username}$`));
  await expect(filters(page)).toHaveText('Filters (1)');
  await expect(rows(page)).toHaveCount(2);
  await filters(page).click();
  await expect(page.getByLabel('Source')).toHaveValue(bob.username);
  await filters(page).click();

  await filterBy(page, { search: 'rent' });
  await expect(filters(page)).toHaveText('Filters (2)');
  await expect(rows(page)).toHaveCount(1);
  await expect(amounts(page)).toHaveText(['−$4.75']);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/user\/transaction\/all_transaction$/);
  await expect(filters(page)).toHaveText('Filters');
  await expect(rows(page)).toHaveCount(10);

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
