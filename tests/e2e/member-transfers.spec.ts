import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { GENERIC } from '../../src/shared/messages.ts';
import { reviewSummary, TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { WALLET_MESSAGES, WALLET_NOTES } from '../../src/shared/wallets.ts';
import {
  creditByApi,
  csrfHeaders,
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
// "Internal transfers", issue 22: review, receipt, values kept after a failure). Four registrations for
// the file, shared by the tests in order: a sender (made active and credited by the admin), a recipient,
// a quiet member who never sends nor receives (kept inactive, with a little money, so the form tells
// them they cannot send), and a member the admin blocks (the server refuses transfers to them). The
// admin works in an API context of its own: one person per browser.

test.describe.configure({ mode: 'serial' });

// Dates are shown en-US with hour and minute in the browser's time zone: pinned, so the test can say which.
const TIME_ZONE = 'America/New_York';
test.use({ timezoneId: TIME_ZONE });

const TRANSFER_POST = '/api/v1/transfer/touser';
const HISTORY_PATH = '/api/v1/transfer/byid/';

let sender: Member;
let recipient: Member;
let quiet: Member;
let blocked: Member;
const ids = { sender: '', recipient: '', quiet: '', blocked: '' };
let admin: APIRequestContext;
/** What the tests sent, for the dashboard's figures later on. */
const sent: { lunch?: string; review?: string } = {};

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const visitor = await playwright.request.newContext({ baseURL });
  sender = newMember('sender');
  recipient = newMember('recipient');
  quiet = newMember('quiet');
  blocked = newMember('blocked');
  for (const member of [sender, recipient, quiet, blocked]) await registerByApi(visitor, member);
  await visitor.dispose();

  admin = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(admin);
  ids.sender = await memberIdOf(admin, sender.email);
  ids.recipient = await memberIdOf(admin, recipient.email);
  ids.quiet = await memberIdOf(admin, quiet.email);
  ids.blocked = await memberIdOf(admin, blocked.email);
  await creditByApi(admin, ids.sender, '20000.00', 'business');
  await creditByApi(admin, ids.sender, '300.00', 'working');
  await setActiveByApi(admin, ids.sender);
  await creditByApi(admin, ids.quiet, '50.00', 'business');
  const block = await admin.put(`/api/v1/users/${ids.blocked}`, {
    headers: await csrfHeaders(admin),
    data: { status: 'block' },
  });
  expect(block.status(), await block.text()).toBe(200);
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
/** The spec's "recipient email", which takes a username too. */
const RECIPIENT = 'Recipient email or username';

/** Opens the advanced choice of the recipient's wallet (folded on the Active Wallet until opened). */
async function openWalletChoice(page: Page): Promise<void> {
  const choice = sendForm(page).locator('details.advanced');
  if (!(await choice.evaluate((d) => (d as HTMLDetailsElement).open)))
    await choice.locator('summary').click();
  await expect(field(page, 'To account')).toBeVisible();
}
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
  await field(page, RECIPIENT).fill(member.email);
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

/** Nothing typed: From on the wallet that holds the money, To on the recipient's Active Wallet. */
async function expectFreshForm(page: Page, from: string): Promise<void> {
  await expect(field(page, RECIPIENT)).toHaveValue('');
  await expect(field(page, 'From account')).toHaveValue(from);
  await expect(field(page, 'To account')).toHaveValue('business');
  await expect(field(page, 'Amount')).toHaveValue('');
  await expect(field(page, 'Description (optional)')).toHaveValue('');
  await expect(sendForm(page).getByText('0/200', { exact: true })).toBeVisible();
  await expect(page.getByTestId('recipient-lookup')).toBeEmpty();
}

const tabs = (page: Page, name: string) => page.getByRole('tablist', { name }).getByRole('tab');
const rows = (list: Locator) => list.getByRole('listitem');
const amounts = (list: Locator) => rows(list).getByTestId('amount');
const statuses = (list: Locator) => rows(list).locator('[data-status]');

/** The form's labels, top to bottom. */
const fieldLabels = (page: Page) => sendForm(page).locator('.field > label');
const SPEC_ORDER = [RECIPIENT, 'Amount', 'From account', 'To account', 'Description (optional)'];

/** Sends the filled form: "Send Transfer" opens the review, which must name what leaves; Confirm sends it. */
async function reviewAndConfirm(page: Page, summary: string): Promise<Locator> {
  await sendForm(page).getByRole('button', { name: TRANSFER_MESSAGES.send }).click();
  const review = page.getByRole('dialog', { name: TRANSFER_MESSAGES.reviewTitle });
  await expect(review.getByTestId('transfer-summary')).toHaveText(summary);
  await review.getByRole('button', { name: TRANSFER_MESSAGES.confirm }).click();
  return review;
}

/** The row's right edge is on screen: a phone shows it without scrolling sideways. */
async function expectWithinScreen(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

test('a recipient found by username shows their name and username, never their e-mail', async ({ page }) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await field(page, RECIPIENT).fill(recipient.username.toUpperCase());
  const lookup = page.getByTestId('recipient-lookup');
  await expect(lookup.locator('dt')).toHaveText(['Name', 'Username']);
  await expect(lookup.locator('dd')).toHaveText([recipient.fullname, recipient.username]);
  await expect(lookup).not.toContainText(recipient.email);
  await field(page, RECIPIENT).fill('no_such_member_here');
  await expect(field(page, RECIPIENT)).toHaveAccessibleDescription(
    new RegExp(escapeRegExp(WALLET_MESSAGES.noUserWithUsername)),
  );
});

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

  await test.step("the fields in the spec's order: recipient e-mail, amount, from, to, description", async () => {
    await expect(fieldLabels(page)).toHaveText(SPEC_ORDER);
  });

  await test.step('From starts on the wallet that holds the most, To on the Active Wallet, each explained', async () => {
    // $20,000.00 in the Active Wallet against $300.00 in Income Working.
    await expect(field(page, 'From account')).toHaveValue('business');
    await expect(field(page, 'To account')).toHaveValue('business');
    await expect(field(page, 'From account')).toHaveAccessibleDescription(WALLET_NOTES.business);
    await expect(field(page, 'To account')).toHaveAccessibleDescription(WALLET_NOTES.business);
    // Folded on the recipient's Active Wallet, and opened to choose another.
    await expect(field(page, 'To account')).toBeHidden();
    await expect(sendForm(page).getByTestId('transfer-to')).toHaveText('Active Wallet');
    await openWalletChoice(page);
    await field(page, 'To account').selectOption('working');
    await expect(field(page, 'To account')).toHaveAccessibleDescription(WALLET_NOTES.working);
    await field(page, 'To account').selectOption('business');
    await expect(sendForm(page).getByTestId('sender-notice')).toHaveCount(0);
    await expect(sendForm(page).getByRole('button', { name: TRANSFER_MESSAGES.send })).toBeEnabled();
  });

  await test.step('one lookup, 1 s after the last keystroke, with "Searching user..." meanwhile', async () => {
    const release = await holdRequests(page, (url) => url.pathname === '/api/v1/users');
    const lookup = page.getByTestId('recipient-lookup');
    // Typing takes longer than the pause: a lookup per keystroke would already have been made.
    await field(page, RECIPIENT).pressSequentially(recipient.email, { delay: 40 });
    const typed = Date.now();
    expect(lookups).toEqual([]);
    await expect(lookup).toHaveText(TRANSFER_MESSAGES.searching);
    await expect.poll(() => lookups.length).toBe(1);
    expect(lookups[0]?.email).toBe(recipient.email);
    expect(lookups[0]?.at ?? 0).toBeGreaterThanOrEqual(typed + 800);
    release();
    await expect(lookup.locator('dt')).toHaveText(['Name', 'Username', 'Email']);
    await expect(lookup.locator('dd')).toHaveText([recipient.fullname, recipient.username, recipient.email]);
    await expect(field(page, RECIPIENT)).not.toHaveAttribute('aria-invalid', 'true');
    await page.unroute((url) => url.pathname === '/api/v1/users');
    expect(lookups).toHaveLength(1);
  });

  await test.step('an unknown e-mail says no one was found', async () => {
    await field(page, RECIPIENT).fill(`nobody.${Date.now()}@example.com`);
    await expect(field(page, RECIPIENT)).toHaveAccessibleDescription(WALLET_MESSAGES.noUserWithEmail);
    await expect(field(page, RECIPIENT)).toHaveAttribute('aria-invalid', 'true');
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
    // The wallets start chosen (see the first test): unchosen, each says it is required.
    await field(page, 'From account').selectOption('');
    await openWalletChoice(page);
    await field(page, 'To account').selectOption('');
    await send.click();
    await expect(amount).toHaveAccessibleDescription(startsWith(WALLET_MESSAGES.amountRequired));
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'From account')).toHaveAccessibleDescription(TRANSFER_MESSAGES.fromRequired);
    await expect(field(page, 'To account')).toHaveAccessibleDescription(TRANSFER_MESSAGES.toRequired);
    await expect(field(page, RECIPIENT)).toHaveAccessibleDescription(TRANSFER_MESSAGES.recipientRequired);
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
    await expect(field(page, RECIPIENT)).not.toHaveAttribute('aria-invalid', 'true');
  });

  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(posts).toEqual([]);
});

