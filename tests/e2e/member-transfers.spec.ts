import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import {
  creditByApi,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
  transferByApi,
} from './helpers.ts';

// Member-to-member transfers on a phone (spec 2 "Transfer form" / "Transfer dashboard", spec 5, RULES.md
// "Internal transfers"). Three registrations for the file, shared by the tests in order: a sender (made
// active and credited by the admin), a recipient, and a quiet member who never sends nor receives (kept
// inactive, with a little money, so the server refuses their transfer). The admin works in an API
// context of its own: one person per browser.

test.describe.configure({ mode: 'serial' });

// Dates are shown en-US with hour and minute in the browser's time zone: pinned, so the test can say which.
const TIME_ZONE = 'America/New_York';
test.use({ timezoneId: TIME_ZONE });

const TRANSFER_POST = '/api/v1/transfer/touser';
const HISTORY_PATH = '/api/v1/transfer/byid/';

let sender: Member;
let recipient: Member;
let quiet: Member;
const ids = { sender: '', recipient: '', quiet: '' };
let admin: APIRequestContext;
/** What the tests sent, for the dashboard's figures later on. */
const sent: { lunch?: string; review?: string } = {};

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const visitor = await playwright.request.newContext({ baseURL });
  sender = newMember('sender');
  recipient = newMember('recipient');
  quiet = newMember('quiet');
  for (const member of [sender, recipient, quiet]) await registerByApi(visitor, member);
  await visitor.dispose();

  admin = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(admin);
  ids.sender = await memberIdOf(admin, sender.email);
  ids.recipient = await memberIdOf(admin, recipient.email);
  ids.quiet = await memberIdOf(admin, quiet.email);
  await creditByApi(admin, ids.sender, '20000.00', 'business');
  await creditByApi(admin, ids.sender, '300.00', 'working');
  await setActiveByApi(admin, ids.sender);
  await creditByApi(admin, ids.quiet, '50.00', 'business');
});

test.afterAll(async () => {
  await admin?.dispose();
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An accessible description that starts with the message (a hint may follow it). */
const startsWith = (message: string) => new RegExp(`^${escapeRegExp(message)}`);

/** Spec 9: en-US with hour and minute, e.g. "Nov 23, 2026, 11:46 AM" (any space before AM/PM). */
const shownDate = (iso: string) =>
  new RegExp(
    escapeRegExp(
      new Intl.DateTimeFormat('en-US', {
        timeZone: TIME_ZONE,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }).format(new Date(iso)),
    ).replace(/\s/g, '\\s'),
  );
const DATE_SHAPE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/;

const sendForm = (page: Page) => page.getByRole('region', { name: 'Send money' });
const field = (page: Page, label: string) => sendForm(page).getByLabel(label, { exact: true });

/** Every request the page makes to the transfer calls that move money (none are GETs). */
function watchTransferPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/api/v1/transfer'))
      posts.push(request.url());
  });
  return posts;
}

/** Types the recipient's e-mail and waits for the lookup to show who they are. */
async function chooseRecipient(page: Page, member: Member): Promise<void> {
  await field(page, 'Recipient email').fill(member.email);
  await expect(page.getByTestId('recipient-lookup').locator('dd')).toHaveText([
    member.fullname,
    member.username,
    member.email,
  ]);
}

/** Holds matching requests until release() is called: the sending or loading state can be seen. */
async function holdRequests(page: Page, matches: (url: URL) => boolean): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(matches, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Runs the action (which closes a modal) and waits for the full page load it causes. */
async function expectReload(page: Page, action: () => Promise<void>): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { beforeReload?: boolean }).beforeReload = true;
  });
  const loaded = page.waitForEvent('load');
  await action();
  await loaded;
  expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBe(
    undefined,
  );
}

async function expectEmptyForm(page: Page): Promise<void> {
  await expect(field(page, 'Recipient email')).toHaveValue('');
  await expect(field(page, 'From account')).toHaveValue('');
  await expect(field(page, 'To account')).toHaveValue('');
  await expect(field(page, 'Amount')).toHaveValue('');
  await expect(field(page, 'Description (optional)')).toHaveValue('');
  await expect(sendForm(page).getByText('0/200', { exact: true })).toBeVisible();
  await expect(page.getByTestId('recipient-lookup')).toBeEmpty();
}

