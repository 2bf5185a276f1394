import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { TICKET_MESSAGES } from '../../src/shared/tickets.ts';
import { fillSignIn, type Member, newMember, registerByApi, signInMember } from './helpers.ts';

// A full support conversation (issue 7 items 4 and 5): a member on a phone opens a ticket with a
// screenshot; support, on a desktop in a browser of its own, finds it, answers and marks it resolved;
// the member sees the answer and the notification without reloading, and answers back, which reopens
// the ticket on support's screen. The file runs in the phone project (members); the admin's browser
// context is made here with the desktop project's device. One registration, through the API.

test.describe.configure({ mode: 'serial' });
// Two browsers and a live round trip each way: more than the default 30 s on a busy 2-core machine.
test.setTimeout(90_000);

let member: Member;
let adminPage: Page;
let ticketId = '';
const SUBJECT = 'My deposit is not in my Active Wallet';
const QUESTION = 'I paid 250 USDT this morning. The payment page said finished, my wallet shows $0.00.';
const ANSWER = 'We found your payment and credited it by hand. Please check your Active Wallet.';
const THANKS = 'Thank you, the money is there now.';

test.beforeAll(async ({ playwright }, testInfo) => {
  const visitor = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  member = newMember('support');
  await registerByApi(visitor, member);
  await visitor.dispose();
});

test.afterAll(async () => {
  await adminPage?.context().close();
});

/** Support signs in on a desktop-sized browser of its own (one person per browser). */
async function openAdmin(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 850 },
    baseURL,
  });
  const page = await context.newPage();
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  return page;
}

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' }).getByRole('listitem');

