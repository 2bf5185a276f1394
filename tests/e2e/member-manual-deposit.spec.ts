import { randomBytes } from 'node:crypto';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { DEPOSIT_MESSAGES } from '../../src/shared/deposits.ts';
import { fillSignIn, newMember, registerByApi, signInMember } from './helpers.ts';

// Issue 16, manual deposits end to end: a member on a phone sends amount, transaction hash and a
// screenshot from /user/deposit-history; support on a desktop approves it on /admin/deposits (or
// rejects it with a reason); the member sees the decision, and an approval in their Active Wallet.

const newHash = () => `0x${randomBytes(32).toString('hex')}`;

const contexts: { close: () => Promise<void> }[] = [];
test.afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function openAdminDeposits(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 850 },
    baseURL,
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Deposits' }).click();
  await expect(page).toHaveURL(/\/admin\/deposits/);
  await expect(page.getByRole('heading', { name: 'Manual deposits' })).toBeVisible();
  return page;
}

/** The member's phone: signed in, on the deposit history, the manual deposit form filled and sent. */
async function sendDeposit(page: Page, amount: string, hash: string, screenshot?: Buffer): Promise<void> {
  await page.goto('/user/deposit-history');
  const form = page.getByTestId('manual-deposit-form');
  await form.getByLabel('Amount (USD)').fill(amount);
  await form.getByLabel('Transaction hash').fill(hash);
  if (screenshot)
    await form
      .getByLabel('Screenshot of the payment (optional)')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: screenshot });
  await form.getByRole('button', { name: 'Send deposit' }).click();
  await expect(page.getByTestId('manual-deposit-card').getByTestId('banner-success')).toHaveText(
    DEPOSIT_MESSAGES.added,
  );
}

const memberRow = (page: Page, hash: string) =>
  page.getByTestId('manual-deposits').locator('[data-deposit-id]', { hasText: hash });
const adminRow = (page: Page, hash: string) =>
  page.getByTestId('admin-manual-deposits').locator('[data-deposit-id]', { hasText: hash });

test('a member sends a manual deposit with a screenshot; support approves it; the Active Wallet has it', async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  const member = newMember('manual');
  await registerByApi(request, member);
  await signInMember(page, member);
  await expect(page.getByTestId('balance-business')).toHaveText('$0.00');

  const hash = newHash();
  const screenshot = await sharp({ create: { width: 90, height: 60, channels: 3, background: '#2a7f62' } })
    .png()
    .toBuffer();
  await sendDeposit(page, '42.50', hash, screenshot);
  const mine = memberRow(page, hash);
  await expect(mine).toHaveAttribute('data-status', 'pending');
  await expect(mine.getByTestId('manual-deposit-amount')).toHaveText('$42.50');

  // The same hash again: the server's own words (spec 8), and nothing new in the list.
  const form = page.getByTestId('manual-deposit-form');
  await form.getByLabel('Amount (USD)').fill('42.50');
  await form.getByLabel('Transaction hash').fill(hash.toUpperCase().replace('0X', '0x'));
  await form.getByRole('button', { name: 'Send deposit' }).click();
  await expect(page.getByTestId('manual-deposit-card').getByTestId('banner-error')).toHaveText(
    DEPOSIT_MESSAGES.duplicateHash,
  );
  await expect(
    page.getByTestId('manual-deposits').locator('[data-deposit-id]', { hasText: hash }),
  ).toHaveCount(1);

  const admin = await openAdminDeposits(browser, baseURL);
  await admin.getByLabel('Filter manual deposits').selectOption('pending');
  await expect(admin).toHaveURL(/manual=pending/);
  const row = adminRow(admin, hash);
  await expect(row).toContainText(member.email);
  await expect(row).toContainText('42.50');
  const link = row.getByRole('link', { name: 'View screenshot' });
  await expect(link).toHaveAttribute('href', /^\/api\/v1\/uploads\/[0-9a-f-]{36}\.webp$/);
  const image = await admin.request.get((await link.getAttribute('href')) ?? '');
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/webp');

  await row.getByRole('button', { name: 'Approve' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Approve deposit' });
  await expect(dialog).toContainText('$42.50');
  await dialog.getByRole('button', { name: 'Approve and credit' }).click();
  await expect(admin.getByRole('status').filter({ hasText: DEPOSIT_MESSAGES.approved })).toBeVisible();
  // Filtered on pending, the decided deposit leaves the list; under every status it reads Approved.
  await expect(adminRow(admin, hash)).toHaveCount(0);
  await admin.getByLabel('Filter manual deposits').selectOption('');
  await expect(adminRow(admin, hash)).toHaveAttribute('data-status', 'approved');

  await page.reload();
  await expect(memberRow(page, hash)).toHaveAttribute('data-status', 'approved');
  await expect(memberRow(page, hash).getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await page.goto('/user/dashboard');
  await expect(page.getByTestId('balance-business')).toHaveText('$42.50');
});

test('support rejects a manual deposit with a reason the member reads; a member cancels another', async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  const member = newMember('rejected');
  await registerByApi(request, member);
  await signInMember(page, member);
  const rejected = newHash();
  const cancelled = newHash();
  await sendDeposit(page, '15', rejected);
  await sendDeposit(page, '16', cancelled);

  // The member changes their mind about the second one.
  await memberRow(page, cancelled).getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this deposit?' })
    .getByRole('button', { name: 'Cancel deposit' })
    .click();
  await expect(page.getByTestId('manual-deposit-list').getByTestId('banner-success')).toHaveText(
    DEPOSIT_MESSAGES.cancelled,
  );
  await expect(memberRow(page, cancelled)).toHaveAttribute('data-status', 'cancelled');

  const admin = await openAdminDeposits(browser, baseURL);
  const row = adminRow(admin, rejected);
  await row.getByRole('button', { name: 'Reject' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Reject deposit' });
  // A reason is required: the shared schema says so before anything is sent.
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog.getByText(DEPOSIT_MESSAGES.reasonRequired)).toBeVisible();
  const reason = 'No payment with this hash reached our address';
  await dialog.getByLabel('Reason (shown to the member)').fill(reason);
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(admin.getByRole('status').filter({ hasText: DEPOSIT_MESSAGES.rejected })).toBeVisible();
  await expect(adminRow(admin, rejected)).toHaveAttribute('data-status', 'rejected');
  await expect(adminRow(admin, cancelled)).toHaveAttribute('data-status', 'cancelled');
  await expect(adminRow(admin, cancelled).getByRole('button')).toHaveCount(0);

  await page.reload();
  await expect(memberRow(page, rejected)).toHaveAttribute('data-status', 'rejected');
  await expect(memberRow(page, rejected).getByTestId('manual-deposit-reason')).toHaveText(reason);
  await page.goto('/user/dashboard');
  await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
});
