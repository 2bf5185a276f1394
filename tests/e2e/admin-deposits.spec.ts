import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { PAY_COIN_LABEL, type Payment } from '../../src/shared/payments.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { csrfHeaders, fillSignIn, type Member, newMember, registerByApi, signInByApi } from './helpers.ts';

// Support staff on a desktop screen: the Deposits screen lists every crypto payment with its member,
// amounts, status and credit; a partially paid one is credited by hand, once (RULES.md "Deposits").
// One registration for the file: the member pays 8 of a $20 deposit (20.5 USDT to send) through the sandbox (API
// context of its own: one person per browser), which then reads partially_paid.

test.describe.configure({ mode: 'serial' });

let member: Member;
let memberApi: APIRequestContext;
let partial: Payment;
const REASON = 'E2E: the rest arrived by bank transfer';

async function waitForStatus(api: APIRequestContext, paymentId: string, status: string): Promise<Payment> {
  let last: Payment | undefined;
  await expect
    .poll(
      async () => {
        const response = await api.get(`/api/v1/payments/payment-status/${paymentId}`);
        last = (await response.json()) as Payment;
        return last.payment_status;
      },
      { intervals: [200], timeout: 10_000 },
    )
    .toBe(status);
  return last as Payment;
}

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const visitor = await playwright.request.newContext({ baseURL });
  member = newMember('depositor');
  await registerByApi(visitor, member);
  await visitor.dispose();

  memberApi = await playwright.request.newContext({ baseURL });
  await signInByApi(memberApi, member);
  const created = await memberApi.post('/api/v1/payments/create-payment', {
    headers: { ...(await csrfHeaders(memberApi)), 'Idempotency-Key': crypto.randomUUID() },
    data: { price_amount: 20, price_currency: 'usd', pay_currency: 'usdtbsc' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const payment = (await created.json()) as Payment;
  const paid = await memberApi.post(`/api/v1/payments/sandbox/${payment.payment_id}/pay`, {
    headers: await csrfHeaders(memberApi),
    data: { amount: '8' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  partial = await waitForStatus(memberApi, payment.payment_id, 'partially_paid');
});

test.afterAll(async () => {
  await memberApi?.dispose();
});

async function openDeposits(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const link = page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Deposits' });
  await link.click();
  await expect(page).toHaveURL(/\/admin\/deposits/);
  await expect(link).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Deposits' })).toBeVisible();
}

const table = (page: Page) => page.getByTestId('admin-deposits');
const rowOf = (page: Page, paymentId: string) => table(page).locator(`tr[data-payment-id="${paymentId}"]`);

test('the admin sees every crypto payment with its member, amounts, status and credit, and filters by status', async ({
  page,
}) => {
  await openDeposits(page);
  const row = rowOf(page, partial.payment_id);
  await expect(row).toBeVisible();
  const cells = row.locator('td');
  await expect(cells.nth(0).getByTestId('payment-id')).toHaveText(partial.payment_id);
  await expect(cells.nth(1)).toContainText(member.fullname);
  await expect(cells.nth(1).getByTestId('member-email')).toHaveText(member.email);
  await expect(cells.nth(2)).toHaveText('$20.00');
  // Dollars are labelled USD; the coin is named once, in full, in its column's heading.
  await expect(table(page).locator('thead th')).toHaveText(
    [
      'Date and payment ID',
      'Member',
      'Deposit (USD)',
      `To send / received ${PAY_COIN_LABEL}`,
      'Status',
      'Credited (USD)',
      'Action',
    ],
    { useInnerText: true },
  );
  await expect(cells.nth(3)).toHaveText('20.5 received 8', { useInnerText: true });
  await expect(cells.nth(4)).toHaveText('Partially paid');
  await expect(cells.nth(5)).toHaveText('—');
  // Every column fits a 1366 px laptop: the table's scroll box has nothing to scroll sideways, nor the page,
  // and no word (a payment ID, a part of an e-mail address, a heading's word) is broken over two lines.
  expect(page.viewportSize()?.width).toBe(1366);
  const scroller = table(page).locator('.table-scroll');
  expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  const brokenWords = await table(page)
    .locator('table')
    .evaluate((el) => {
      const broken: string[] = [];
      const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = texts.nextNode(); node; node = texts.nextNode())
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top));
          if (lines.size > 1) broken.push(word[0]);
        }
      return broken;
    });
  expect(brokenWords).toEqual([]);
  await expect(row.getByRole('button', { name: 'Credit by hand' })).toBeVisible();

  const status = page.getByLabel('Status');
  await status.selectOption('finished');
  await expect(page).toHaveURL(/status=finished/);
  await expect(rowOf(page, partial.payment_id)).toHaveCount(0);
  for (const badge of await table(page).locator('.badge').all()) await expect(badge).toHaveText('Finished');

  await status.selectOption('partially_paid');
  await expect(page).toHaveURL(/status=partially_paid/);
  await expect(rowOf(page, partial.payment_id)).toBeVisible();
  for (const badge of await table(page).locator('.badge').all())
    await expect(badge).toHaveText('Partially paid');
});

test('a partially paid payment is credited by hand once, with a reason, and the list shows it', async ({
  page,
}) => {
  await openDeposits(page);
  await page.getByLabel('Status').selectOption('partially_paid');
  const row = rowOf(page, partial.payment_id);
  await row.getByRole('button', { name: 'Credit by hand' }).click();

  const dialog = page.getByRole('dialog', { name: 'Credit by hand' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(member.email);
  await expect(dialog).toContainText(
    `made a deposit of $20.00 USD, was asked to send 20.5 ${PAY_COIN_LABEL} and sent 8 ${PAY_COIN_LABEL}`,
  );
  const amount = dialog.getByLabel('Amount to credit (USD)');
  // What was actually paid, read as dollars.
  await expect(amount).toHaveValue('8');
  await dialog.getByRole('button', { name: 'Credit', exact: true }).click();
  await expect(dialog.getByLabel('Reason')).toHaveAccessibleDescription(
    new RegExp(`^${WALLET_MESSAGES.reasonLength}`),
  );

  await amount.fill('8.50');
  await dialog.getByLabel('Reason').fill(REASON);
  const answer = page.waitForResponse((r) =>
    r.url().endsWith(`/payments/${partial.payment_id}/manual-credit`),
  );
  await dialog.getByRole('button', { name: 'Credit', exact: true }).click();
  const response = await answer;
  expect(response.status(), await response.text()).toBe(201);
  expect(response.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Payment credited' })).toBeVisible();
  await expect(row.locator('td').nth(5)).toHaveText('$8.50');
  await expect(row.getByRole('button', { name: 'Credit by hand' })).toHaveCount(0);

  // The member's Active Wallet holds it, and the member's own history says so.
  const balance = await memberApi.get('/api/v1/wallet/balance');
  expect(((await balance.json()) as { business: string }).business).toBe('8.50');
  const mine = await memberApi.get('/api/v1/payments/mine');
  const own = ((await mine.json()) as { payments: Payment[] }).payments.find(
    (p) => p.payment_id === partial.payment_id,
  );
  expect(own?.credited_amount).toBe('8.50');

  // Once: a second credit (another key) is refused and moves nothing.
  const again = await page.request.post(`/api/v1/payments/${partial.payment_id}/manual-credit`, {
    headers: { ...(await csrfHeaders(page.request)), 'Idempotency-Key': crypto.randomUUID() },
    data: { amount: '1.00', reason: REASON },
  });
  expect(again.status()).toBe(409);
  const after = await memberApi.get('/api/v1/wallet/balance');
  expect(((await after.json()) as { business: string }).business).toBe('8.50');
});
