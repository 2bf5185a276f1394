import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { UPLOADS } from '../../src/shared/messages.ts';
import { NOTIFICATION_MESSAGES } from '../../src/shared/notifications.ts';
import { fillSignIn, type Member, newMember, registerByApi } from './helpers.ts';

// The admin's notification screens on a desktop (spec 2 "Admin Create Notification" and "Admin
// notification list", spec 5 validation, spec 8 messages): the form's checks before anything is
// sent, All Users clearing the chosen users, a refused banner, and the list with its delete.

test.describe.configure({ mode: 'serial' });

let member: Member;
test.beforeAll(async ({ playwright }, testInfo) => {
  const visitor = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  member = newMember('notified');
  await registerByApi(visitor, member);
  await visitor.dispose();
});

async function signInAdmin(page: Page) {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test('the create form checks its fields with the spec messages before sending', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/v1/notifications'))
      posts.push(request.url());
  });
  await signInAdmin(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Notifications' }).click();
  await expect(
    page.getByRole('heading', { name: NOTIFICATION_MESSAGES.createTitle, level: 1 }),
  ).toBeVisible();

  await page.getByLabel('Type').selectOption('');
  await page.getByRole('button', { name: NOTIFICATION_MESSAGES.submit }).click();
  await expect(page.getByLabel('Title')).toHaveAccessibleDescription(NOTIFICATION_MESSAGES.titleRequired);
  await expect(page.getByLabel('Message')).toHaveAccessibleDescription(NOTIFICATION_MESSAGES.messageRequired);
  await expect(page.getByLabel('Type')).toHaveAccessibleDescription(NOTIFICATION_MESSAGES.typeRequired);

  await page.getByLabel('Title').fill('Chosen ones');
  await page.getByLabel('Message').fill('Hello');
  await page.getByLabel('Type').selectOption('notification');
  await page.getByLabel(NOTIFICATION_MESSAGES.allUsers).uncheck();
  await page.getByRole('button', { name: NOTIFICATION_MESSAGES.submit }).click();
  await expect(page.getByLabel(NOTIFICATION_MESSAGES.searchUsers)).toHaveAccessibleDescription(
    NOTIFICATION_MESSAGES.recipientsRequired,
  );
  expect(posts).toEqual([]);

  await test.step('choosing All Users clears the chosen users', async () => {
    await page.getByLabel(NOTIFICATION_MESSAGES.searchUsers).fill(member.email.toUpperCase());
    await page
      .getByRole('list', { name: 'Search results' })
      .getByRole('checkbox', { name: new RegExp(member.email.replace(/\./g, '\\.')) })
      .check();
    const chosen = page.getByRole('list', { name: NOTIFICATION_MESSAGES.selectedUsers });
    await expect(chosen.getByRole('listitem')).toHaveCount(1);
    await page.getByLabel(NOTIFICATION_MESSAGES.allUsers).check();
    await expect(page.getByLabel(NOTIFICATION_MESSAGES.searchUsers)).toHaveCount(0);
    await page.getByLabel(NOTIFICATION_MESSAGES.allUsers).uncheck();
    await expect(page.getByText(NOTIFICATION_MESSAGES.noSelectedUsers)).toBeVisible();
  });

  await test.step('a search that matches nobody says so', async () => {
    await page.getByLabel(NOTIFICATION_MESSAGES.searchUsers).fill('nobody-has-this-address');
    await expect(page.getByText(NOTIFICATION_MESSAGES.noUsersFound)).toBeVisible();
  });
  expect(posts).toEqual([]);
});

test('a banner that is not an image is refused with the server message', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin/notifications');
  await page.getByLabel(NOTIFICATION_MESSAGES.banner).setInputFiles({
    name: 'banner.png',
    mimeType: 'image/png',
    buffer: Buffer.from('this is text, not a picture'),
  });
  const dialog = page.getByRole('dialog', { name: 'Error' });
  await expect(dialog).toContainText(UPLOADS.notAnImage);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
});

test('the list shows every notification and deletes one after confirmation', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin/notifications');
  const title = `List check ${Date.now()}`;
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Message').fill('To be deleted');
  await page.getByLabel('Type').selectOption('site_popup');
  await page.getByRole('button', { name: NOTIFICATION_MESSAGES.submit }).click();
  await page.getByRole('dialog', { name: 'Successful' }).getByRole('button', { name: 'Go back' }).click();

  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Notification list' })
    .click();
  await expect(page).toHaveURL(/\/admin\/notification\/list$/);
  const table = page.getByTestId('admin-notifications');
  await expect(table.locator('thead th')).toHaveText([
    '#',
    'Title',
    'Message',
    'All User',
    'Type',
    'Actions',
  ]);
  const row = table.locator('tbody tr').first();
  await expect(row.locator('td')).toHaveText(['1', title, 'To be deleted', 'True', 'site_popup', 'Delete']);

  await row.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete' });
  await expect(confirm).toContainText('Are you sure you want to delete this item?');
  await confirm.getByRole('button', { name: 'Go back' }).click();
  await expect(table.getByText(title)).toBeVisible();

  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  const done = page.getByRole('dialog', { name: 'Successful' });
  await expect(done).toContainText(NOTIFICATION_MESSAGES.deleted);
  await done.getByRole('button', { name: 'Go back' }).click();
  await expect(page.getByText(title)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(title)).toHaveCount(0);
});
