import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInByApi,
  transferByApi,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';

// An admin on a desktop: /admin/topup lists every member's top-ups from GET /tr/all (with a CSV of
// the whole filter), every transaction on a tab of its own, the transfers waiting for review with
// Approve and Reject (PATCH /transactions/{id}), and the per-month totals of GET /tr/matrix.

let buyer: Member;
let payee: Member;
const planName = `E2E Topup ${Date.now().toString(36)}`;

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const admin = await playwright.request.newContext({ baseURL });
  const buyerApi = await playwright.request.newContext({ baseURL });
  try {
    buyer = newMember('buyer');
    // The longest a username may be (30 characters) and a long description with a link: the
    // transaction tables still fit a 1366 px laptop with every column shown.
    const shortPayee = newMember('payee');
    payee = { ...shortPayee, username: shortPayee.username.padEnd(30, 'x') };
    await registerByApi(buyerApi, buyer);
    await registerByApi(buyerApi, payee);
    await signInAdminByApi(admin);
    const plan = await admin.post('/api/v1/plans/add', {
      headers: await csrfHeaders(admin),
      data: {
        name: planName,
        min_amount: '10.00',
        max_amount: '500.00',
        roi_percent: '1.00',
        duration_days: 30,
      },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    const planId = ((await plan.json()) as { plan: { id: string } }).plan.id;
    const buyerId = await memberIdOf(admin, buyer.email);
    await creditByApi(admin, buyerId, '6000.00');
    await setActiveByApi(admin, buyerId);
    await signInByApi(buyerApi, buyer);
    const topup = await buyerApi.post('/api/v1/topup/add', {
      headers: { ...(await csrfHeaders(buyerApi)), 'Idempotency-Key': crypto.randomUUID() },
      data: { plan_id: planId, amount: '250.00' },
    });
    expect(topup.status(), await topup.text()).toBe(201);
    const payeeId = await memberIdOf(admin, payee.email);
    const held = await transferByApi(buyerApi, {
      userto_id: payeeId,
      amount: '5000.00',
      from: 'business',
      to: 'business',
      desc: 'E2E review me: course materials and mentoring for November, invoice INV-2026-11-000123456789 https://example.com/invoices/2026/11/000123456789',
    });
    expect(held.status).toBe('pending');
    const closed = await admin.put(`/api/v1/plans/${planId}`, {
      headers: await csrfHeaders(admin),
      data: { status: 'inactive' },
    });
    expect(closed.status(), await closed.text()).toBe(200);
    // A deposit credited by hand, its reason naming the chain's 66-character hash: the All
    // transactions table still fits, the hash wrapping in parts rather than widening the table.
    const credited = await admin.post('/api/v1/admin/adjustments', {
      headers: { ...(await csrfHeaders(admin)), 'Idempotency-Key': crypto.randomUUID() },
      data: {
        user_id: buyerId,
        wallet: 'business',
        direction: 'credit',
        amount: '1234567.89',
        reason: `E2E deposit 0x${'4b7e1f0a9c3d5e28'.repeat(4)} credited by support`,
      },
    });
    expect(credited.status(), await credited.text()).toBe(201);
  } finally {
    await admin.dispose();
    await buyerApi.dispose();
  }
});

test('an admin finds a member top-up, exports the list, reads the monthly totals and approves a transfer once', async ({
  page,
}) => {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Top-ups' }).click();
  await expect(page).toHaveURL(/\/admin\/topup(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Top-ups and transactions' })).toBeVisible();

  await page.getByLabel('Member').fill(buyer.username);
  await page.getByRole('button', { name: 'Apply' }).click();
  const rows = page.locator('[data-transaction-id]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(planName);
  await expect(rows.first().getByTestId('tx-amount')).toHaveText('−$250.00');
  await expect(rows.first().getByTestId('tx-member')).toHaveText(buyer.username);
  const exportLink = page.getByTestId('admin-transactions').getByTestId('export-csv');
  const href = (await exportLink.getAttribute('href')) ?? '';
  const exported = new URL(href, page.url()).searchParams;
  expect([exported.get('transaction_type'), exported.get('user')]).toEqual(['topup', buyer.username]);
  const csv = await page.request.get(href);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(`${buyer.username},topup,debit,250.00,completed,${planName}`);

  // Every kind: the credits, the top-up and the transfer (listed under the payee it credits), each
  // amount signed with the one minus sign and grouped in thousands.
  await page.getByRole('tab', { name: 'All transactions' }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.getByTestId('tx-member')).toHaveText([
    buyer.username,
    payee.username,
    buyer.username,
    buyer.username,
  ]);
  await expect(rows.getByTestId('tx-amount')).toHaveText([
    '+$1,234,567.89',
    '+$5,000.00',
    '−$250.00',
    '+$6,000.00',
  ]);
  await expectTablesFit(page.getByRole('main'));

  const month = new Date().toISOString().slice(0, 7);
  const totals = page.getByTestId('transaction-matrix');
  await expect(totals.getByRole('row', { name: new RegExp(`${month} Investment`) })).toBeVisible();

  // Transfers to review: each with its sender and recipient, the decision confirmed first.
  await page.getByRole('tab', { name: 'Transfers to review' }).click();
  const held = page.getByTestId('pending-transfers').locator('tbody tr').filter({ hasText: 'E2E review me' });
  await expect(held).toHaveCount(1);
  await expect(held.getByRole('cell').nth(1)).toContainText(`${buyer.fullname} ${buyer.email}`);
  await expect(held.getByRole('cell').nth(2)).toContainText(`${payee.fullname} ${payee.email}`);
  await expectTablesFit(page.getByRole('main'));
  await expect(held.getByRole('button', { name: 'Reject' })).toBeInViewport();
  await held.getByRole('button', { name: 'Approve' }).click();
  await page
    .getByRole('dialog', { name: 'Approve transfer' })
    .getByRole('button', { name: 'Approve', exact: true })
    .click();
  await expect(page.getByRole('status').filter({ hasText: TRANSFER_MESSAGES.approved })).toBeVisible();
  await expect(held).toHaveCount(0);

  // The payee now has it, completed.
  await page.getByRole('tab', { name: 'All transactions' }).click();
  await page.getByLabel('Member').fill(payee.username);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Completed');
});