const tabs = (page: Page, name: string) => page.getByRole('tablist', { name }).getByRole('tab');
const bodyRows = (table: Locator) => table.locator('tbody tr');

test('the recipient lookup waits for a pause in typing, then shows who will receive', async ({ page }) => {
  const lookups: { email: string | null; at: number }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/users')
      lookups.push({ email: url.searchParams.get('email'), at: Date.now() });
  });
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await expect(page.getByRole('heading', { name: 'Transfer fund' })).toBeVisible();

  await test.step('From lists each wallet with what it can send now', async () => {
    await expect(field(page, 'From account').locator('option')).toHaveText([
      'Select source account',
      'Active Wallet ($20,000.00)',
      'Income Working ($300.00)',
    ]);
    await expect(field(page, 'To account').locator('option')).toHaveText([
      'Select destination account',
      'Active Wallet',
      'Income Working',
    ]);
  });

  await test.step('one lookup, 1 s after the last keystroke, with "Searching user..." meanwhile', async () => {
    const release = await holdRequests(page, (url) => url.pathname === '/api/v1/users');
    const lookup = page.getByTestId('recipient-lookup');
    // Typing takes longer than the pause: a lookup per keystroke would already have been made.
    await field(page, 'Recipient email').pressSequentially(recipient.email, { delay: 40 });
    const typed = Date.now();
    expect(lookups).toEqual([]);
    await expect(lookup).toHaveText(TRANSFER_MESSAGES.searching);
    await expect.poll(() => lookups.length).toBe(1);
    expect(lookups[0]?.email).toBe(recipient.email);
    expect(lookups[0]?.at ?? 0).toBeGreaterThanOrEqual(typed + 800);
    release();
    await expect(lookup.locator('dt')).toHaveText(['Name', 'Username', 'Email']);
    await expect(lookup.locator('dd')).toHaveText([recipient.fullname, recipient.username, recipient.email]);
    await expect(field(page, 'Recipient email')).not.toHaveAttribute('aria-invalid', 'true');
    await page.unroute((url) => url.pathname === '/api/v1/users');
    expect(lookups).toHaveLength(1);
  });

  await test.step('an unknown e-mail says no one was found', async () => {
    await field(page, 'Recipient email').fill(`nobody.${Date.now()}@example.com`);
    await expect(field(page, 'Recipient email')).toHaveAccessibleDescription(WALLET_MESSAGES.noUserWithEmail);
    await expect(field(page, 'Recipient email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('recipient-lookup')).toBeEmpty();
    expect(lookups).toHaveLength(2);
  });
});

