import { randomBytes } from 'node:crypto';
import { devices, expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { WEB3_MESSAGES } from '../../src/shared/web3.ts';
import {
  csrfHeaders,
  expectTapTarget,
  fillSignIn,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';

// On-chain deposits, the paste-a-hash path end to end. The suite's server has no RPC
// (BSC_RPC_URL unset, DEPOSIT_ADDRESS set), so a pasted hash waits for an admin: a member on a phone
// pastes it on /user/web3-deposit and follows it; support on a desktop approves it on /admin/web3 with
// the amount checked on chain; the member's page turns to credited by itself and the balance rises.
// The chain check itself is covered against a real local chain in tests/api/web3-deposits.test.ts.

const DEPOSIT_ADDRESS = '0x7e57000000000000000000000000000000000d0d';
const newHash = () => `0x${randomBytes(32).toString('hex')}`;

test('a member pastes a transaction hash; with no chain check support approves it; the Active Wallet has it', async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  const member = newMember('web3');
  await registerByApi(request, member);
  await signInMember(page, member);
  await expect(page.getByTestId('balance-business')).toHaveText('$0.00');

  await page.goto('/user/web3-deposit');
  await expect(page.getByRole('heading', { name: 'Deposit USDT on BNB Smart Chain' })).toBeVisible();
  await expect(page.getByTestId('web3-deposit-address')).toHaveText(DEPOSIT_ADDRESS);
  await expectTapTarget(page.getByRole('button', { name: 'Copy address' }));
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await expect(page.getByTestId('web3-wallet-note')).toHaveText(WEB3_MESSAGES.walletNotConfigured);
  await expect(page.getByTestId('web3-deposits-empty')).toBeVisible();

  // The shared schema refuses a malformed hash before anything is sent.
  const submit = page.getByRole('button', { name: 'Submit' });
  await expectTapTarget(submit);
  await page.getByLabel('Transaction hash', { exact: true }).fill('0x1234');
  await submit.click();
  await expect(page.getByText(WEB3_MESSAGES.txHashInvalid)).toBeVisible();

  const hash = newHash();
  await page.getByLabel('Transaction hash', { exact: true }).fill(`  ${hash}  `);
  await submit.click();
  await expect(page.getByTestId('banner-success')).toHaveText(WEB3_MESSAGES.submittedAwaitingAdmin);
  const followed = page.getByTestId('web3-followed');
  await expect(followed.locator('[data-status]')).toHaveText('Awaiting admin');
  await expect(followed.getByRole('link', { name: 'View on BscScan' })).toHaveAttribute(
    'href',
    `https://bscscan.com/tx/${hash}`,
  );
  await expect(page).toHaveURL(/\?deposit=/);
  await expect(
    page.getByTestId('web3-deposits').locator('[data-deposit-id]', { hasText: hash }),
  ).toHaveAttribute('data-status', 'awaiting_admin');

  // Support, on a desktop.
  const context = await browser.newContext({
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 850 },
    baseURL,
  });
  try {
    const admin = await context.newPage();
    await admin.goto('/admin-login');
    await fillSignIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(admin).toHaveURL(/\/admin\/dashboard$/);
    await admin
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'On-chain USDT' })
      .click();
    await expect(admin).toHaveURL(/\/admin\/web3/);
    const settings = admin.getByTestId('web3-settings');
    await expect(settings).toContainText('Off: every deposit waits for an admin');
    await expect(settings).toContainText(DEPOSIT_ADDRESS);
    await admin.getByLabel('Filter by status').selectOption('awaiting_admin');
    await expect(admin).toHaveURL(/status=awaiting_admin/);
    const row = admin.getByTestId('admin-web3-deposits').locator('[data-deposit-id]', { hasText: hash });
    await expect(row).toContainText(member.fullname);
    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Approve on-chain deposit' });
    await dialog.getByLabel('Amount received (USD)').fill('12.34');
    await dialog.getByRole('button', { name: 'Approve and credit' }).click();
    await expect(admin.getByRole('status').filter({ hasText: WEB3_MESSAGES.approved })).toBeVisible();
    // Filtered on awaiting admin, the credited deposit leaves the list; under every status it is credited.
    await expect(row).toHaveCount(0);
    await admin.getByLabel('Filter by status').selectOption('');
    await expect(
      admin.getByTestId('admin-web3-deposits').locator('[data-deposit-id]', { hasText: hash }),
    ).toHaveAttribute('data-status', 'credited');
  } finally {
    await context.close();
  }

  // The member's page follows the deposit by itself.
  await expect(followed.locator('[data-status]')).toHaveText('Credited', { timeout: 15_000 });
  await expect(followed).toContainText('$12.34 was added to your Active Wallet.');
  await page.goto('/user/deposit-history');
  await expect(
    page.getByTestId('web3-deposits').locator('[data-deposit-id]', { hasText: hash }),
  ).toHaveAttribute('data-status', 'credited');
  await page.goto('/user/dashboard');
  await expect(page.getByTestId('balance-business')).toHaveText('$12.34');
});