test('a valid transfer: the review, the processing state, the receipt, a reload with a fresh form', async ({
  page,
  browser,
}) => {
  const posts = watchTransferPosts(page);
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($20,000.00)');

  await chooseRecipient(page, recipient);
  await field(page, 'Amount').fill('1234.50');
  await field(page, 'Description (optional)').fill('E2E: lunch money');
  await expect(sendForm(page).getByText('16/200', { exact: true })).toBeVisible();
  const summary = reviewSummary('$1,234.50', recipient.fullname, recipient.username, 'Active Wallet');

  await test.step('"Send Transfer" opens the review; Edit goes back with everything kept, nothing sent', async () => {
    await sendForm(page).getByRole('button', { name: TRANSFER_MESSAGES.send }).click();
    const review = page.getByRole('dialog', { name: TRANSFER_MESSAGES.reviewTitle });
    await expect(review.getByTestId('transfer-summary')).toHaveText(summary);
    await expect(review).toContainText('Active Wallet');
    await expect(review).toContainText(recipient.email);
    await expect(review).toContainText('E2E: lunch money');
    await review.getByRole('button', { name: TRANSFER_MESSAGES.edit }).click();
    await expect(review).toBeHidden();
    await expect(field(page, 'Amount')).toHaveValue('1234.50');
    await expect(field(page, RECIPIENT)).toHaveValue(recipient.email);
    expect(posts).toEqual([]);
  });

  await test.step('Confirm: the button reads "Processing Transfer..." and nothing can be changed', async () => {
    const release = await holdRequests(page, (url) => url.pathname === TRANSFER_POST);
    const review = await reviewAndConfirm(page, summary);
    await expect(review.getByRole('button', { name: TRANSFER_MESSAGES.processing })).toBeDisabled();
    await expect(review.getByRole('button', { name: TRANSFER_MESSAGES.edit })).toBeDisabled();
    for (const label of SPEC_ORDER) await expect(field(page, label)).toBeDisabled();
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === TRANSFER_POST);
    release();
    const response = await answer;
    expect(response.status()).toBe(201);
    const { transfer } = (await response.json()) as {
      transfer: { id: string; status: string; created_at: string };
    };
    expect(transfer.status).toBe('completed');
    sent.lunch = transfer.created_at;
    await page.unroute((url) => url.pathname === TRANSFER_POST);
    expect(posts).toHaveLength(1);

    const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.successTitle });
    await expect(dialog).toContainText(TRANSFER_MESSAGES.successText);
    const receipt = dialog.getByTestId('transfer-receipt');
    await expect(receipt.locator('dt')).toHaveText(['Amount', 'Recipient', 'From', 'Date', 'Reference']);
    await expect(receipt.locator('dd')).toHaveText([
      '$1,234.50',
      `${recipient.fullname} (${recipient.username})`,
      'Active Wallet to Active Wallet',
      shownDate(transfer.created_at),
      transfer.id,
    ]);
  });

  await test.step('closing the receipt reloads the page and the form starts afresh', async () => {
    const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.successTitle });
    await expectReload(page, () => dialog.getByRole('button', { name: 'OK' }).click());
    await expect(page).toHaveURL(/\/user\/transfer-form$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectFreshForm(page, 'business');
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
      // The stacked rows of Recent Activity, not a table: the date and the status stay on screen.
      await expect(other.getByRole('table')).toHaveCount(0);
      const list = other.getByRole('region', { name: 'Transfers you received' });
      await expect(rows(list)).toHaveCount(1);
      const row = rows(list).first();
      await expect(row).toContainText(sender.fullname);
      await expect(row).toContainText(sender.email);
      await expect(amounts(list)).toHaveText(['+$1,234.50']);
      await expect(row.getByTestId('description')).toHaveText('E2E: lunch money');
      await expect(row.getByTestId('date')).toHaveText(DATE_SHAPE);
      await expect(row.getByTestId('date')).toHaveText(shownDate(sent.lunch ?? ''));
      const badge = row.getByText('Completed', { exact: true });
      await expect(badge).toHaveClass(/\bbadge\b.*\bgreen\b/);
      for (const part of [row.getByTestId('date'), badge, row.getByTestId('amount')]) {
        await expect(part).toBeVisible();
        await expectWithinScreen(other, part);
      }
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
  await openWalletChoice(page);
  await field(page, 'To account').selectOption('working');
  await field(page, 'Amount').fill('5000');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === TRANSFER_POST);
  const review = await reviewAndConfirm(
    page,
    reviewSummary('$5,000.00', recipient.fullname, recipient.username, 'Active Wallet'),
  );
  const response = await answer;
  expect(response.status()).toBe(201);
  const { transfer } = (await response.json()) as {
    transfer: { id: string; status: string; created_at: string };
  };
  expect(transfer.status).toBe('pending');
  sent.review = transfer.created_at;
  await expect(review).toBeHidden();

  const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.pendingTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(TRANSFER_MESSAGES.pendingReview(500_000));
  await expect(dialog).not.toContainText(TRANSFER_MESSAGES.successText);
  // Still a receipt: what was sent, to whom, when, and the reference to quote.
  await expect(dialog.getByTestId('transfer-receipt').locator('dd')).toHaveText([
    '$5,000.00',
    `${recipient.fullname} (${recipient.username})`,
    'Active Wallet to Income Working',
    shownDate(transfer.created_at),
    transfer.id,
  ]);
  await expectReload(page, () => dialog.getByRole('button', { name: 'OK' }).click());
  // The tab is in the address: the reload comes back to the form, empty, with the money held.
  await expect(page).toHaveURL(/\/user\/transfer\?tab=transfer$/);
  await expectFreshForm(page, 'business');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($13,765.50)');

  await tabs(page, 'Transfers').filter({ hasText: 'Sent (2)' }).click();
  await expect(page).toHaveURL(/\?tab=sent$/);
  const list = page.getByRole('region', { name: 'Transfers you sent' });
  await expect(rows(list)).toHaveCount(2);
  const newest = rows(list).first();
  await expect(newest).toContainText(recipient.fullname);
  await expect(newest).toContainText(recipient.email);
  await expect(newest.getByTestId('description')).toHaveCount(0);
  await expect(newest.getByTestId('date')).toHaveText(shownDate(transfer.created_at));
  await expect(amounts(list)).toHaveText(['−$5,000.00', '−$1,234.50']);
  await expect(newest.getByText('Pending', { exact: true })).toHaveClass(/\bbadge\b.*\byellow\b/);
  await expect(rows(list).nth(1).getByText('Completed', { exact: true })).toHaveClass(/\bgreen\b/);
  await expectWithinScreen(page, newest.getByText('Pending', { exact: true }));
});