test('every validation message of spec 5 shows before any request is made', async ({ page }) => {
  const posts = watchTransferPosts(page);
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  const send = sendForm(page).getByRole('button', { name: 'Send Transfer' });
  const amount = field(page, 'Amount');
  const description = field(page, 'Description (optional)');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($20,000.00)');

  await test.step('an empty form: amount, source and destination are required', async () => {
    await send.click();
    await expect(amount).toHaveAccessibleDescription(startsWith(WALLET_MESSAGES.amountRequired));
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'From account')).toHaveAccessibleDescription(TRANSFER_MESSAGES.fromRequired);
    await expect(field(page, 'To account')).toHaveAccessibleDescription(TRANSFER_MESSAGES.toRequired);
    await expect(field(page, 'Recipient email')).toHaveAccessibleDescription(
      TRANSFER_MESSAGES.recipientRequired,
    );
    // One message per field: an empty amount is not also "greater than 0".
    await expect(sendForm(page).getByText(WALLET_MESSAGES.amountPositive)).toHaveCount(0);
  });

  await test.step('the amount: a number, above 0, at most $10,000', async () => {
    for (const [typed, message] of [
      ['abc', WALLET_MESSAGES.amountInvalid],
      ['0', WALLET_MESSAGES.amountPositive],
      ['-5', WALLET_MESSAGES.amountPositive],
      ['10000.01', TRANSFER_MESSAGES.amountMax],
    ] as const) {
      await amount.fill(typed);
      await send.click();
      await expect(amount).toHaveAccessibleDescription(startsWith(message));
    }
  });

  await test.step('choosing the wallets clears their messages', async () => {
    await field(page, 'From account').selectOption('working');
    await field(page, 'To account').selectOption('business');
    await send.click();
    await expect(field(page, 'From account')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'To account')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(sendForm(page).getByText(TRANSFER_MESSAGES.fromRequired)).toHaveCount(0);
  });

  await test.step('the description: at most 200 characters, with a live counter', async () => {
    await description.fill('x'.repeat(201));
    await expect(sendForm(page).getByText('201/200', { exact: true })).toBeVisible();
    await send.click();
    await expect(description).toHaveAccessibleDescription(startsWith(TRANSFER_MESSAGES.descriptionMax));
    await expect(description).toHaveAttribute('aria-invalid', 'true');
    await description.fill('x'.repeat(200));
    await expect(sendForm(page).getByText('200/200', { exact: true })).toBeVisible();
  });

  await test.step('more than the source wallet holds: the message with the available balance', async () => {
    await chooseRecipient(page, recipient);
    await amount.fill('300.01');
    await send.click();
    await expect(amount).toHaveAccessibleDescription(
      startsWith(`${WALLET_MESSAGES.insufficient} (available $300.00)`),
    );
    await expect(
      sendForm(page).getByText(`${WALLET_MESSAGES.insufficient} (available $300.00)`),
    ).toBeVisible();
    await expect(description).not.toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'Recipient email')).not.toHaveAttribute('aria-invalid', 'true');
  });

  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(posts).toEqual([]);
});

