import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN, E2E_MAIL_REFUSE_URL } from '../../playwright.config.ts';
import {
  csrfHeaders,
  fillSignIn,
  mailText,
  newMember,
  nextClientAddress,
  registerByApi,
  signInAdminByApi,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';

// Failed mails on a desktop (docs/rules.md "Mail", "Admin dashboard"): the run's mail sink refuses every
// mail to one new member's address (as a full mailbox), so the member's reset-link mail fails for good
// after its retries. Nothing is written to the database behind the server's back. The dashboard counts
// it; its line opens /admin/mail with the failed filter in the address; once the mailbox takes mail
// again, Send again puts it back in the outbox, the sink receives it and the screen shows it sent.

async function countOf(page: Page, key: string): Promise<number> {
  const badge = page.getByTestId(`needs-action-count-${key}`);
  await expect(badge).toHaveText(/^\d+$/);
  return Number(await badge.textContent());
}

async function setRefused(request: APIRequestContext, email: string, refused: boolean): Promise<void> {
  const url = `${E2E_MAIL_REFUSE_URL}?to=${encodeURIComponent(email)}`;
  const response = refused ? await request.post(url) : await request.delete(url);
  expect(response.status()).toBe(204);
}

async function outboxStatus(adminApi: APIRequestContext, email: string): Promise<string | undefined> {
  const response = await adminApi.get(`/api/v1/admin/mail/outbox?to=${encodeURIComponent(email)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { mails: { status: string }[] }).mails[0]?.status;
}

test('a mail that failed for good is found from the dashboard and sent again', async ({
  page,
  playwright,
  baseURL,
}) => {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const before = await countOf(page, 'mails_failed');

  const adminApi = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(adminApi);
    const member = newMember('bounce');
    await registerByApi(adminApi, member);
    // The member asks for a reset link while their mailbox refuses everything.
    await setRefused(adminApi, member.email, true);
    try {
      const asked = await adminApi.post('/api/v1/pass/forget', {
        headers: { ...(await csrfHeaders(adminApi)), 'X-Forwarded-For': nextClientAddress() },
        data: { email: member.email },
      });
      expect(asked.status(), await asked.text()).toBe(200);
      await expect.poll(() => outboxStatus(adminApi, member.email), { timeout: 20_000 }).toBe('failed');
    } finally {
      await setRefused(adminApi, member.email, false);
    }

    // Back on the dashboard (a visit asks again): one more failed mail, and its line is a link.
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await nav.getByRole('link', { name: 'Mail' }).click();
    await expect(page.getByRole('heading', { name: 'Mail', level: 1 })).toBeVisible();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByTestId('needs-action-count-mails_failed')).toHaveText(String(before + 1));
    await expect(page.getByTestId('needs-action-mails_failed')).not.toContainText('no screen');
    await page.getByTestId('needs-action-mails_failed').getByRole('link').click();

    await expect(page).toHaveURL(/\/admin\/mail\?/);
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    await expect(nav.getByRole('link', { name: 'Mail' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('Filter by status')).toHaveValue('failed');
    const table = page.getByTestId('admin-mail');
    const row = table.getByRole('row').filter({ hasText: member.email });
    await expect(row).toHaveAttribute('data-status', 'failed');
    await expect(row).toContainText('Failed');
    await expect(row).toContainText('451');
    await expect(row.getByRole('cell').nth(3)).toHaveText('5');
    await expectTablesFit(page.getByRole('main'));

    await row.getByRole('button', { name: 'Send again' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send the mail again' });
    await expect(dialog).toContainText(member.email);
    await dialog.getByRole('button', { name: 'Send again' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('status').filter({ hasText: 'The mail is back in the outbox and will be sent now.' }),
    ).toBeVisible();
    // No longer failed: gone from this list.
    await expect(row).toHaveCount(0);

    // The mailbox takes it now: the sink received the reset link, and the whole outbox shows it sent.
    expect(await mailText(adminApi, member.email, /reset-password\?token=/)).toMatch(/reset-password/);
    await page.getByLabel('Filter by status').selectOption('');
    await expect(page).toHaveURL(/\/admin\/mail$/);
    const anyRow = table.getByRole('row').filter({ hasText: member.email });
    await expect(anyRow).toHaveAttribute('data-status', 'sent');
    await expect(anyRow).toContainText('Sent');
    await expect(anyRow.getByRole('button', { name: 'Send again' })).toHaveCount(0);

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByTestId('needs-action-count-mails_failed')).toHaveText(String(before));
  } finally {
    await adminApi.dispose();
  }
});
