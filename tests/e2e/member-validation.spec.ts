import { expect, type Locator, type Page, test } from '@playwright/test';
import { AUTH, DIALOG } from '../../src/shared/messages.ts';
import { fillSignIn, type Member, newMember, registerByApi } from './helpers.ts';

// What a member sees when a form is refused: the schema's messages before any request, the server's
// conflict on the field it concerns, and the Error dialog (spec 2 "Dialogs") for a wrong password.
// Two registrations (one member, one refused attempt) and four failed sign-ins on that member's e-mail.

let existing: Member;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  existing = newMember('existing');
  await registerByApi(request, existing);
  await request.dispose();
});

/** Records every POST to the registration call the page makes. */
function watchRegisterPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/auth/register')
      posts.push(request.url());
  });
  return posts;
}

const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });

test.describe('registration form', () => {
  test('shows the schema’s messages on each field before any request is made', async ({ page }) => {
    const posts = watchRegisterPosts(page);
    await page.goto('/registration');
    await field(page, 'Username').fill('ab');
    await field(page, 'Email').fill('not-an-email');
    await field(page, 'Phone').fill('12');
    await field(page, 'Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();

    const expected: [string, string][] = [
      ['Full name', AUTH.fullnameRequired],
      ['Username', AUTH.usernameInvalid],
      ['Email', AUTH.emailInvalid],
      ['Phone', AUTH.phoneInvalid],
      ['Password', AUTH.passwordTooShort],
    ];
    for (const [label, message] of expected) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
      await expect(field(page, label)).toHaveAttribute('aria-invalid', 'true');
      await expect(field(page, label)).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
    }
    // The optional referral box is not in error.
    await expect(field(page, 'Referral code (optional)')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/registration$/);
    expect(posts).toEqual([]);

    // Correcting a field clears its message on the next try, still without a request while others are wrong.
    await field(page, 'Full name').fill('Jane Example');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(AUTH.fullnameRequired)).toHaveCount(0);
    await expect(page.getByText(AUTH.passwordTooShort)).toBeVisible();
    expect(posts).toEqual([]);
  });

  test('an empty e-mail and password say they are required', async ({ page }) => {
    const posts = watchRegisterPosts(page);
    await page.goto('/registration');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(field(page, 'Email')).toHaveAccessibleDescription(AUTH.emailRequired);
    await expect(field(page, 'Password')).toHaveAccessibleDescription(
      new RegExp(`^${AUTH.passwordRequired}`),
    );
    // The first problem of a field is the one shown, not the checks that follow it.
    await expect(page.getByText(AUTH.emailInvalid)).toHaveCount(0);
    await expect(page.getByText(AUTH.passwordTooShort)).toHaveCount(0);
    expect(posts).toEqual([]);
  });

  test('a taken e-mail shows the server’s message on the e-mail field', async ({ page }) => {
    const posts = watchRegisterPosts(page);
    const other = newMember('taken');
    await page.goto('/registration');
    await field(page, 'Full name').fill(other.fullname);
    await field(page, 'Username').fill(other.username);
    await field(page, 'Email').fill(existing.email);
    await field(page, 'Phone').fill(other.phone);
    await field(page, 'Password').fill(other.password);
    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/auth/register',
    );
    await page.getByRole('button', { name: 'Create account' }).click();
    expect((await answer).status()).toBe(409);
    expect(posts).toHaveLength(1);

    const dialog = page.getByRole('dialog', { name: DIALOG.errorTitle });
    await expect(dialog).toContainText(AUTH.emailTaken);
    await dialog.getByRole('button', { name: DIALOG.close, exact: true }).click();
    await expect(dialog).toBeHidden();

    await expect(field(page, 'Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'Email')).toHaveAccessibleDescription(AUTH.emailTaken);
    await expect(field(page, 'Username')).not.toHaveAttribute('aria-invalid', 'true');
    // Nothing typed is lost.
    await expect(field(page, 'Full name')).toHaveValue(other.fullname);
    await expect(page).toHaveURL(/\/registration$/);
  });
});

test('an empty sign-in form says what is missing without asking the server', async ({ page }) => {
  const signIns: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/auth/signin') signIns.push(request.url());
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription(AUTH.emailRequired);
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription(AUTH.passwordRequired);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(signIns).toEqual([]);
});

test.describe('the Error dialog after a wrong password', () => {
  async function failSignIn(page: Page): Promise<Locator> {
    await fillSignIn(page, existing.email, `${existing.password}-wrong`);
    const dialog = page.getByRole('dialog', { name: DIALOG.errorTitle });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  test('shows the title, the heading and the server’s text, and Close closes it', async ({ page }) => {
    await page.goto('/login');
    const dialog = await failSignIn(page);
    await expect(dialog.getByRole('heading', { name: DIALOG.errorTitle, exact: true })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: DIALOG.errorHeading })).toBeVisible();
    await expect(dialog.getByRole('alert')).toHaveText(AUTH.invalidCredentials);

    await dialog.getByRole('button', { name: DIALOG.close, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/login$/);
    // The form is usable again and still holds the e-mail.
    await expect(page.getByLabel('Email')).toHaveValue(existing.email);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  const otherWays: [string, (page: Page, dialog: Locator) => Promise<void>][] = [
    ['the close icon', (_page, dialog) => dialog.getByRole('button', { name: 'Close dialog' }).click()],
    ['Escape', (page) => page.keyboard.press('Escape')],
    ['a click outside', (page) => page.mouse.click(5, 5)],
  ];

  test('closes by the close icon, by Escape and by a click outside', async ({ page }) => {
    await page.goto('/login');
    for (const [way, close] of otherWays) {
      await test.step(way, async () => {
        const dialog = await failSignIn(page);
        await close(page, dialog);
        await expect(dialog).toBeHidden();
        await expect(page.getByRole('heading', { name: 'Member login' })).toBeVisible();
      });
    }
    await expect(page).toHaveURL(/\/login$/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
