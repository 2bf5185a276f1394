import { expect, test } from '@playwright/test';
import { ACCOUNT, ACCOUNT_TEXT } from '../../src/shared/account.ts';
import { AUTH, DIALOG } from '../../src/shared/messages.ts';
import {
  fillSignIn,
  mailText,
  newMember,
  registerByApi,
  signInByApi,
  signInMember,
  signOutMember,
} from './helpers.ts';

// A member changes their password from the profile's Password card on a phone: a wrong current
// password and a weak new one are refused on their fields; the change signs out the member's other
// device, keeps this one, and mails them; the new password signs in, the old one no longer does.

test('a member changes their password from the profile, and their other device is signed out', async ({
  page,
  playwright,
  baseURL,
}) => {
  const member = newMember('pwd');
  await registerByApi(page.request, member);
  const otherDevice = await playwright.request.newContext({ baseURL });
  try {
    await signInByApi(otherDevice, member);
    await signInMember(page, member);
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: 'Profile' }).click();
    const card = page.getByRole('region', { name: ACCOUNT_TEXT.changeTitle });
    await expect(card).toBeVisible();
    const current = card.getByLabel(ACCOUNT_TEXT.currentPassword);
    const next = card.getByLabel(ACCOUNT_TEXT.newPassword);
    const save = card.getByRole('button', { name: ACCOUNT_TEXT.changePassword });

    // A short new password is refused on the form, before anything is sent.
    await current.fill(member.password);
    await next.fill('short');
    await save.click();
    await expect(next).toHaveAccessibleDescription(AUTH.passwordTooShort);

    // A wrong current password is refused by the server, on its field.
    const newPassword = `Amber-Lighthouse-${Date.now().toString(36)}`;
    await current.fill(`${member.password}-not`);
    await next.fill(newPassword);
    await save.click();
    await expect(current).toHaveAccessibleDescription(ACCOUNT.currentPasswordWrong);
    const dialog = page.getByRole('dialog', { name: DIALOG.errorTitle });
    await dialog.getByRole('button', { name: DIALOG.close, exact: true }).click();
    await expect(dialog).toBeHidden();

    await current.fill(member.password);
    await save.click();
    await expect(card.getByRole('status')).toHaveText(ACCOUNT_TEXT.changed);
    await expect(current).toHaveValue('');
    await expect(page.getByRole('region', { name: 'Signed-in devices' })).toContainText(
      'No other device is signed in.',
    );
    expect((await otherDevice.get('/api/v1/auth/session')).status()).toBe(401);
    const mail = await mailText(page.request, member.email, /password of your account was changed/);
    expect(mail).toContain('/forgot-password');

    // This device is still signed in; after signing out, only the new password opens the account.
    await page.reload();
    await expect(card).toBeVisible();
    await signOutMember(page);
    await fillSignIn(page, member.email, member.password);
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await signInMember(page, { ...member, password: newPassword });
  } finally {
    await otherDevice.dispose();
  }
});
