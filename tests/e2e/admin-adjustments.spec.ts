import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { DIALOG } from '../../src/shared/messages.ts';
import { ADJUSTMENT_TEXT } from '../../src/shared/users.ts';
import { WALLET_LABELS, WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { fillSignIn, type Member, newMember, registerByApi } from './helpers.ts';

// Support staff correct a member's balance from the admin dashboard on a desktop screen: find the member,
// credit and debit with a reason, confirmed in words with the balance before and after (issue 22), the
// schema's messages before any request, and the ledger check. (From a member's profile: admin-users.)
// One registration for the file.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ADJUSTMENTS_PATH = '/api/v1/admin/adjustments';

let member: Member;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  member = newMember('adjusted');
  await registerByApi(request, member);
  await request.dispose();
});

async function openDashboard(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: "Adjust a member's balance" })).toBeVisible();
}

/** Every POST to the adjustments call the page makes, with its Idempotency-Key. */
function watchAdjustmentPosts(page: Page): (string | undefined)[] {
  const keys: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === ADJUSTMENTS_PATH)
      keys.push(request.headers()['idempotency-key']);
  });
  return keys;
}

const form = (page: Page) => page.getByRole('region', { name: "Adjust a member's balance" });

const confirmation = (page: Page) => page.getByRole('dialog', { name: ADJUSTMENT_TEXT.confirmTitle });

async function findMember(page: Page, email: string): Promise<void> {
  await form(page).getByLabel('Member e-mail').fill(email);
  await form(page).getByRole('button', { name: 'Find', exact: true }).click();
}

