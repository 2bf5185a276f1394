import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { WITHDRAWAL_TEXT } from '../../src/shared/withdrawals.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  type Member,
  newMember,
  registerByApi,
  signInAdminByApi,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';
import { createPlan, type Ready, readyMember, requestByApi } from './withdrawal-setup.ts';

// The admin's daily work on a 1366 px laptop: the one withdrawal queue (every kind, oldest pending
// first, a kind filter and a Review button on each row) and a member's page with their investments,
// withdrawals, deposits, team and tickets, ledger kinds in words, and a ticket that leads back to its
// member. Three registrations for the file: `saver` (an income request, an investment, a deposit, a
// ticket, and `friend` in their team) and `compounder` (a compound request made after saver's).

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36).slice(-5);
const TICKET_SUBJECT = `E2E ${RUN} where is my payout`;
let saver: Ready;
let compounder: Ready;
let friend: Member;
let plan: { id: string; name: string };
const requests = { income: '', compound: '' };

async function post(api: APIRequestContext, path: string, data: Record<string, unknown>) {
  const response = await api.post(`/api/v1${path}`, {
    headers: { ...(await csrfHeaders(api)), 'Idempotency-Key': crypto.randomUUID() },
    data,
  });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const admin = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(admin);
  plan = await createPlan(admin, 30);
  saver = await readyMember(playwright, baseURL, admin, `${RUN}saver`, '200.00');
  // An investment of the saver's own, paid from the Active Wallet.
  await creditByApi(admin, saver.id, '500.00');
  await post(saver.api, '/topup/add', { plan_id: plan.id, amount: '120.00' });
  // A manual deposit, approved: credited to the Active Wallet as a deposit.
  const deposit = await post(saver.api, '/deposite/add', {
    amount: '75.00',
    tx_hash: `0x${crypto.randomUUID().replaceAll('-', '').padEnd(64, '0')}`,
  });
  const approved = await admin.put(`/api/v1/deposite/${deposit.deposit.id}`, {
    headers: await csrfHeaders(admin),
    data: { status: 'approved', amount: '75.00', user_id: saver.id },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  await post(saver.api, '/tickets', { subject: TICKET_SUBJECT, category: 'withdrawal', message: 'Hello' });
  // A direct member who joined with the saver's referral code.
  friend = newMember(`${RUN}friend`);
  const session = (await (await saver.api.get('/api/v1/auth/session')).json()) as {
    auth: { refferal_code: string };
  };
  const visitor = await playwright.request.newContext({ baseURL });
  await registerByApi(visitor, friend, session.auth.refferal_code);
  await visitor.dispose();

  // Two requests, the saver's first: the queue lists it above the compounder's.
  requests.income = (await requestByApi(saver, '/withdrawalrequest/add', { amount: '40.00' })).id;
  compounder = await readyMember(playwright, baseURL, admin, `${RUN}compound`, '100.00');
  requests.compound = (
    await requestByApi(compounder, '/withdrawalrequest/addcompoundwithdrawal', {
      amount: '25.00',
      plan_id: plan.id,
    })
  ).id;
  await admin.dispose();
});

test.afterAll(async ({ playwright }, testInfo) => {
  // The plan is closed again, so members' plan lists stay short in the shared database.
  const admin = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await signInAdminByApi(admin);
  await admin.put(`/api/v1/plans/${plan.id}`, {
    headers: await csrfHeaders(admin),
    data: { status: 'inactive' },
  });
  await admin.dispose();
  await saver?.api.dispose();
  await compounder?.api.dispose();
});

async function signInAdmin(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

const queueRow = (page: Page, id: string) =>
  page.getByTestId('admin-withdrawals').locator(`tr[data-withdrawal-id="${id}"]`);

test('one withdrawal queue: every kind, oldest pending first, a kind filter and Review on each row', async ({
  page,
}) => {
  await signInAdmin(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Withdrawals' }).click();
  await expect(page.getByRole('heading', { level: 1, name: WITHDRAWAL_TEXT.adminTitle })).toBeVisible();
  await page.getByLabel('Status').selectOption('pending');
  await expect(page).toHaveURL(/status=pending/);

  // Both kinds in the one list, the older request above the newer (the server's order is kept).
  const rows = page.getByTestId('admin-withdrawals').locator('tbody tr');
  await expect(queueRow(page, requests.income)).toContainText(WITHDRAWAL_TEXT.kindNames.income);
  await expect(queueRow(page, requests.compound)).toContainText(WITHDRAWAL_TEXT.kindNames.compound);
  const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-withdrawal-id')));
  expect(order.indexOf(requests.income)).toBeLessThan(order.indexOf(requests.compound));
  // Each row has its Review button.
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  for (const row of await rows.all())
    await expect(row.getByRole('link', { name: new RegExp(`^${WITHDRAWAL_TEXT.review} `) })).toBeVisible();
  await expectTablesFit(page.locator('.admin-withdrawals'));

  // The kind filter offers every kind and narrows the list, in the address.
  await expect(page.getByLabel('Kind').locator('option')).toHaveText([
    'All kinds',
    WITHDRAWAL_TEXT.kindNames.income,
    WITHDRAWAL_TEXT.kindNames.roi,
    WITHDRAWAL_TEXT.kindNames.principal,
    WITHDRAWAL_TEXT.kindNames.compound,
  ]);
  await page.getByLabel('Kind').selectOption('compound');
  await expect(page).toHaveURL(/kind=compound/);
  await expect(queueRow(page, requests.compound)).toHaveCount(1);
  await expect(queueRow(page, requests.income)).toHaveCount(0);
  for (const kind of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind'))))
    expect(kind).toBe('compound');

  // Review opens the request above the queue.
  await queueRow(page, requests.compound)
    .getByRole('link', { name: /^Review / })
    .click();
  await expect(page).toHaveURL(new RegExp(`open=${requests.compound}`));
  await expect(
    page.getByTestId('withdrawal-detail').getByRole('heading', { name: WITHDRAWAL_TEXT.detailTitle }),
  ).toBeVisible();
});

test('a member page shows investments, withdrawals, deposits, team and tickets, with kinds in words', async ({
  page,
}) => {
  await signInAdmin(page);
  // From the queue, the member's name opens their page.
  await page.goto('/admin/withdrawals?status=pending');
  await queueRow(page, requests.income)
    .getByRole('link', { name: saver.member.fullname, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/check/profile/${saver.id}`));
  await expect(page.getByRole('heading', { level: 1, name: saver.member.fullname })).toBeVisible();

  const records = page.getByRole('region', { name: 'Records' });
  await expect(records.getByRole('tab')).toHaveText([
    'Investments',
    'Withdrawals',
    'Deposits',
    'Team',
    'Tickets',
  ]);

  await expect(records.getByTestId('member-investments').locator('tbody tr')).toHaveCount(1);
  await expect(records.getByTestId('member-investments').locator('tbody tr')).toContainText(plan.name);
  await expect(records.getByTestId('member-investments').locator('tbody tr')).toContainText('$120.00');
  await expectTablesFit(records);

  await records.getByRole('tab', { name: 'Withdrawals' }).click();
  await expect(page).toHaveURL(/tab=withdrawals/);
  const withdrawal = records.getByTestId('member-withdrawals').locator('tbody tr');
  await expect(withdrawal).toHaveCount(1);
  await expect(withdrawal).toContainText(WITHDRAWAL_TEXT.kindNames.income);
  await expect(withdrawal).toContainText('$40.00');
  await expect(withdrawal.getByTestId('member-withdrawal-status')).toHaveText('Pending');
  await expectTablesFit(records);

  await records.getByRole('tab', { name: 'Deposits' }).click();
  const deposit = records.getByTestId('member-deposits').locator('tbody tr');
  await expect(deposit).toHaveCount(1);
  await expect(deposit).toContainText('$75.00');
  await expectTablesFit(records);

  await records.getByRole('tab', { name: 'Team' }).click();
  const team = records.getByTestId('member-team').locator('tbody tr');
  await expect(team).toHaveCount(1);
  await expect(team).toContainText(friend.fullname);
  await expectTablesFit(records);

  await records.getByRole('tab', { name: 'Tickets' }).click();
  const ticket = records.getByTestId('member-tickets').locator('tbody tr');
  await expect(ticket).toHaveCount(1);
  await expect(ticket).toContainText(TICKET_SUBJECT);
  await expectTablesFit(records);
  // A reload keeps the tab.
  await page.reload();
  await expect(records.getByRole('tab', { name: 'Tickets' })).toHaveAttribute('aria-selected', 'true');

  // Kinds in words: the ledger names every kind the way a person says it, never as a code.
  const kinds = page.getByTestId('member-ledger').locator('tbody tr td:nth-child(2)');
  await expect(kinds.filter({ hasText: 'Withdrawal fee' })).toHaveCount(1);
  const kindTexts = await kinds.allTextContents();
  expect(kindTexts).toEqual(expect.arrayContaining(['Withdrawal', 'Deposit', 'Adjustment', 'Investment']));
  for (const text of kindTexts) expect(text).not.toMatch(/_/);
  await expectTablesFit(page.getByRole('region', { name: 'Recent ledger transfers' }));

  // The ticket opens, and its member's name leads back to this page.
  await ticket.getByRole('link', { name: TICKET_SUBJECT }).click();
  await expect(page).toHaveURL(/\/admin\/ticket\//);
  await page.getByTestId('ticket-member').click();
  await expect(page).toHaveURL(new RegExp(`/admin/check/profile/${saver.id}`));
  await expect(page.getByRole('heading', { level: 1, name: saver.member.fullname })).toBeVisible();
});

test('the All transactions list names each type in words', async ({ page }) => {
  await signInAdmin(page);
  await page.goto(`/admin/topup?tab=all&page=1&user=${encodeURIComponent(saver.member.email)}`);
  const types = page.getByTestId('admin-transactions').locator('tbody tr td:nth-child(3)');
  await expect(types.filter({ hasText: 'Withdrawal fee' })).toHaveCount(1);
  for (const text of await types.allTextContents()) expect(text).not.toMatch(/_/);
  await expect(page.getByLabel('Type').locator('option', { hasText: 'Withdrawal fee' })).toHaveCount(1);
});