test('the member opens a ticket with an image from the Support tab', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/v1/tickets'))
      posts.push(new URL(request.url()).pathname);
  });
  await signInMember(page, member);
  await page.getByRole('navigation', { name: 'Member' }).getByRole('link', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/user\/queries\/?$/);
  await expect(page.getByTestId('tickets-empty')).toHaveText(TICKET_MESSAGES.noTickets);
  await page.getByRole('link', { name: 'New ticket' }).click();
  await expect(page).toHaveURL(/\/user\/query\/create$/);

  await test.step('the shared schema checks the form before anything is sent', async () => {
    await page.getByRole('button', { name: 'Submit ticket' }).click();
    await expect(page.getByLabel('Subject')).toHaveAccessibleDescription(TICKET_MESSAGES.subjectRequired);
    await expect(page.getByLabel('Category')).toHaveAccessibleDescription(TICKET_MESSAGES.categoryRequired);
    await expect(page.getByLabel('Message')).toHaveAccessibleDescription(
      new RegExp(`^${TICKET_MESSAGES.messageRequired}`),
    );
    expect(posts).toEqual([]);
  });

  await test.step('a file that is not an image is refused on the spot', async () => {
    await page.getByLabel('Image (optional)').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await expect(page.getByLabel('Image (optional)')).toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('subject, category, message and a screenshot: created with the spec message', async () => {
    await page.getByLabel('Subject').fill(SUBJECT);
    await page.getByLabel('Category').selectOption({ label: 'Deposits and payments' });
    await page.getByLabel('Message').fill(QUESTION);
    const screenshot = await sharp({
      create: { width: 320, height: 200, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    await page.getByLabel('Image (optional)').setInputFiles({
      name: 'wallet.png',
      mimeType: 'image/png',
      buffer: screenshot,
    });
    await expect(page.getByRole('img', { name: 'Chosen attachment' })).toBeVisible();
    await page.getByRole('button', { name: 'Submit ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Successful' });
    await expect(dialog).toContainText('Ticket created successfully!');
    expect(posts).toEqual(['/api/v1/tickets/images', '/api/v1/tickets']);
    await dialog.getByRole('button', { name: 'Go back' }).click();
  });

  await test.step('the new ticket opens with its message and image, waiting for support', async () => {
    await expect(page).toHaveURL(/\/user\/queries\/T-[0-9A-Z]{8}$/);
    ticketId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await expect(page.getByTestId('ticket-id')).toHaveText(ticketId);
    await expect(page.getByTestId('ticket-status')).toHaveText('Open');
    await expect(conversation(page)).toHaveCount(1);
    await expect(conversation(page).first()).toContainText(QUESTION);
    const image = conversation(page).first().getByRole('img', { name: 'Attached by You' });
    await expect(image).toBeVisible();
    // The picture is the server's re-encoded copy, served to its owner.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await expect(page.getByText(TICKET_MESSAGES.noResponses)).toBeVisible();
  });
});

test('support answers and resolves it; the member sees both at once, and the notification', async ({
  page,
  browser,
}, testInfo) => {
  expect(ticketId).not.toBe('');
  await signInMember(page, member);
  await page.goto(`/user/queries/${ticketId}`);
  await expect(page.getByTestId('ticket-status')).toHaveText('Open');

  adminPage = await openAdmin(browser, testInfo.project.use.baseURL);
  await test.step('support finds the ticket by status and search', async () => {
    await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Tickets' }).click();
    await expect(adminPage).toHaveURL(/\/admin\/tickets/);
    await adminPage.getByLabel('Status').selectOption('open');
    await adminPage.getByLabel('Search').fill(member.email.toUpperCase());
    await adminPage.getByRole('button', { name: 'Search' }).click();
    const rows = adminPage.getByTestId('admin-tickets').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(SUBJECT);
    await expect(rows.first()).toContainText(member.email);
    await expect(rows.first().getByTestId('awaiting-support')).toBeVisible();
    await rows.first().getByRole('link', { name: ticketId }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/admin/ticket/${ticketId}$`));
  });

  await test.step('support reads the question and its image, answers and resolves', async () => {
    await expect(conversation(adminPage).first()).toContainText(QUESTION);
    await expect(conversation(adminPage).first().getByRole('img')).toBeVisible();
    await adminPage.getByLabel('Your answer').fill(ANSWER);
    await adminPage.getByRole('button', { name: 'Send answer' }).click();
    await expect(
      adminPage.getByRole('status').filter({ hasText: 'Response added successfully!' }),
    ).toBeVisible();
    await expect(conversation(adminPage)).toHaveCount(2);
    await expect(adminPage.getByTestId('ticket-status')).toHaveText('In progress');
    await adminPage.getByLabel('Ticket status').selectOption('resolved');
    await adminPage.getByRole('button', { name: 'Update status' }).click();
    await expect(
      adminPage.getByRole('status').filter({ hasText: 'Ticket status updated successfully!' }),
    ).toBeVisible();
    await expect(adminPage.getByTestId('ticket-status')).toHaveText('Resolved');
  });

  await test.step('the member’s open page shows the answer and the new status without a reload', async () => {
    await expect(conversation(page)).toHaveCount(2, { timeout: 20_000 });
    await expect(conversation(page).nth(1)).toContainText(ANSWER);
    await expect(conversation(page).nth(1)).toContainText(TICKET_MESSAGES.supportName);
    await expect(page.getByTestId('ticket-status')).toHaveText('Resolved', { timeout: 20_000 });
  });

  await test.step('the member was notified of the answer', async () => {
    await page.goto('/user/notifications');
    await expect(page.getByText(TICKET_MESSAGES.notifyAnswerTitle).first()).toBeVisible();
    await page.goto('/user/queries');
    const item = page.locator(`[data-ticket-id="${ticketId}"]`);
    await expect(item.getByTestId('ticket-status')).toHaveText('Resolved');
    await expect(item.getByTestId('support-answered')).toBeVisible();
  });
});

test('the member answers back, which reopens the ticket on support’s screen', async ({ page }) => {
  expect(adminPage).toBeDefined();
  await signInMember(page, member);
  await page.goto('/user/queries');
  await page.getByRole('link', { name: SUBJECT }).click();
  await expect(page).toHaveURL(new RegExp(`/user/queries/${ticketId}$`));
  await expect(page.getByLabel('Your answer')).toHaveAccessibleDescription(
    'Answering reopens this resolved ticket.',
  );
  await page.getByLabel('Your answer').fill(THANKS);
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Response added successfully!' })).toBeVisible();
  await expect(conversation(page)).toHaveCount(3);
  await expect(conversation(page).nth(2)).toContainText(THANKS);
  await expect(page.getByTestId('ticket-status')).toHaveText('Open');

  // Support's page, still open, follows.
  await expect(conversation(adminPage)).toHaveCount(3, { timeout: 20_000 });
  await expect(conversation(adminPage).nth(2)).toContainText(THANKS);
  await expect(adminPage.getByTestId('ticket-status')).toHaveText('Open');
  await expect(adminPage.getByLabel('Ticket status')).toHaveValue('open');

  // The member closes it; it stays readable and takes no more answers.
  await page.getByRole('button', { name: 'Close ticket' }).click();
  await page
    .getByRole('dialog', { name: 'Close this ticket?' })
    .getByRole('button', { name: 'Close ticket' })
    .click();
  await expect(page.getByTestId('ticket-status')).toHaveText('Closed');
  await expect(page.getByTestId('ticket-closed-note')).toHaveText(TICKET_MESSAGES.closedNoResponses);
  await expect(page.getByLabel('Your answer')).toHaveCount(0);
  await expect(conversation(page)).toHaveCount(3);
});