test('a member who cannot send is told so before typing, and Send stays disabled', async ({ page }) => {
  const posts = watchTransferPosts(page);
  // The quiet member is still inactive (RULES.md: only active members send), with $50.00 to send.
  await signInMember(page, quiet);
  await page.goto('/user/transfer-form');
  const notice = sendForm(page).getByTestId('sender-notice');
  await expect(notice.getByRole('heading', { name: TRANSFER_MESSAGES.cannotSendTitle })).toBeVisible();
  await expect(notice).toContainText(TRANSFER_MESSAGES.inactiveNotice);
  // What to do next: accounts are activated by an admin, reached through Support.
  await expect(notice.getByRole('link', { name: TRANSFER_MESSAGES.contactSupport })).toHaveAttribute(
    'href',
    '/user/query/create',
  );
  const send = sendForm(page).getByRole('button', { name: TRANSFER_MESSAGES.send });
  await expect(send).toBeDisabled();
  await expect(send).toHaveAccessibleDescription(new RegExp(escapeRegExp(TRANSFER_MESSAGES.inactiveNotice)));
  // The notice comes before the first field.
  const noticeBox = await notice.boundingBox();
  const emailBox = await field(page, RECIPIENT).boundingBox();
  expect(noticeBox?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(emailBox?.y ?? 0);
  // The form still shows what they hold: From on the Active Wallet, the one with money.
  await expect(field(page, 'From account')).toHaveValue('business');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($50.00)');
  await chooseRecipient(page, sender);
  await field(page, 'Amount').fill('10');
  await field(page, 'Amount').press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(send).toBeDisabled();
  expect(posts).toEqual([]);

  await test.step('the Transfer tab says the same', async () => {
    await page.goto('/user/transfer?tab=transfer');
    await expect(sendForm(page).getByTestId('sender-notice')).toContainText(TRANSFER_MESSAGES.inactiveNotice);
    await expect(sendForm(page).getByRole('button', { name: TRANSFER_MESSAGES.send })).toBeDisabled();
  });
});

test('with both wallets empty no source is chosen: there is nothing to send yet', async ({
  page,
  request,
}) => {
  const empty = newMember('empty');
  await registerByApi(request, empty);
  await signInMember(page, empty);
  await page.goto('/user/transfer-form');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($0.00)');
  await expect(field(page, 'From account')).toHaveValue('');
  await expect(field(page, 'To account')).toHaveValue('business');
});

test('a transfer the server refuses: its reason without "Please try again", then the values come back', async ({
  page,
}) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await expect(field(page, 'From account').locator('option').nth(2)).toHaveText('Income Working ($300.00)');
  // The admin has blocked this member: the lookup finds them, the server refuses to pay them.
  await chooseRecipient(page, blocked);
  await field(page, 'Amount').fill('12.34');
  await field(page, 'From account').selectOption('working');
  await field(page, 'Description (optional)').fill('E2E: kept after a refusal');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === TRANSFER_POST);
  await reviewAndConfirm(page, reviewSummary('$12.34', blocked.fullname, blocked.username, 'Income Working'));
  expect((await answer).status()).toBe(422);

  const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.failedTitle });
  await expect(dialog.getByRole('alert')).toHaveText(TRANSFER_MESSAGES.recipientBlocked);
  // Sending it again would be refused again: no "Please try again".
  await expect(dialog).not.toContainText('Please try again');
  await expect(dialog).toContainText(TRANSFER_MESSAGES.valuesKept);

  // Money arrives meanwhile: the form that comes back shows the balance of now.
  await creditByApi(admin, ids.sender, '1.00', 'working');
  await expectReload(page, () => dialog.getByRole('button', { name: 'Close', exact: true }).click());
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(field(page, RECIPIENT)).toHaveValue(blocked.email);
  await expect(field(page, 'Amount')).toHaveValue('12.34');
  await expect(field(page, 'From account')).toHaveValue('working');
  await expect(field(page, 'To account')).toHaveValue('business');
  await expect(field(page, 'Description (optional)')).toHaveValue('E2E: kept after a refusal');
  await expect(page.getByTestId('recipient-lookup').locator('dd')).toHaveText([
    blocked.fullname,
    blocked.username,
    blocked.email,
  ]);
  await expect(field(page, 'From account').locator('option').nth(2)).toHaveText('Income Working ($301.00)');

  // Kept for that one reload only: another reload starts afresh.
  await page.reload();
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($13,765.50)');
  await expectFreshForm(page, 'business');
});

