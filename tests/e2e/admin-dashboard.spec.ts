import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { SIGN_IN_TEXT } from '../../src/shared/auth.ts';
import { AUTH, DIALOG, GENERIC, SESSION } from '../../src/shared/messages.ts';
import { fillSignIn, newMember, persistedQueries, registerByApi } from './helpers.ts';

// The admin area on a desktop screen: its guard, the side navigation, the member counts and sign-out.
// Two registrations: one counted on the dashboard, one member who tries the admin sign-in.

const COUNTS = ['total', 'active', 'inactive', 'blocked', 'joinedToday'] as const;

async function readCount(page: Page, key: (typeof COUNTS)[number]): Promise<number> {
  const value = page.getByTestId(`count-${key}`).getByRole('definition');
  await expect(value).toHaveText(/^\d+$/);
  return Number(await value.textContent());
}

async function signInAdmin(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/** Spec 3 and 9: localStorage "root" never holds the admin (only a member's `auth` is kept there). */
async function expectNoAdminStored(page: Page): Promise<void> {
  const stored = await page.evaluate(() => window.localStorage.getItem('root'));
  expect(stored ?? '').not.toContain(E2E_ADMIN.email);
  for (const query of (await persistedQueries(page)) ?? []) expect(query.queryKey[0]).toBe('auth');
}

test('a signed-out visitor is sent to the admin sign-in and returns to the dashboard after', async ({
  page,
}) => {
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin-login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toContain('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Admin login' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);

  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The member's bottom navigation belongs to the phone layout only.
  await expect(page.getByRole('navigation', { name: 'Member' })).toHaveCount(0);
});

test('the member counts are numbers and the total grows when a member registers', async ({ page }) => {
  await signInAdmin(page);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Members', level: 2 })).toBeVisible();
  const before: Record<string, number> = {};
  for (const key of COUNTS) before[key] = await readCount(page, key);
  // Every member is either active or inactive.
  expect(before.total).toBe((before.active ?? 0) + (before.inactive ?? 0));

  // Registered through the API in this browser's own request context (its cookies, the CSRF dance).
  await registerByApi(page.request, newMember('counted'));
  await page.reload();

  await expect(page.getByTestId('count-total').getByRole('definition')).toHaveText(
    String((before.total ?? 0) + 1),
  );
  // A new member has bought no plan yet: inactive.
  await expect(page.getByTestId('count-inactive').getByRole('definition')).toHaveText(
    String((before.inactive ?? 0) + 1),
  );
  await expect(page.getByTestId('count-active').getByRole('definition')).toHaveText(String(before.active));
  await expect(page.getByTestId('count-blocked').getByRole('definition')).toHaveText(String(before.blocked));
  // Still the admin after the registration call shared the browser's cookies.
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
});

test('member credentials at the admin sign-in get the Error dialog', async ({ page, request }) => {
  const member = newMember('notadmin');
  await registerByApi(request, member);

  await page.goto('/admin-login');
  await fillSignIn(page, member.email, member.password);
  const dialog = page.getByRole('dialog', { name: DIALOG.errorTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: DIALOG.errorHeading })).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveText(AUTH.invalidCredentials);
  await dialog.getByRole('button', { name: DIALOG.close, exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/admin-login$/);

  // The member's password is right for the member sign-in: only the area was wrong.
  await page.goto('/login');
  await fillSignIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
});

test('a signed-in admin opening the member area is sent to the unauthorized page', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/user/dashboard');
  await expect(page).toHaveURL(/\/unauthorized$/);
  await expect(page.getByRole('heading', { name: SESSION.unauthorizedTitle })).toBeVisible();
});

test('signing out returns to the admin sign-in and closes the admin area', async ({ page }) => {
  await signInAdmin(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin-login(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Admin login' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: SIGN_IN_TEXT.signedOut })).toBeVisible();

  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin-login\?redirect=/);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
});

test('after a reload the admin is still signed in, restored from the server, with nothing stored', async ({
  page,
}) => {
  await signInAdmin(page);
  await expectNoAdminStored(page);

  await page.reload();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByTestId('admin-name')).not.toBeEmpty();
  await expect(page.getByTestId('count-total').getByRole('definition')).toHaveText(/^\d+$/);
  await expectNoAdminStored(page);

  // A deep link opened in a new page load passes the guard too, and the admin sign-in page moves on.
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/admin\/users(\?|$)/);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  await page.goto('/admin-login');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('the admin is signed out by the app once adminExpireAt passes', async ({ page }) => {
  await page.clock.install();
  await signInAdmin(page);

  // An admin session lasts 8 hours; the laptop wakes up 9 hours later.
  await page.clock.fastForward('09:00:00');

  await expect(page).toHaveURL(/\/admin-login(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Admin login' })).toBeVisible();
  await expect(page.getByText(AUTH.sessionExpired)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);

  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin-login\?redirect=/);
});

test.describe('no answer from the server', () => {
  // The service worker would make the request itself, out of page.route's reach.
  test.use({ serviceWorkers: 'block' });

  test('an admin screen says the server did not answer, never the browser’s "Failed to fetch"', async ({
    page,
  }) => {
    await signInAdmin(page);
    await page.route('**/api/v1/users/counts', (route) => route.abort('internetdisconnected'));
    await page.reload();
    const error = page.getByRole('alert').filter({ hasText: GENERIC.noAnswer });
    await expect(error).toBeVisible();
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);

    await page.unroute('**/api/v1/users/counts');
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByTestId('count-total').getByRole('definition')).toHaveText(/^\d+$/);
  });
});
