import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  memberIdOf,
  newMember,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInByApi,
  transferByApi,
} from './helpers.ts';

// The admin dashboard's "Needs action" on a desktop: a member's transfer at the review threshold
// (made through the API) is counted on the dashboard, and its line leads to /admin/topup with the
// "Transfers to review" tab chosen in the address and the transfer in the list. Two registrations.

const row = (page: Page, key: string) => page.getByTestId(`needs-action-${key}`);

async function countOf(page: Page, key: string): Promise<number> {
  const badge = page.getByTestId(`needs-action-count-${key}`);
  await expect(badge).toHaveText(/^\d+$/);
  return Number(await badge.textContent());
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Needs action', level: 2 })).toBeVisible();
}

test('a transfer held for review is counted and its line opens the review list with it', async ({
  page,
  playwright,
  baseURL,
}) => {
  await openDashboard(page);
  // The panel comes first on the dashboard, before the member counts.
  const headings = page.getByRole('main').getByRole('heading', { level: 2 });
  await expect(headings.first()).toHaveText('Needs action');
  // Every kind has its line whatever its count; a line with nothing waiting says so.
  const lines = page.getByTestId('needs-action').getByRole('listitem');
  await expect(lines).toHaveCount(11);
  for (const line of await lines.all()) {
    if ((await line.getAttribute('data-count')) === '0') await expect(line).toContainText('Nothing waiting');
    else await expect(line).not.toContainText('Nothing waiting');
  }
  const before = await countOf(page, 'transfers_on_hold');

  // Arranged through the API: a funded, active sender and a recipient; the sender's transfer of
  // $5,000.00 (the default review threshold) is held.
  const adminApi = await playwright.request.newContext({ baseURL });
  const senderApi = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(adminApi);
    const sender = newMember('held');
    const recipient = newMember('heldto');
    await registerByApi(adminApi, sender);
    await registerByApi(adminApi, recipient);
    const senderId = await memberIdOf(adminApi, sender.email);
    const recipientId = await memberIdOf(adminApi, recipient.email);
    await setActiveByApi(adminApi, senderId);
    await creditByApi(adminApi, senderId, '5000.00');
    await signInByApi(senderApi, sender);
    const description = `E2E held ${Date.now().toString(36)}`;
    const transfer = await transferByApi(senderApi, {
      userto_id: recipientId,
      amount: '5000.00',
      from: 'business',
      to: 'business',
      desc: description,
    });
    expect(transfer.status).toBe('pending');

    // Back on the dashboard (a new visit asks again; it also refreshes by itself every 30 s).
    // Top-ups must have opened before Dashboard is clicked: clicked while its code still loads, the
    // router stays on the dashboard, which then neither remounts nor asks again.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Top-ups' }).click();
    await expect(page).toHaveURL(/\/admin\/topup/);
    await expect(page.getByRole('heading', { name: 'Needs action', level: 2 })).toBeHidden();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByTestId('needs-action-count-transfers_on_hold')).toHaveText(String(before + 1));
    await expect(row(page, 'transfers_on_hold')).toContainText(/\$[\d,]+\.\d{2} waiting/);

    await row(page, 'transfers_on_hold').getByRole('link').click();
    await expect(page).toHaveURL(/\/admin\/topup\?/);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('review');
    await expect(page.getByRole('tab', { name: 'Transfers to review' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('row').filter({ hasText: description })).toBeVisible();

    // Decided through the API, so the next repeat starts from the same count.
    const decided = await adminApi.put(`/api/v1/transfer/${transfer.id}/status`, {
      headers: await csrfHeaders(adminApi),
      data: { status: 'failed' },
    });
    expect(decided.status(), await decided.text()).toBe(200);
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByTestId('needs-action-count-transfers_on_hold')).toHaveText(String(before));
    if (before === 0) await expect(row(page, 'transfers_on_hold')).toContainText('Nothing waiting');
  } finally {
    await adminApi.dispose();
    await senderApi.dispose();
  }
});