test('no answer at all: "Something went wrong", never the browser\'s words, and the values come back', async ({
  page,
}) => {
  await signInMember(page, sender);
  await page.goto('/user/transfer-form');
  await expect(field(page, 'From account').locator('option').nth(1)).toHaveText('Active Wallet ($13,765.50)');

  await test.step('the recipient lookup', async () => {
    const isLookup = (url: URL) => url.pathname === '/api/v1/users';
    await page.route(isLookup, (route) => route.abort('internetdisconnected'));
    await field(page, RECIPIENT).fill(recipient.email);
    await expect(field(page, RECIPIENT)).toHaveAccessibleDescription(TRANSFER_MESSAGES.fallback);
    await page.unroute(isLookup);
  });

  await test.step('the transfer itself: the spec\'s "Please try again", as trying again can help', async () => {
    await field(page, RECIPIENT).fill('');
    await chooseRecipient(page, recipient);
    await field(page, 'Amount').fill('7.25');
    const isSend = (url: URL) => url.pathname === TRANSFER_POST;
    await page.route(isSend, (route) => route.abort('internetdisconnected'));
    await reviewAndConfirm(
      page,
      reviewSummary('$7.25', recipient.fullname, recipient.username, 'Active Wallet'),
    );
    const dialog = page.getByRole('dialog', { name: TRANSFER_MESSAGES.failedTitle });
    await expect(dialog.getByRole('alert')).toHaveText(TRANSFER_MESSAGES.failedText);
    await expect(dialog).not.toContainText('Failed to fetch');
    await page.unroute(isSend);
    await expectReload(page, () => dialog.getByRole('button', { name: 'Close', exact: true }).click());
    await expect(field(page, 'Amount')).toHaveValue('7.25');
    await expect(field(page, RECIPIENT)).toHaveValue(recipient.email);
    // Nothing left: the balance is what it was.
    await expect(field(page, 'From account').locator('option').nth(1)).toHaveText(
      'Active Wallet ($13,765.50)',
    );
  });
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

  await test.step('"Send money" beside "Receive" opens the transfer form', async () => {
    const send = page.getByRole('link', { name: TRANSFER_MESSAGES.sendMoney });
    await expect(send).toHaveClass(/\bprimary\b/);
    await expect(page.getByRole('button', { name: 'Receive' })).toBeVisible();
    await send.click();
    await expect(page).toHaveURL(/\/user\/transfer-form$/);
    await expect(fieldLabels(page)).toHaveText(SPEC_ORDER);
  });

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
    for (const [index, amount] of ['−$30.00', '−$20.00', '−$10.00', '−$5,000.00'].entries()) {
      await expect(recent.nth(index + 1)).toContainText(`To ${recipient.fullname}`);
      await expect(recent.nth(index + 1)).toContainText(amount);
    }
    await expect(recent.nth(4)).toContainText(shownDate(sent.review ?? ''));
    await expect(recent.nth(4).getByText('Pending')).toHaveClass(/\byellow\b/);
    // The oldest, the $1,234.50 of the first transfer, is left out.
    await expect(page.getByTestId('recent-activity')).not.toContainText('1,234.50');
  });

  await test.step('the Sent and Received lists', async () => {
    await tabs(page, 'Transfers').filter({ hasText: 'Sent (5)' }).click();
    const sentList = page.getByRole('region', { name: 'Transfers you sent' });
    await expect(amounts(sentList)).toHaveText(['−$30.00', '−$20.00', '−$10.00', '−$5,000.00', '−$1,234.50']);
    await expect(statuses(sentList)).toHaveText([
      'Completed',
      'Completed',
      'Completed',
      'Pending',
      'Completed',
    ]);
    await tabs(page, 'Transfers').filter({ hasText: 'Received (1)' }).click();
    await expect(page).toHaveURL(/\?tab=received$/);
    const receivedList = page.getByRole('region', { name: 'Transfers you received' });
    await expect(rows(receivedList)).toHaveCount(1);
    const row = rows(receivedList).first();
    await expect(row).toContainText(recipient.fullname);
    await expect(row).toContainText(recipient.email);
    await expect(amounts(receivedList)).toHaveText(['+$250.00']);
    await expect(row.getByTestId('description')).toHaveText('E2E: paid back');
    await expect(row.getByTestId('date')).toHaveText(shownDate(back.created_at));
    await expect(statuses(receivedList)).toHaveText(['Completed']);
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
    const all = page.getByRole('region', { name: 'All transfers' });
    await expect(amounts(all)).toHaveText([
      '+$250.00',
      '−$30.00',
      '−$20.00',
      '−$10.00',
      '−$5,000.00',
      '−$1,234.50',
    ]);
    await expect(rows(all).first().getByTestId('date')).toHaveText(DATE_SHAPE);

    await historyTabs.filter({ hasText: 'Incoming (1)' }).click();
    await expect(page).toHaveURL(/\?tab=incoming$/);
    await expect(rows(page.getByRole('region', { name: 'Incoming transfers' }))).toHaveCount(1);
    await historyTabs.filter({ hasText: 'Outgoing (5)' }).click();
    const outgoing = page.getByRole('region', { name: 'Outgoing transfers' });
    await expect(rows(outgoing)).toHaveCount(5);
    await expect(rows(outgoing).last().getByTestId('date')).toHaveText(shownDate(sent.lunch ?? ''));
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
    // Words that say what to do, with the spec's status line as the detail.
    await expect(error).toContainText(GENERIC.internal);
    await expect(error).toContainText('HTTP error! status: 500');
    await expect(page.getByRole('tablist')).toHaveCount(0);
    // The page's title stays; the rest of the app is unaffected.
    await expect(page.getByRole('heading', { name: TRANSFER_MESSAGES.title })).toBeVisible();

    await test.step('the history view, on the same failure, empties its lists and zeroes its statistics', async () => {
      await page.goto('/user/transfer-history');
      await expect(page.getByRole('alert')).toHaveText(`${GENERIC.internal}HTTP error! status: 500`);
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
  test('after data was shown, a failed reload empties the history and zeroes its statistics', async ({
    page,
  }) => {
    await signInMember(page, sender);
    await page.goto('/user/transfer');
    await page.getByRole('link', { name: 'Full transfer history' }).click();
    const historyTabs = tabs(page, 'Transfer history');
    await expect(historyTabs).toHaveText(['Overview', 'Outgoing (5)', 'Incoming (1)', 'All (6)']);

    const isHistory = (url: URL) => url.pathname.startsWith(HISTORY_PATH);
    await page.route(isHistory, (route) =>
      route.fulfill({ status: 500, json: { message: 'Something went wrong' } }),
    );
    // Back to the dashboard and forward again, inside the app: the history is asked for again and fails.
    await page.goBack();
    await expect(page.getByRole('heading', { name: TRANSFER_MESSAGES.errorTitle })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole('alert')).toHaveText(`${GENERIC.internal}HTTP error! status: 500`);
    await expect(historyTabs).toHaveText(['Overview', 'Outgoing (0)', 'Incoming (0)', 'All (0)']);
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
    await historyTabs.filter({ hasText: 'All (0)' }).click();
    await expect(page.getByText(TRANSFER_MESSAGES.noActivity)).toBeVisible();
    await expect(page.getByText('−$30.00')).toHaveCount(0);
  });

  test('no answer at all: the history screens say "Something went wrong" and that the server did not answer, not the browser\'s words', async ({
    page,
  }) => {
    await signInMember(page, sender);
    await page.route(
      (url) => url.pathname.startsWith(HISTORY_PATH),
      (route) => route.abort('internetdisconnected'),
    );
    await page.goto('/user/transfer');
    const error = page.getByRole('alert').filter({ hasText: TRANSFER_MESSAGES.errorTitle });
    await expect(error.getByRole('paragraph')).toHaveText([TRANSFER_MESSAGES.fallback, GENERIC.noAnswer]);
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);

    await page.goto('/user/transfer-history');
    await expect(page.getByRole('alert')).toHaveText(`${TRANSFER_MESSAGES.fallback}${GENERIC.noAnswer}`);
    await expect(tabs(page, 'Transfer history')).toHaveText([
      'Overview',
      'Outgoing (0)',
      'Incoming (0)',
      'All (0)',
    ]);
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
  });
});
