import { expect, type Page, test } from '@playwright/test';
import { DIALOG } from '../../src/shared/messages.ts';
import { TWO_FACTOR, TWO_FACTOR_TEXT } from '../../src/shared/two-factor.ts';
import { Authenticator } from './authenticator.ts';
import { fillSignIn, newMember, registerByApi, signInByApi, signInMember, signOutMember } from './helpers.ts';

// Issue 14 item 4 on a phone: a member turns two-factor sign-in on from the profile (the key shown for
// manual entry, which the QR code also carries), signs in with password then code, signs in once with
// a recovery code (a second time it is refused), and turns it off with a current code. Codes are
// computed here from the secret, as an authenticator app would.

const card = (page: Page) =>
  page.locator('section', { has: page.getByRole('heading', { name: TWO_FACTOR_TEXT.title, exact: true }) });

async function signInWithCode(page: Page, email: string, password: string, code: string, recovery = false) {
  await page.goto('/login');
  await fillSignIn(page, email, password);
  await expect(page.getByRole('heading', { name: TWO_FACTOR_TEXT.codeStep })).toBeVisible();
  if (recovery) await page.getByRole('button', { name: TWO_FACTOR_TEXT.useRecovery }).click();
  await page.getByLabel(recovery ? TWO_FACTOR_TEXT.recoveryCode : TWO_FACTOR_TEXT.confirmCode).fill(code);
  await page.getByRole('button', { name: TWO_FACTOR_TEXT.verify }).click();
}

test('a member turns on two-factor sign-in, signs in with a code and a recovery code, and turns it off', async ({
  page,
  playwright,
  baseURL,
}) => {
  // One wait for the authenticator's next step at most (30 s) comes on top of the usual steps.
  test.setTimeout(120_000);
  const member = newMember('totp');
  const api = await playwright.request.newContext({ baseURL });
  let memberId = '';
  try {
    await registerByApi(api, member);
    memberId = await signInByApi(api, member);
  } finally {
    await api.dispose();
  }
  let app: Authenticator | undefined;
  let recoveryCodes: string[] = [];

  await page.setViewportSize({ width: 360, height: 780 });
  await test.step('the profile, reached through "More", offers two-factor sign-in', async () => {
    await signInMember(page, member);
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(new RegExp(`/user/profile/${memberId}$`));
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
    await expect(card(page).getByTestId('two-factor-status')).toHaveText(TWO_FACTOR_TEXT.off);
  });

  await test.step('turning on shows a QR code and the key; a code from it confirms; ten recovery codes show once', async () => {
    await card(page).getByRole('button', { name: TWO_FACTOR_TEXT.start }).click();
    const secret = (await card(page).getByTestId('two-factor-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qr = card(page).getByRole('img', { name: 'QR code for your authenticator app' });
    await expect(qr).toBeVisible();
    const uri = new URL((await qr.getAttribute('data-otpauth-uri')) ?? '');
    expect(uri.searchParams.get('secret')).toBe(secret);
    // The set-up fits a 360 px phone: nothing wider than the screen, every control 44 px high or more.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const control of await card(page).locator('button:visible, input:visible').all())
      expect((await control.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);

    app = new Authenticator(secret);
    await card(page).getByLabel(TWO_FACTOR_TEXT.confirmCode).fill('12');
    await card(page).getByRole('button', { name: TWO_FACTOR_TEXT.confirm }).click();
    await expect(card(page).getByText(TWO_FACTOR.totpFormat)).toBeVisible();
    await card(page)
      .getByLabel(TWO_FACTOR_TEXT.confirmCode)
      .fill(await app.next(page));
    await card(page).getByRole('button', { name: TWO_FACTOR_TEXT.confirm }).click();

    const list = card(page).getByTestId('recovery-codes').getByRole('listitem');
    await expect(list).toHaveCount(10);
    recoveryCodes = (await list.allTextContents()).map((code) => code.trim());
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    await card(page).getByRole('button', { name: TWO_FACTOR_TEXT.done }).click();
    await expect(card(page).getByTestId('recovery-codes')).toHaveCount(0);
    await expect(card(page).getByTestId('two-factor-status')).toHaveText(TWO_FACTOR_TEXT.on);
    await expect(card(page).getByText(TWO_FACTOR_TEXT.recoveryLeft(10))).toBeVisible();
  });

  await test.step('signing in asks for the code after the password', async () => {
    if (!app) throw new Error('two-factor sign-in was not set up');
    await signOutMember(page);
    await signInWithCode(page, member.email, member.password, await app.next(page));
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await expect(page.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
  });

  await test.step('a recovery code signs in once', async () => {
    const [first = '', second = ''] = recoveryCodes;
    await signOutMember(page);
    await signInWithCode(page, member.email, member.password, first, true);
    await expect(page).toHaveURL(/\/user\/dashboard$/);

    await signOutMember(page);
    await signInWithCode(page, member.email, member.password, first, true);
    const error = page.getByRole('dialog', { name: DIALOG.errorTitle });
    await expect(error.getByText(TWO_FACTOR.codeWrong)).toBeVisible();
    await error.getByRole('button', { name: DIALOG.close, exact: true }).click();
    await page.getByLabel(TWO_FACTOR_TEXT.recoveryCode).fill(second);
    await page.getByRole('button', { name: TWO_FACTOR_TEXT.verify }).click();
    await expect(page).toHaveURL(/\/user\/dashboard$/);
  });

  await test.step('turning off takes a current code; then the password alone signs in', async () => {
    if (!app) throw new Error('two-factor sign-in was not set up');
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(new RegExp(`/user/profile/${memberId}$`));
    await expect(card(page).getByText(TWO_FACTOR_TEXT.recoveryLeft(8))).toBeVisible();
    await card(page)
      .getByLabel(TWO_FACTOR_TEXT.turnOffCode)
      .fill(await app.next(page));
    await card(page).getByRole('button', { name: TWO_FACTOR_TEXT.turnOff }).click();
    await expect(card(page).getByTestId('two-factor-status')).toHaveText(TWO_FACTOR_TEXT.off);
    await expect(card(page).getByRole('button', { name: TWO_FACTOR_TEXT.start })).toBeVisible();
    await signOutMember(page);
    await signInMember(page, member);
  });
});

test('another member’s profile shows the not-found view', async ({ page, playwright, baseURL }) => {
  const member = newMember('totpother');
  const other = newMember('totpother');
  const api = await playwright.request.newContext({ baseURL });
  let otherId = '';
  try {
    await registerByApi(api, member);
    await registerByApi(api, other);
    otherId = await signInByApi(api, other);
  } finally {
    await api.dispose();
  }
  await signInMember(page, member);
  await page.goto(`/user/profile/${otherId}`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: TWO_FACTOR_TEXT.title })).toHaveCount(0);
});
