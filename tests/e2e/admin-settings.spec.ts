import { type Browser, devices, expect, test } from '@playwright/test';
import { SETTINGS_MESSAGES } from '../../src/shared/settings.ts';
import { reviewSummary, TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import {
  creditByApi,
  fillSignIn,
  memberIdOf,
  newMember,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInMember,
} from './helpers.ts';
import { type OwnServer, startOwnServer } from './pwa-helpers.ts';

// Issue 19, settings: support on a desktop lowers the daily transfer limit on /admin/settings; a member
// on a phone sees the new limit on the transfer form at once, and a transfer past it is refused with the
// limit named. A server of its own: the suite's other specs keep the default limits.

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startOwnServer();
});
test.afterAll(async () => {
  await server?.stop();
});

/** Support on a desktop, the member on a phone, both on this spec's own server. */
async function desktopAndPhone(browser: Browser) {
  const support = await browser.newContext({
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 850 },
    baseURL: server.origin,
  });
  const phone = await browser.newContext({ ...devices['Pixel 7'], baseURL: server.origin });
  return { support, phone };
}

test('an admin lowers the daily transfer limit; the member’s transfer form and the server follow it', async ({
  browser,
}) => {
  // Two members, the sender active with $500.00 (arranged through the API by the own server's admin).
  const { support, phone } = await desktopAndPhone(browser);
  try {
    const sender = newMember('limit');
    const recipient = newMember('limitto');
    await registerByApi(phone.request, sender);
    await registerByApi(phone.request, recipient);
    const arrange = await browser.newContext({ baseURL: server.origin });
    try {
      await signInAdminByApi(arrange.request, server.admin);
      const id = await memberIdOf(arrange.request, sender.email);
      await setActiveByApi(arrange.request, id);
      await creditByApi(arrange.request, id, '500.00');
    } finally {
      await arrange.close();
    }

    const admin = await support.newPage();
    await admin.goto('/admin-login');
    await fillSignIn(admin, server.admin.email, server.admin.password);
    await expect(admin).toHaveURL(/\/admin\/dashboard$/);
    await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
    const form = admin.getByTestId('money-settings');
    const limit = form.getByLabel('Daily transfer limit (USD per member per UTC day)');
    await expect(limit).toHaveValue('25000.00');
    await expect(form).toContainText('Default: $25,000.00.');
    // A bad value is refused on its field before anything is sent.
    await limit.fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Daily transfer limit must be between $0.01')).toBeVisible();
    await limit.fill('100');
    const saved = admin.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/settings');
    await form.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await expect(admin.getByText(SETTINGS_MESSAGES.saved)).toBeVisible();
    await expect(limit).toHaveValue('100.00');

    const page = await phone.newPage();
    await signInMember(page, sender);
    await page.goto('/user/transfer-form');
    await expect(page.getByTestId('transfer-limits')).toHaveText(
      TRANSFER_MESSAGES.limits('$100.00', '$100.00', '$5,000.00'),
    );
    const sendForm = page.getByRole('region', { name: 'Send money' });
    await sendForm.getByLabel('Recipient email or username', { exact: true }).fill(recipient.email);
    await expect(page.getByTestId('recipient-lookup').locator('dd').first()).toHaveText(recipient.fullname);
    await sendForm.getByLabel('Amount', { exact: true }).fill('150');
    await sendForm.getByRole('button', { name: TRANSFER_MESSAGES.send }).click();
    const review = page.getByRole('dialog', { name: TRANSFER_MESSAGES.reviewTitle });
    await expect(review.getByTestId('transfer-summary')).toHaveText(
      reviewSummary('$150.00', recipient.fullname, recipient.username, 'Active Wallet'),
    );
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/transfer/touser');
    await review.getByRole('button', { name: TRANSFER_MESSAGES.confirm }).click();
    expect((await answer).status()).toBe(422);
    const failed = page.getByRole('dialog', { name: TRANSFER_MESSAGES.failedTitle });
    await expect(failed.getByRole('alert')).toHaveText(TRANSFER_MESSAGES.dailyLimit(10_000));
  } finally {
    await support.close();
    await phone.close();
  }
});

test('an admin sets the support e-mail and a lifetime in minutes; members see the address beside their tickets', async ({
  browser,
}) => {
  const { support, phone } = await desktopAndPhone(browser);
  try {
    const member = newMember('support');
    await registerByApi(phone.request, member);
    const page = await phone.newPage();
    await signInMember(page, member);
    await page.goto('/user/queries');
    await expect(page.getByRole('heading', { name: 'Support tickets', level: 1 })).toBeVisible();
    // No address is set by default, so none is shown.
    await expect(page.getByTestId('support-contact')).toHaveCount(0);

    const admin = await support.newPage();
    await admin.goto('/admin-login');
    await fillSignIn(admin, server.admin.email, server.admin.password);
    await expect(admin).toHaveURL(/\/admin\/dashboard$/);
    await admin.goto('/admin/settings');

    // Durations are typed in the unit they are shown in and travel in seconds.
    const codes = admin.getByTestId('accounts-settings');
    const lifetime = codes.getByLabel('E-mailed code and link lifetime (minutes)');
    await expect(lifetime).toHaveValue('15');
    await expect(codes).toContainText('Default: 15 minutes.');
    await lifetime.fill('30');
    const savedCodes = admin.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/settings');
    await codes.getByRole('button', { name: 'Save' }).click();
    const codesAnswer = await savedCodes;
    expect(codesAnswer.status()).toBe(200);
    expect((await codesAnswer.json()).settings.otp_lifetime_seconds).toBe(1800);
    await expect(lifetime).toHaveValue('30');

    const site = admin.getByTestId('site-settings');
    const address = site.getByLabel('Support e-mail (e-mail address, or empty for none)');
    await address.fill('not an address');
    await site.getByRole('button', { name: 'Save' }).click();
    await expect(site.getByText('Support e-mail must be an e-mail address')).toBeVisible();
    await site.getByLabel('Site name (text)').fill('Acme Academy');
    await address.fill('help@acme.example');
    const savedSite = admin.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/settings');
    await site.getByRole('button', { name: 'Save' }).click();
    expect((await savedSite).status()).toBe(200);
    await expect(address).toHaveValue('help@acme.example');

    await page.reload();
    const contact = page.getByTestId('support-contact');
    await expect(contact).toHaveText('You can also write to Acme Academy support at help@acme.example.');
    await expect(contact.getByRole('link', { name: 'help@acme.example' })).toHaveAttribute(
      'href',
      'mailto:help@acme.example',
    );
  } finally {
    await support.close();
    await phone.close();
  }
});
