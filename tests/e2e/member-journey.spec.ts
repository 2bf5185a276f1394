import { expect, test } from '@playwright/test';
import { SIGN_IN_TEXT } from '../../src/shared/auth.ts';
import { AUTH, DIALOG } from '../../src/shared/messages.ts';
import { newMember, persistedQueries, referralCodeOf, registerByApi } from './helpers.ts';

// A visitor follows a member's referral link, registers, signs in, shares their own link and signs out,
// on a phone. Two registrations: the sponsor (through the API) and the visitor (through the form).

test('a referred visitor registers, signs in, copies their link and signs out', async ({
  page,
  context,
  request,
}) => {
  // The sponsor registered first; their code comes from their own sign-in, in a separate API context.
  const sponsor = newMember('sponsor');
  await registerByApi(request, sponsor);
  const sponsorCode = await referralCodeOf(request, sponsor);
  expect(sponsorCode).toMatch(/^[A-Za-z0-9]{6,12}$/);

  const visitor = newMember('visitor');

  await test.step('the referral link opens the form with the code filled in', async () => {
    await page.goto(`/registration?ref=${sponsorCode}`);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page.getByLabel('Referral code (optional)')).toHaveValue(sponsorCode);
  });

  await test.step('registering shows the Success dialog whose Sign in leads to the filled-in form', async () => {
    await page.getByLabel('Full name').fill(visitor.fullname);
    await page.getByLabel('Username').fill(visitor.username);
    await page.getByLabel('Email').fill(visitor.email);
    await page.getByLabel('Phone').fill(visitor.phone);
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    const dialog = page.getByRole('dialog', { name: DIALOG.successTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(AUTH.registered);
    await expect(dialog.getByRole('button', { name: 'Close dialog' })).toBeVisible();
    await dialog.getByRole('button', { name: SIGN_IN_TEXT.signIn }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Member login' })).toBeVisible();
    // The e-mail the account was made with is filled in (and kept out of the address bar).
    await expect(page.getByLabel('Email')).toHaveValue(visitor.email);
    await expect(page.getByLabel('Password')).toHaveValue('');
    expect(page.url()).not.toContain('example.com');
  });

  await test.step('signing in lands on the dashboard with the bottom navigation', async () => {
    await page.getByLabel('Password').fill(visitor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/user\/dashboard$/);

    const nav = page.getByRole('navigation', { name: 'Member' });
    await expect(nav).toBeVisible();
    await expect(nav).toBeInViewport();
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.locator('.bottom-nav-item')).toHaveText([
      /Home/,
      /Transfer/,
      /Add money/,
      /Support/,
      /More/,
    ]);
    // Sign out is not a tab: it waits in the More sheet.
    await expect(nav.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

    await expect(page.getByRole('heading', { name: `Welcome, ${visitor.fullname}` })).toBeVisible();
    await expect(page.getByTestId('member-name')).toHaveText(visitor.fullname);
    // Blocked or not is not the member's to read: a blocked member is signed out at once.
    await expect(page.getByRole('main')).not.toContainText(/unblocked/i);
    await expect(page.getByTestId('activation-status')).toHaveText('Not activated yet');
  });

  const ownCode = await test.step('the dashboard shows the member’s own referral code and link', async () => {
    const code = (await page.getByTestId('referral-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[A-Za-z0-9]{6,12}$/);
    expect(code).not.toBe(sponsorCode);
    const origin = new URL(page.url()).origin;
    await expect(page.getByRole('textbox', { name: 'Referral link' })).toHaveValue(
      `${origin}/registration?ref=${code}`,
    );
    return code;
  });

  await test.step('Copy link puts the link on the clipboard and says Copied!', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`/registration?ref=${ownCode}`);
    expect(copied).toBe(await page.getByRole('textbox', { name: 'Referral link' }).inputValue());
    // The label goes back by itself (spec 9: "Copied!" for 2 s).
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  });

  await test.step('the browser keeps only the session slices under "root", with the member in it', async () => {
    await expect.poll(async () => JSON.stringify(await persistedQueries(page))).toContain(visitor.email);
    const queries = (await persistedQueries(page)) ?? [];
    const keys = queries.map((q) => q.queryKey[0]);
    expect(keys).toContain('auth');
    for (const key of keys) expect(['auth', 'admin']).toContain(key);
    const auth = queries.find((q) => q.queryKey[0] === 'auth')?.state.data as {
      auth: { email: string; reffer_by: string | null };
      expireAt: string;
    };
    expect(auth.auth.email).toBe(visitor.email);
    // The code from the link was used: the visitor joined under the sponsor.
    expect(auth.auth.reffer_by).toBe(sponsorCode);
    expect(Date.parse(auth.expireAt)).toBeGreaterThan(Date.now());
  });

  await test.step('a reload keeps the member signed in', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: `Welcome, ${visitor.fullname}` })).toBeVisible();
  });

  await test.step('signing out from the More sheet says so on sign-in and forgets the member', async () => {
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    const more = page.getByRole('dialog', { name: 'More' });
    await expect(more).toBeVisible();
    await more.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(page.getByRole('heading', { name: 'Member login' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: SIGN_IN_TEXT.signedOut })).toBeVisible();
    await expect.poll(async () => JSON.stringify(await persistedQueries(page))).not.toContain(visitor.email);

    await page.goto('/user/dashboard');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await expect(page.getByRole('heading', { name: 'Member login' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Member' })).toHaveCount(0);
  });
});
