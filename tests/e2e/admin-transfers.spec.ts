import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  type PlaywrightWorkerArgs,
  test,
} from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { TRANSFER_MESSAGES, type TransferHistory } from '../../src/shared/transfers.ts';
import {
  creditByApi,
  fillSignIn,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
  transferByApi,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';

// Support staff on a desktop screen: activating a member from "Member access" (RULES.md: only active
// members send transfers), then approving one pending transfer and rejecting another from "Transfers
// to review" (on the dashboard, and the same list, sender and recipient, on its own tab of Top-ups). Two registrations for the file. The members and the admin's arranging calls use
// API contexts of their own: one person per browser.

test.describe.configure({ mode: 'serial' });

let sender: Member;
let recipient: Member;
const ids = { sender: '', recipient: '' };
/** The two transfers of $5,000 or more the sender makes once active. */
const pending = { approve: '', reject: '' };
const APPROVE_NOTE = 'E2E: rent for the office';
const REJECT_NOTE = 'E2E: sent by mistake';

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const visitor = await playwright.request.newContext({ baseURL });
  sender = newMember('payer');
  recipient = newMember('payee');
  await registerByApi(visitor, sender);
  await registerByApi(visitor, recipient);
  await visitor.dispose();

  const admin = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(admin);
  ids.sender = await memberIdOf(admin, sender.email);
  ids.recipient = await memberIdOf(admin, recipient.email);
  await creditByApi(admin, ids.sender, '12000.00');
  await admin.dispose();
});

async function openDashboard(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Transfers to review' })).toBeVisible();
}

const access = (page: Page) => page.getByRole('region', { name: 'Member access' });
const review = (page: Page) => page.getByRole('region', { name: 'Transfers to review' });
const pendingRow = (page: Page, description: string): Locator =>
  review(page).getByTestId('pending-transfers').locator('tbody tr').filter({ hasText: description });

/** Finds the member in "Member access" and returns the shown facts. */
async function findInAccess(page: Page, member: Member): Promise<Locator> {
  await access(page).getByLabel('Member e-mail').fill(member.email);
  await access(page).getByRole('button', { name: 'Find', exact: true }).click();
  const found = access(page).getByTestId('member-access');
  await expect(found).toContainText(`${member.fullname} (${member.username})`);
  return found;
}

async function expectBalances(page: Page, member: Member, business: string, working = '$0.00') {
  const found = await findInAccess(page, member);
  await expect(found).toContainText(`Active Wallet ${business}, Income Working ${working}`);
}

async function withMemberApi<T>(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  member: Member,
  work: (request: APIRequestContext) => Promise<T>,
): Promise<T> {
  const request = await playwright.request.newContext({ baseURL });
  try {
    await signInByApi(request, member);
    return await work(request);
  } finally {
    await request.dispose();
  }
}

