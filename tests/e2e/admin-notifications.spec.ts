import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { UPLOADS } from '../../src/shared/messages.ts';
import { MONEY_NOTIFICATIONS, NOTIFICATION_MESSAGES } from '../../src/shared/notifications.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
} from './helpers.ts';

// The admin's notification screens on a desktop (spec 2 "Admin Create Notification" and "Admin
// notification list", spec 5 validation, spec 8 messages): the form's checks before anything is
// sent, All Users clearing the chosen users, a refused banner, and the list with its delete.
// Issue 22 item 3: the list keeps admins' broadcasts apart from the app's own notifications to one
// member, names the recipients, and fits a 1366 px laptop with no word broken.

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
  // The spec's columns (Title and Type sort: their headers carry the sort mark), and Recipients.
  await expect(table.locator('thead th')).toHaveText([
    '#',
    /^Title/,
    'Message',
    'All User',
    'Recipients',
    /^Type/,
    'Actions',
  ]);
  const row = table.locator('tbody tr').first();
  await expect(row.locator('td')).toHaveText([
    '1',
    title,
    'To be deleted',
    'True',
    NOTIFICATION_MESSAGES.recipientsAll,
    'site_popup',
    'Delete',
  ]);

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

/** Words (runs without spaces) in the element's cells that the browser laid out over two lines. */
const brokenWords = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((table) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });

/** The table's own box (DataTable's scroll container): what does not fit would scroll inside it. */
const overflowOf = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator('.table-scroll')
    .evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));

test('broadcasts and the app’s own notifications are two tables that fit 1366 px, recipients named', async ({
  page,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const reader = newMember('reader');
  const adminRequest = await playwright.request.newContext({ baseURL });
  await registerByApi(adminRequest, reader);
  await signInAdminByApi(adminRequest);
  const readerId = await memberIdOf(adminRequest, reader.email);
  // A system notification ("Balance adjusted by support") for the reader, and a long broadcast to them.
  await creditByApi(adminRequest, readerId, '1234.56', 'working');
  const title = `Quarterly statement notification ${Date.now()}`;
  const created = await adminRequest.post('/api/v1/notifications', {
    headers: await csrfHeaders(adminRequest),
    data: {
      title,
      message:
        'Your quarterly statement is ready. Notifications about deposits, transfers and adjustments ' +
        'are listed on your notification screen; contact support about anything unexpected.',
      users: false,
      type: 'notification',
      recipients: [readerId],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await adminRequest.dispose();

  await signInAdmin(page);
  await page.goto('/admin/notification/list');
  expect(page.viewportSize()?.width).toBe(1366);

  const broadcasts = page.getByTestId('admin-notifications');
  const broadcast = broadcasts.locator('tbody tr').filter({ hasText: title });
  await expect(broadcast.locator('td').nth(3)).toHaveText('False');
  await expect(broadcast.locator('td').nth(4)).toHaveText(`1 user${reader.fullname}`);
  await expect(broadcast.locator('td').nth(5)).toHaveText('notification');

  const system = page.getByTestId('system-notifications');
  await expect(system.locator('thead th')).toHaveText([
    '#',
    /^Member/,
    /^Title/,
    'Message',
    /^Sent/,
    'Actions',
  ]);
  const adjusted = system.locator('tbody tr').filter({ hasText: reader.email });
  await expect(adjusted).toHaveCount(1);
  await expect(adjusted).toContainText(reader.fullname);
  await expect(adjusted).toContainText(MONEY_NOTIFICATIONS.balanceAdjustedTitle);
  await expect(adjusted).toContainText('$1,234.56');
  // The member's private notification is not among the broadcasts.
  await expect(broadcasts.getByText(MONEY_NOTIFICATIONS.balanceAdjustedTitle)).toHaveCount(0);

  for (const box of ['admin-notifications', 'system-notifications']) {
    const { scroll, client } = await overflowOf(page, box);
    expect(scroll, box).toBeLessThanOrEqual(client);
  }
  expect(await brokenWords(page, 'admin-notifications')).toEqual([]);
  expect(await brokenWords(page, 'system-notifications')).toEqual([]);
});