test('a valid transfer: processing state, the success modal, a reload with an empty form', async ({
  page,
  browser,
}) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($20,000.00)');

  await chooseRecipient(page, recipient);
  await field(page, 'From account').selectOption('business');
  await field(page, 'To account').selectOption('business');
  await field(page, 'Amount').fill('1234.50');
  await field(page, 'Description (optional)').fill('E2E: lunch money');
  await expect(sendForm(page).getByText('16/200', { exact: true })).toBeVisible();

  await test.step('while sending, the button reads "Processing Transfer..." and nothing can be changed', async () => {
    const release = await holdRequests(page, (url) => url.pathname === TRANSFER_POST);
    await sendForm(page).getByRole('button', { name: 'Send Transfer' }).click();
    await expect(sendForm(page).getByRole('button', { name: TRANSFER_MESSAGES.processing })).toBeDisabled();
    for (const label of ['Recipient email', 'From account', 'To account', 'Amount', 'Description (optional)'])
      await expect(field(page, label)).toBeDisabled();
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === TRANSFER_POST);
    release();
    const response = await answer;
    expect(response.status()).toBe(201);
    const { transfer } = (await response.json()) as { transfer: { status: string; created_at: string } };
    expect(transfer.status).toBe('completed');
    sent.lunch = transfer.created_at;
    await page.unroute((url) => url.pathname === TRANSFER_POST);
  });

  await test.step('"Transfer Completed!"; closing it reloads the page and the form is empty', async () => {
    const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.successTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(TRANSFER_MESSAGES.successText);
    await expectReload(page, () => dialog.getByRole('button', { name: 'OK' }).click());
    await expect(page).toHaveURL(/\/user\/transfer-form$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectEmptyForm(page);
    await expect(field(page, 'From account').locator('option').nth(1)).toHaveText(
      'Active Wallet ($18,765.50)',
    );
  });

  await test.step('the recipient, signed in on their own phone, sees the money arrive', async () => {
    const context = await browser.newContext();
    const other = await context.newPage();
    try {
      expect(other.viewportSize()).toEqual(page.viewportSize());
      await signInMember(other, recipient);
      await expect(other.getByTestId('balance-business')).toHaveText('$1,234.50');
      await expect(other.getByTestId('balance-working')).toHaveText('$0.00');

      await other.goto('/user/transfer?tab=received');
      await expect(other.getByRole('heading', { name: TRANSFER_MESSAGES.title })).toBeVisible();
      await expect(tabs(other, 'Transfers').filter({ hasText: 'Received (1)' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const table = other.getByRole('table', { name: 'Transfers you received' });
      await expect(table.getByRole('columnheader')).toHaveText([
        'Sender',
        'Amount',
        'Description',
        'Date',
        'Status',
      ]);
      const cells = bodyRows(table).first().getByRole('cell');
      await expect(bodyRows(table)).toHaveCount(1);
      await expect(cells.nth(0)).toHaveText(`${sender.fullname}${sender.email}`);
      await expect(cells.nth(1)).toHaveText('+$1,234.50');
      await expect(cells.nth(2)).toHaveText('E2E: lunch money');
      await expect(cells.nth(3)).toHaveText(DATE_SHAPE);
      await expect(cells.nth(3)).toHaveText(shownDate(sent.lunch ?? ''));
      const badge = cells.nth(4).getByText('Completed', { exact: true });
      await expect(badge).toHaveClass(/\bbadge\b.*\bgreen\b/);
    } finally {
      await context.close();
    }
  });
});

test('$5,000 or more waits for review: the pending-review modal and a yellow Pending badge', async ({
  page,
}) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer?tab=transfer');
  await expect(tabs(page, 'Transfers').filter({ hasText: 'Transfer fund' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await chooseRecipient(page, recipient);
  await field(page, 'From account').selectOption('business');
  await field(page, 'To account').selectOption('working');
  await field(page, 'Amount').fill('5000');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === TRANSFER_POST);
  await sendForm(page).getByRole('button', { name: 'Send Transfer' }).click();
  const response = await answer;
  expect(response.status()).toBe(201);
  const { transfer } = (await response.json()) as { transfer: { status: string; created_at: string } };
  expect(transfer.status).toBe('pending');
  sent.review = transfer.created_at;

  const dialog = page.getByRole('dialog', { name: 'Transfer Pending Review' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(TRANSFER_MESSAGES.pendingReview);
  await expect(dialog).not.toContainText(TRANSFER_MESSAGES.successText);
  await expectReload(page, () => dialog.getByRole('button', { name: 'OK' }).click());
  // The tab is in the address: the reload comes back to the form, empty, with the money held.
  await expect(page).toHaveURL(/\/user\/transfer\?tab=transfer$/);
  await expectEmptyForm(page);
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($13,765.50)');

  await tabs(page, 'Transfers').filter({ hasText: 'Sent (2)' }).click();
  await expect(page).toHaveURL(/\?tab=sent$/);
  const table = page.getByRole('table', { name: 'Transfers you sent' });
  await expect(table.getByRole('columnheader').first()).toHaveText('Recipient');
  await expect(bodyRows(table)).toHaveCount(2);
  const newest = bodyRows(table).first().getByRole('cell');
  await expect(newest.nth(0)).toHaveText(`${recipient.fullname}${recipient.email}`);
  await expect(newest.nth(1)).toHaveText('-$5,000.00');
  await expect(newest.nth(2)).toHaveText('—');
  await expect(newest.nth(3)).toHaveText(shownDate(transfer.created_at));
  await expect(newest.nth(4).getByText('Pending', { exact: true })).toHaveClass(/\bbadge\b.*\byellow\b/);
  await expect(bodyRows(table).nth(1).getByRole('cell').nth(1)).toHaveText('-$1,234.50');
  await expect(bodyRows(table).nth(1).getByText('Completed', { exact: true })).toHaveClass(/\bgreen\b/);
});

test('a transfer the server refuses shows "Transfer Failed"; closing it reloads', async ({ page }) => {
  // The quiet member is still inactive (RULES.md: only active members send), with $50.00 to send.
  await signInMember(page, quiet);
  await page.goto('/user/transfer-form');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($50.00)');
  await chooseRecipient(page, sender);
  await field(page, 'From account').selectOption('business');
  await field(page, 'To account').selectOption('business');
  await field(page, 'Amount').fill('10');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === TRANSFER_POST);
  await sendForm(page).getByRole('button', { name: 'Send Transfer' }).click();
  expect((await answer).status()).toBe(422);

  const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.failedTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(TRANSFER_MESSAGES.failedText);
  await expect(dialog.getByRole('alert')).toHaveText(TRANSFER_MESSAGES.senderInactive);
  await expectReload(page, () => dialog.getByRole('button', { name: 'Close', exact: true }).click());
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectEmptyForm(page);
  // Nothing moved.
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($50.00)');
});

test('a member with no transfers sees zeros and the empty texts', async ({ page }) => {
  await signInMember(page, quiet);
  await page.goto('/user/transfer');
  await expect(page.getByRole('heading', { name: TRANSFER_MESSAGES.title })).toBeVisible();
  await expect(page.getByText(TRANSFER_MESSAGES.subtitle)).toBeVisible();
  await expect(tabs(page, 'Transfers')).toHaveText(['Overview', 'Sent (0)', 'Received (0)', 'Transfer fund']);

  await expect(page.getByTestId('total-sent')).toContainText('$0.00');
  await expect(page.getByTestId('total-received')).toContainText('$0.00');
  await expect(page.getByTestId('pending-transfers')).toHaveText('0');
  await expect(page.getByTestId('total-transfers')).toContainText('0');
  await expect(page.getByText(TRANSFER_MESSAGES.noActivity)).toBeVisible();

  await tabs(page, 'Transfers').filter({ hasText: 'Sent (0)' }).click();
  await expect(page.getByText(TRANSFER_MESSAGES.noOutgoing)).toBeVisible();
  await tabs(page, 'Transfers').filter({ hasText: 'Received (0)' }).click();
  await expect(page.getByText(TRANSFER_MESSAGES.noIncoming)).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);

  await page.goto('/user/transfer-history');
  await expect(tabs(page, 'Transfer history')).toHaveText([
    'Overview',
    'Outgoing (0)',
    'Incoming (0)',
    'All (0)',
  ]);
  await expect(page.getByTestId('history-stats').locator('dd')).toHaveText([
    '0',
    '0',
    '$0.00',
    '$0.00',
    '0',
    '0',
    '0',
    '0',
  ]);
  await tabs(page, 'Transfer history').filter({ hasText: 'All (0)' }).click();
  await expect(page.getByText(TRANSFER_MESSAGES.noActivity)).toBeVisible();
});

test('the dashboard adds up sent and received money, and the history view agrees', async ({
  page,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  // Three more from the sender, then one back from the recipient once the admin has activated them.
  const senderApi = await playwright.request.newContext({ baseURL });
  const recipientApi = await playwright.request.newContext({ baseURL });
  let back: { created_at: string };
  try {
    await signInByApi(senderApi, sender);
    for (const amount of ['10.00', '20.00', '30.00'])
      await transferByApi(senderApi, { userto_id: ids.recipient, amount, from: 'business', to: 'business' });
    await setActiveByApi(admin, ids.recipient);
    await signInByApi(recipientApi, recipient);
    back = await transferByApi(recipientApi, {
      userto_id: ids.sender,
      amount: '250.00',
      from: 'business',
      to: 'working',
      desc: 'E2E: paid back',
    });
  } finally {
    await senderApi.dispose();
    await recipientApi.dispose();
  }

  await signInMember(page, sender);
  await page.goto('/user/transfer');
  await expect(page.getByRole('heading', { name: TRANSFER_MESSAGES.title })).toBeVisible();
  await expect(page.getByText(TRANSFER_MESSAGES.subtitle)).toBeVisible();

  await test.step('the tabs count each direction; the cards total them in dollars', async () => {
    await expect(tabs(page, 'Transfers')).toHaveText([
      'Overview',
      'Sent (5)',
      'Received (1)',
      'Transfer fund',
    ]);
    await expect(tabs(page, 'Transfers').first()).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('term')).toHaveText([
      'Total Sent',
      'Total Received',
      'Pending Transfers',
      'Total Transfers',
    ]);
    // Pending counts in the totals (spec 4); the trend is a dash with nothing earlier to compare.
    await expect(page.getByTestId('total-sent')).toHaveText('$6,294.50— change vs previous 30 days');
    await expect(page.getByTestId('total-received')).toHaveText('$250.00— change vs previous 30 days');
    await expect(page.getByTestId('pending-transfers')).toHaveText('1');
    await expect(page.getByTestId('total-transfers')).toHaveText('6— change vs previous 30 days');
    for (const card of ['total-sent', 'total-received', 'total-transfers'])
      await expect(page.getByTestId(card)).not.toContainText('%');
  });

  await test.step('Recent Activity: the 5 newest of both directions, newest first', async () => {
    const recent = page.getByTestId('recent-activity').getByRole('listitem');
    await expect(recent).toHaveCount(5);
    await expect(recent.nth(0)).toContainText(`From ${recipient.fullname}`);
    await expect(recent.nth(0)).toContainText('+$250.00');
    await expect(recent.nth(0)).toContainText(shownDate(back.created_at));
    await expect(recent.nth(0).getByText('Completed')).toHaveClass(/\bgreen\b/);
    for (const [index, amount] of ['-$30.00', '-$20.00', '-$10.00', '-$5,000.00'].entries()) {
      await expect(recent.nth(index + 1)).toContainText(`To ${recipient.fullname}`);
      await expect(recent.nth(index + 1)).toContainText(amount);
    }
    await expect(recent.nth(4)).toContainText(shownDate(sent.review ?? ''));
    await expect(recent.nth(4).getByText('Pending')).toHaveClass(/\byellow\b/);
    // The oldest, the $1,234.50 of the first transfer, is left out.
    await expect(page.getByTestId('recent-activity')).not.toContainText('1,234.50');
  });

  await test.step('the Sent and Received tables', async () => {
    await tabs(page, 'Transfers').filter({ hasText: 'Sent (5)' }).click();
    const sentTable = page.getByRole('table', { name: 'Transfers you sent' });
    await expect(bodyRows(sentTable).locator('td:nth-child(2)')).toHaveText([
      '-$30.00',
      '-$20.00',
      '-$10.00',
      '-$5,000.00',
      '-$1,234.50',
    ]);
    await expect(bodyRows(sentTable).locator('td:nth-child(5)')).toHaveText([
      'Completed',
      'Completed',
      'Completed',
      'Pending',
      'Completed',
    ]);
    await tabs(page, 'Transfers').filter({ hasText: 'Received (1)' }).click();
    await expect(page).toHaveURL(/\?tab=received$/);
    const receivedTable = page.getByRole('table', { name: 'Transfers you received' });
    await expect(bodyRows(receivedTable)).toHaveCount(1);
    await expect(bodyRows(receivedTable).getByRole('cell')).toHaveText([
      `${recipient.fullname}${recipient.email}`,
      '+$250.00',
      'E2E: paid back',
      shownDate(back.created_at),
      'Completed',
    ]);
  });

  await test.step('the history view: its tabs and statistics', async () => {
    await tabs(page, 'Transfers').filter({ hasText: 'Overview' }).click();
    await page.getByRole('link', { name: 'Full transfer history' }).click();
    await expect(page).toHaveURL(/\/user\/transfer-history(\?tab=overview)?$/);
    await expect(page.getByRole('heading', { name: 'Transfer history' })).toBeVisible();
    const historyTabs = tabs(page, 'Transfer history');
    await expect(historyTabs).toHaveText(['Overview', 'Outgoing (5)', 'Incoming (1)', 'All (6)']);
    await expect(historyTabs.first()).toHaveAttribute('aria-selected', 'true');
    const stats = page.getByTestId('history-stats');
    await expect(stats.locator('dt')).toHaveText([
      'Sent',
      'Received',
      'Amount sent',
      'Amount received',
      'Pending sent',
      'Pending received',
      'Completed sent',
      'Completed received',
    ]);
    await expect(stats.locator('dd')).toHaveText(['5', '1', '$6,294.50', '$250.00', '1', '0', '4', '1']);

    await historyTabs.filter({ hasText: 'All (6)' }).click();
    await expect(page).toHaveURL(/\?tab=all$/);
    const all = page.getByRole('table', { name: 'All transfers' });
    await expect(bodyRows(all).locator('td:nth-child(2)')).toHaveText([
      '+$250.00',
      '-$30.00',
      '-$20.00',
      '-$10.00',
      '-$5,000.00',
      '-$1,234.50',
    ]);
    await expect(bodyRows(all).locator('td:nth-child(4)').first()).toHaveText(DATE_SHAPE);

    await historyTabs.filter({ hasText: 'Incoming (1)' }).click();
    await expect(page).toHaveURL(/\?tab=incoming$/);
    await expect(bodyRows(page.getByRole('table', { name: 'Incoming transfers' }))).toHaveCount(1);
    await historyTabs.filter({ hasText: 'Outgoing (5)' }).click();
    const outgoing = page.getByRole('table', { name: 'Outgoing transfers' });
    await expect(bodyRows(outgoing)).toHaveCount(5);
    await expect(bodyRows(outgoing).last().getByRole('cell').nth(3)).toHaveText(shownDate(sent.lunch ?? ''));
  });
});

test.describe('with the history call failing', () => {
  // The service worker fetches the history call itself (to keep the member's offline copy), and
  // page.route does not see a worker's requests; this is about the page's own error handling, so the
  // worker is kept out of it.
  test.use({ serviceWorkers: 'block' });

  test('a failed load shows "Error Loading Transfers", and Try Again reloads the page', async ({ page }) => {
    await signInMember(page, sender);
    // Only the history call is answered 500 here; the real server answers everything else. The first one
    // is held so the loading text can be seen.
    let calls = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const isHistory = (url: URL) => url.pathname.startsWith(HISTORY_PATH);
    await page.route(isHistory, async (route) => {
      calls += 1;
      if (calls === 1) await held;
      await route.fulfill({ status: 500, json: { message: 'Something went wrong' } });
    });
    await page.goto('/user/transfer');
    await expect(page.getByRole('status').filter({ hasText: TRANSFER_MESSAGES.loading })).toBeVisible();
    release();

    const error = page.getByRole('alert').filter({ hasText: TRANSFER_MESSAGES.errorTitle });
    await expect(error.getByRole('heading', { name: TRANSFER_MESSAGES.errorTitle })).toBeVisible();
    await expect(error).toContainText('HTTP error! status: 500');
    await expect(page.getByRole('tablist')).toHaveCount(0);
    // The page's title stays; the rest of the app is unaffected.
    await expect(page.getByRole('heading', { name: TRANSFER_MESSAGES.title })).toBeVisible();

    await test.step('the history view, on the same failure, empties its lists and zeroes its statistics', async () => {
      await page.goto('/user/transfer-history');
      await expect(page.getByRole('alert')).toHaveText('HTTP error! status: 500');
      await expect(tabs(page, 'Transfer history')).toHaveText([
        'Overview',
        'Outgoing (0)',
        'Incoming (0)',
        'All (0)',
      ]);
      await expect(page.getByTestId('history-stats').locator('dd')).toHaveText([
        '0',
        '0',
        '$0.00',
        '$0.00',
        '0',
        '0',
        '0',
        '0',
      ]);
      await page.goto('/user/transfer');
      await expect(error.getByRole('button', { name: TRANSFER_MESSAGES.tryAgain })).toBeVisible();
    });

    await page.unroute(isHistory);
    await expectReload(page, () => error.getByRole('button', { name: TRANSFER_MESSAGES.tryAgain }).click());
    await expect(tabs(page, 'Transfers')).toHaveText([
      'Overview',
      'Sent (5)',
      'Received (1)',
      'Transfer fund',
    ]);
    await expect(page.getByTestId('total-sent')).toContainText('$6,294.50');
    await expect(page.getByText(TRANSFER_MESSAGES.errorTitle)).toHaveCount(0);
  });
});