test('support hands a deposit someone else submitted to the member who sent it, with a reason; approving credits that member', async ({
  browser,
  playwright,
  baseURL,
}) => {
  const submitter = newMember('web3from');
  const sender = newMember('web3owner');
  const api = await playwright.request.newContext({ baseURL });
  const adminApi = await playwright.request.newContext({ baseURL });
  const hash = newHash();
  try {
    await registerByApi(api, submitter);
    await registerByApi(api, sender);
    await signInAdminByApi(adminApi);
    const senderId = await memberIdOf(adminApi, sender.email);
    await signInByApi(api, submitter);
    const submitted = await api.post('/api/v1/web3/deposits', {
      headers: { ...(await csrfHeaders(api)), 'Idempotency-Key': crypto.randomUUID() },
      data: { chain_id: 56, tx_hash: hash },
    });
    expect(submitted.status(), await submitted.text()).toBe(201);

    const context = await browser.newContext({
      ...devices['Desktop Chrome'],
      viewport: { width: 1366, height: 850 },
      baseURL,
    });
    try {
      const admin = await context.newPage();
      await admin.goto('/admin-login');
      await fillSignIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
      await expect(admin).toHaveURL(/\/admin\/dashboard$/);
      await admin.goto('/admin/web3?status=awaiting_admin');
      const row = admin.getByTestId('admin-web3-deposits').locator('[data-deposit-id]', { hasText: hash });
      await expect(row).toContainText(submitter.fullname);
      await row.getByRole('button', { name: 'Assign' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Assign on-chain deposit to another member' });
      await dialog.getByLabel('Member id').fill(senderId);
      await dialog
        .getByLabel('Reason (kept in the audit log)')
        .fill('Their wallet sent it: checked on BscScan');
      await dialog.getByRole('button', { name: 'Assign' }).click();
      await expect(admin.getByRole('status').filter({ hasText: WEB3_MESSAGES.assigned })).toBeVisible();
      await expect(row).toContainText(sender.fullname);

      await row.getByRole('button', { name: 'Approve' }).click();
      const approve = admin.getByRole('dialog', { name: 'Approve on-chain deposit' });
      await approve.getByLabel('Amount received (USD)').fill('25.00');
      await approve.getByRole('button', { name: 'Approve and credit' }).click();
      await expect(admin.getByRole('status').filter({ hasText: WEB3_MESSAGES.approved })).toBeVisible();
    } finally {
      await context.close();
    }
    const profile = await adminApi.get(`/api/v1/users/${senderId}`);
    expect(profile.status()).toBe(200);
    const { singleuser } = (await profile.json()) as { singleuser: { balance: { business: string } } };
    expect(singleuser.balance.business).toBe('25.00');
  } finally {
    await api.dispose();
    await adminApi.dispose();
  }
});