test('the schema’s messages show before any request is made', async ({ page }) => {
  const posts = watchAdjustmentPosts(page);
  await openDashboard(page);
  const adjust = form(page);

  await adjust.getByLabel('Reason').fill('ok');
  await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
  await expect(adjust.getByLabel('Amount')).toHaveAccessibleDescription(
    new RegExp(`^${WALLET_MESSAGES.amountRequired}`),
  );
  await expect(adjust.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(adjust.getByLabel('Reason')).toHaveAccessibleDescription(
    new RegExp(`^${WALLET_MESSAGES.reasonLength}`),
  );
  await expect(adjust.getByLabel('Member e-mail')).toHaveAccessibleDescription(WALLET_MESSAGES.userRequired);
  // The first problem of a field only: an empty amount is not also "greater than 0".
  await expect(adjust.getByText(WALLET_MESSAGES.amountPositive)).toHaveCount(0);

  // A found member and a valid amount clear their messages; the short reason still stops the request.
  await findMember(page, member.email);
  await expect(adjust.getByTestId('found-member')).toContainText(member.username);
  await adjust.getByLabel('Amount').fill('12.345');
  await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
  await expect(adjust.getByLabel('Amount')).toHaveAccessibleDescription(
    new RegExp(`^${WALLET_MESSAGES.amountFormat}`),
  );
  await expect(adjust.getByLabel('Member e-mail')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(adjust.getByText(WALLET_MESSAGES.reasonLength)).toBeVisible();

  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(posts).toEqual([]);
});

test('an unknown e-mail shows the server’s message', async ({ page }) => {
  await openDashboard(page);
  await findMember(page, `nobody.${Date.now()}@example.com`);
  await expect(form(page).getByLabel('Member e-mail')).toHaveAccessibleDescription(
    WALLET_MESSAGES.noUserWithEmail,
  );
  await expect(form(page).getByTestId('found-member')).toHaveCount(0);
});

test('the admin credits a member, is refused a debit beyond the balance, and the ledger stays balanced', async ({
  page,
}) => {
  const keys = watchAdjustmentPosts(page);
  await openDashboard(page);
  const adjust = form(page);

  await test.step('finding the member by e-mail shows who they are', async () => {
    await findMember(page, member.email.toUpperCase());
    const found = adjust.getByTestId('found-member');
    await expect(found).toContainText(member.fullname);
    await expect(found).toContainText(member.username);
    await expect(found).toContainText(member.email);
  });

  await test.step('crediting 40.00 to Income Working shows the Success dialog and resets the form', async () => {
    await adjust.getByLabel('Wallet', { exact: true }).selectOption({ label: WALLET_LABELS.working });
    await adjust.getByRole('radio', { name: 'Credit' }).check();
    await adjust.getByLabel('Amount').fill('40.00');
    await adjust.getByLabel('Reason').fill('E2E: goodwill credit after a support ticket');

    // Held on the way out, so the sending state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**${ADJUSTMENTS_PATH}`, async (route) => {
      await held;
      await route.continue();
    });
    await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
    const confirm = confirmation(page);
    await expect(confirm.getByTestId('adjustment-question')).toHaveText(
      `Credit $40.00 to ${member.fullname}'s Income Working?`,
    );
    await expect(confirm.getByTestId('adjustment-balance-now')).toHaveText('Income Working now holds $0.00.');
    await expect(confirm.getByTestId('adjustment-balance-after')).toHaveText(
      'After this adjustment: $40.00.',
    );
    expect(keys).toEqual([]);
    await confirm.getByRole('button', { name: ADJUSTMENT_TEXT.confirmButton }).click();
    await expect(confirm).toBeHidden();
    await expect(adjust.getByRole('button', { name: 'Applying...' })).toBeDisabled();
    await expect(adjust.getByLabel('Amount')).toBeDisabled();
    await expect(adjust.getByLabel('Reason')).toBeDisabled();
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === ADJUSTMENTS_PATH);
    release();
    expect((await answer).status()).toBe(201);
    await page.unroute(`**${ADJUSTMENTS_PATH}`);

    const dialog = page.getByRole('dialog', { name: DIALOG.successTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(WALLET_MESSAGES.adjusted);
    await expect(dialog.getByTestId('adjustment-new-balance')).toHaveText(
      `${member.fullname}'s Income Working now holds $40.00.`,
    );
    await dialog.getByRole('button', { name: DIALOG.goBack }).click();
    await expect(dialog).toBeHidden();
    await expect(adjust.getByLabel('Amount')).toHaveValue('');
    await expect(adjust.getByLabel('Reason')).toHaveValue('');
    await expect(adjust.getByLabel('Member e-mail')).toHaveValue('');
    await expect(adjust.getByTestId('found-member')).toHaveCount(0);
    await expect(adjust.getByRole('button', { name: 'Apply adjustment' })).toBeEnabled();
  });

  await test.step('debiting 50.00 from Income Working is refused with the server’s message', async () => {
    await findMember(page, member.email);
    await expect(adjust.getByTestId('found-member')).toContainText(member.username);
    await adjust.getByLabel('Wallet', { exact: true }).selectOption({ label: WALLET_LABELS.working });
    await adjust.getByRole('radio', { name: 'Debit' }).check();
    await adjust.getByLabel('Amount').fill('50.00');
    await adjust.getByLabel('Reason').fill('E2E: debit more than the wallet holds');
    await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
    const confirm = confirmation(page);
    await expect(confirm.getByTestId('adjustment-question')).toHaveText(
      `Debit $50.00 from ${member.fullname}'s Income Working?`,
    );
    // Asked all the same: the server, not the screen, decides (the balance may have changed since).
    await expect(confirm.getByTestId('adjustment-balance-after')).toHaveText(
      'Income Working holds only $40.00: a debit beyond it will be refused.',
    );
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === ADJUSTMENTS_PATH);
    await confirm.getByRole('button', { name: ADJUSTMENT_TEXT.confirmButton }).click();
    expect((await answer).status()).toBe(422);

    const dialog = page.getByRole('dialog', { name: DIALOG.errorTitle });
    await expect(dialog.getByRole('alert')).toHaveText(WALLET_MESSAGES.insufficient);
    await dialog.getByRole('button', { name: DIALOG.close, exact: true }).click();
    await expect(dialog).toBeHidden();
    // Nothing typed is lost: the admin can correct the amount and try again.
    await expect(adjust.getByLabel('Amount')).toHaveValue('50.00');
    await expect(adjust.getByRole('radio', { name: 'Debit' })).toBeChecked();
  });

  await test.step('every submission carried an Idempotency-Key of its own', async () => {
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);
  });

  await test.step('the ledger check says the books balance', async () => {
    const check = page.getByRole('region', { name: 'Ledger check' });
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/v1/ledger/reconciliation' && r.status() === 200,
    );
    await check.getByRole('button', { name: 'Check again' }).click();
    await answer;
    await expect(check.getByText('Balanced', { exact: true })).toBeVisible();
    await expect(check.getByText('Out of balance')).toHaveCount(0);
    await expect(check).toContainText(/[1-9]\d* accounts? checked/);
  });
});
