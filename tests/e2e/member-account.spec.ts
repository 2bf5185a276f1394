import { expect, test } from '@playwright/test';
import { ACCOUNT, ACCOUNT_TEXT } from '../../src/shared/account.ts';
import { AUTH } from '../../src/shared/messages.ts';
import {
  csrfHeaders,
  expectTapTarget,
  fillSignIn,
  mailText,
  newMember,
  nextClientAddress,
  registerByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';

// Issue 14 on a phone: a forgotten password reset through the e-mailed link, and e-mail verification
// with the e-mailed code. The server of the run sends its mails over SMTP to the run's relay
// (tests/e2e/mail-sink.ts); the test reads them from there, as the member would from their inbox.

test('a member who forgot the password sets a new one from the e-mailed link', async ({
  page,
  playwright,
}) => {
  const member = newMember('forgot');
  const api = await playwright.request.newContext();
  const otherDevice = await playwright.request.newContext();
  try {
    await registerByApi(api, member);
    await signInByApi(otherDevice, member);

    await test.step('"Forgot password?" on /login opens the forgot screen', async () => {
      await page.goto('/login');
      const link = page.getByRole('link', { name: ACCOUNT_TEXT.forgotLink });
      await expectTapTarget(link);
      await link.click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      await expect(page.getByRole('heading', { name: ACCOUNT_TEXT.forgotTitle })).toBeVisible();
    });

    await test.step('asking for a link gives the same answer as for any address', async () => {
      await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': nextClientAddress() });
      await page.getByLabel('Email').fill(member.email);
      const send = page.getByRole('button', { name: ACCOUNT_TEXT.sendLink });
      await expectTapTarget(send);
      await send.click();
      await expect(page.getByRole('status')).toHaveText(ACCOUNT.resetRequested);
    });

    const text = await mailText(api, member.email, /reset-password\?token=/);
    const path = /\/reset-password\?token=\S+/.exec(text)?.[0] ?? '';
    const newPassword = `${member.password}-new`;

    await test.step('the link opens the reset screen, which checks the password like registration', async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: ACCOUNT_TEXT.resetTitle })).toBeVisible();
      await page.getByLabel(ACCOUNT_TEXT.newPassword).fill('short');
      await page.getByRole('button', { name: ACCOUNT_TEXT.savePassword }).click();
      await expect(page.getByText(AUTH.passwordTooShort)).toBeVisible();
      await page.getByLabel(ACCOUNT_TEXT.newPassword).fill(newPassword);
      const save = page.getByRole('button', { name: ACCOUNT_TEXT.savePassword });
      await expectTapTarget(save);
      await save.click();
      await expect(page.getByRole('status')).toHaveText('Password changed successfully');
    });

    await test.step('the other device is signed out, and the new password signs in', async () => {
      expect((await otherDevice.get('/api/v1/auth/session')).status()).toBe(401);
      await page.getByRole('link', { name: ACCOUNT_TEXT.backToSignIn }).click();
      await expect(page).toHaveURL(/\/login$/);
      await fillSignIn(page, member.email, newPassword);
      await expect(page).toHaveURL(/\/user\/dashboard$/);
    });

    await test.step('the link works only once', async () => {
      const response = await otherDevice.post('/api/v1/pass/reset', {
        headers: await csrfHeaders(otherDevice),
        data: { token: decodeURIComponent(path.split('token=')[1] ?? ''), password: `${newPassword}-2` },
      });
      expect(response.status()).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(ACCOUNT.resetLinkUsed);
    });
  } finally {
    await api.dispose();
    await otherDevice.dispose();
  }
});

test('a member verifies the e-mail address with the mailed code from the dashboard', async ({
  page,
  playwright,
}) => {
  const member = newMember('verify');
  const api = await playwright.request.newContext();
  try {
    await registerByApi(api, member);
    await signInMember(page, member);

    const card = page.getByRole('region', { name: ACCOUNT_TEXT.verifyTitle });
    await expect(card.getByTestId('email-status')).toHaveText(ACCOUNT_TEXT.notVerified);
    const send = card.getByRole('button', { name: ACCOUNT_TEXT.sendCode });
    await expectTapTarget(send);
    await send.click();
    await expect(card.getByRole('button', { name: ACCOUNT_TEXT.sendCodeAgain })).toBeVisible();

    const text = await mailText(api, member.email, /\b\d{6}\b/);
    const code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    await card.getByLabel(ACCOUNT_TEXT.code).fill(code);
    const verify = card.getByRole('button', { name: ACCOUNT_TEXT.verify });
    await expectTapTarget(verify);
    await verify.click();
    await expect(card.getByTestId('email-status')).toHaveText(ACCOUNT_TEXT.verified);
    await expect(card.getByRole('button', { name: ACCOUNT_TEXT.sendCodeAgain })).toHaveCount(0);
  } finally {
    await api.dispose();
  }
});