test('Member access activates a member: the badge switches to Active', async ({ page }) => {
  await openDashboard(page);
  const found = await findInAccess(page, sender);
  await expect(found.getByTestId('member-activation')).toHaveText('Inactive');
  await expect(found.getByTestId('member-activation')).toHaveClass(/\bgrey\b/);
  await expect(found).toContainText('Active Wallet $12,000.00, Income Working $0.00');

  const update = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/api/v1/users/${ids.sender}`,
  );
  await found.getByRole('button', { name: 'Activate', exact: true }).click();
  expect((await update).status()).toBe(200);
  await expect(found.getByTestId('member-activation')).toHaveText('Active');
  await expect(found.getByTestId('member-activation')).toHaveClass(/\bgreen\b/);
  await expect(found.getByRole('button', { name: 'Deactivate', exact: true })).toBeEnabled();
  // Still unblocked: activation touches nothing else.
  await expect(found.getByText('Unblocked', { exact: true })).toBeVisible();

  // Found again from scratch, the member is active on the server too.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Transfers to review' })).toBeVisible();
  const again = await findInAccess(page, sender);
  await expect(again.getByTestId('member-activation')).toHaveText('Active');
});

test('the admin approves one pending transfer and rejects another', async ({
  page,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;

  await test.step('the active member sends two transfers of $5,000 or more: both wait', async () => {
    await withMemberApi(playwright, baseURL, sender, async (request) => {
      for (const [key, amount, desc] of [
        ['approve', '6000.00', APPROVE_NOTE],
        ['reject', '5000.00', REJECT_NOTE],
      ] as const) {
        const transfer = await transferByApi(request, {
          userto_id: ids.recipient,
          amount,
          from: 'business',
          to: 'business',
          desc,
        });
        expect(transfer.status).toBe('pending');
        pending[key] = transfer.id;
      }
    });
  });

  await openDashboard(page);

  await test.step('both are listed for review; the money is held, not yet received', async () => {
    const approveRow = pendingRow(page, APPROVE_NOTE);
    await expect(approveRow).toHaveCount(1);
    await expect(approveRow).toContainText(`${sender.fullname} ${sender.email}`);
    await expect(approveRow).toContainText(`${recipient.fullname} ${recipient.email}`);
    await expect(approveRow.getByRole('cell').nth(3)).toHaveText('$6,000.00');
    await expect(approveRow.getByRole('cell').first()).toHaveText(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
    );
    await expect(pendingRow(page, REJECT_NOTE).getByRole('cell').nth(3)).toHaveText('$5,000.00');
    await expectTablesFit(review(page));
    await expectBalances(page, sender, '$1,000.00');
    await expectBalances(page, recipient, '$0.00');
  });

  await test.step('the side navigation’s Transfers to review shows them with sender and recipient', async () => {
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Transfers to review' })
      .click();
    await expect(page).toHaveURL(/\/admin\/topup\?.*tab=review/);
    const row = pendingRow(page, APPROVE_NOTE);
    await expect(row).toHaveCount(1);
    await expect(review(page).getByRole('columnheader')).toHaveText([
      /^Date/,
      'From',
      'To',
      /^Amount/,
      'Description',
      'Decision',
    ]);
    await expect(row.getByRole('cell').nth(1)).toContainText(`${sender.fullname} ${sender.email}`);
    await expect(row.getByRole('cell').nth(2)).toContainText(`${recipient.fullname} ${recipient.email}`);
    await expectTablesFit(review(page));
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Transfers to review' })).toBeVisible();
  });

  await test.step('Go back in the confirmation leaves the transfer waiting', async () => {
    await pendingRow(page, REJECT_NOTE).getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject transfer' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await expect(dialog).toBeHidden();
    await expect(pendingRow(page, REJECT_NOTE)).toHaveCount(1);
  });

  await test.step('approving: the row goes and the recipient’s balance rises', async () => {
    await pendingRow(page, APPROVE_NOTE).getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve transfer' });
    await expect(dialog).toContainText(`Send $6,000.00 from ${sender.fullname} to ${recipient.fullname}?`);
    const decision = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/v1/transfer/${pending.approve}/status`,
    );
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    const response = await decision;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toEqual({ status: 'completed' });
    await expect(dialog).toBeHidden();
    await expect(review(page).getByRole('status')).toHaveText(TRANSFER_MESSAGES.approved);
    await expect(pendingRow(page, APPROVE_NOTE)).toHaveCount(0);
    await expect(pendingRow(page, REJECT_NOTE)).toHaveCount(1);
    await expectBalances(page, recipient, '$6,000.00');
  });

  await test.step('rejecting with a note: the row goes and the sender’s money comes back', async () => {
    await pendingRow(page, REJECT_NOTE).getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject transfer' });
    await expect(dialog).toContainText(
      `Return $5,000.00 to ${sender.fullname}? The transfer will show as failed.`,
    );
    await dialog.getByLabel('Note for the audit log (optional)').fill('E2E: the member asked');
    const decision = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/v1/transfer/${pending.reject}/status`,
    );
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    const response = await decision;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toEqual({ status: 'failed', reason: 'E2E: the member asked' });
    await expect(dialog).toBeHidden();
    await expect(review(page).getByRole('status')).toHaveText(TRANSFER_MESSAGES.rejected);
    await expect(pendingRow(page, REJECT_NOTE)).toHaveCount(0);
    await expectBalances(page, sender, '$6,000.00');
    await expectBalances(page, recipient, '$6,000.00');
  });

  await test.step('the ledger check still says the books balance', async () => {
    const check = page.getByRole('region', { name: 'Ledger check' });
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/v1/ledger/reconciliation' && r.status() === 200,
    );
    await check.getByRole('button', { name: 'Check again' }).click();
    await answer;
    await expect(check.getByText('Balanced', { exact: true })).toBeVisible();
    await expect(check.getByText('Out of balance')).toHaveCount(0);
  });

  await test.step('the member sees one transfer completed and the other failed', async () => {
    const history = await withMemberApi(playwright, baseURL, sender, async (request) => {
      const response = await request.get(`/api/v1/transfer/byid/${ids.sender}`);
      expect(response.status(), await response.text()).toBe(200);
      return (await response.json()) as TransferHistory;
    });
    const statusOf = (id: string) => history.transfers.outgoing.find((t) => t.id === id)?.status;
    expect(statusOf(pending.approve)).toBe('completed');
    expect(statusOf(pending.reject)).toBe('failed');
    // A failed transfer counts in no total (spec 4); nothing is pending any more.
    expect(history.stats).toMatchObject({
      total_outgoing: 1,
      total_sent_amount: '6000.00',
      pending_outgoing: 0,
      completed_outgoing: 1,
    });
  });
});
