import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { AUTH } from '../../src/shared/messages.ts';
import { ADJUSTMENT_TEXT, MEMBER_ADMIN_MESSAGES, USER_MESSAGES } from '../../src/shared/users.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  type Member,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';

const ANDROID_PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

// Support staff on a desktop screen (issue 8): the members list (search, filter, sort, balances, join
// date, CSV of the filter), one member's profile (details, balances, sponsor, ledger, sessions, the edit
// form with its 3-second banners), a balance adjustment from the profile (confirmed in words, with the
// balance after), blocking and unblocking a member who is signed in elsewhere, deleting (erased when
// there is no history, deactivated when there is; the banner follows to the list and clears after 3 s)
// and the audit log of all of it in words. Every table fits a 1366 px laptop (issue 22).
// Five registrations for the file, through the API (an address of their own each).

test.describe.configure({ mode: 'serial' });

const RUN = `u${Date.now().toString(36).slice(-5)}`;
const rich = newMember(`${RUN}rich`);
const plain = newMember(`${RUN}plain`);
const blocked = newMember(`${RUN}block`);
const referred = newMember(`${RUN}referred`);
// Outside the RUN search on purpose: erased from the profile, it never changes the list's counts.
const erasable = newMember(`x${Date.now().toString(36).slice(-4)}erase`);
const ids = { rich: '', plain: '', blocked: '', referred: '', erasable: '' };
const TICKET_SUBJECT = `E2E ${RUN} my deposit has not arrived`;
const RENAMED = `E2e ${RUN} Renamed Tester`;

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const visitor = await playwright.request.newContext({ baseURL });
  for (const m of [rich, plain, blocked, erasable]) await registerByApi(visitor, m);
  await visitor.dispose();

  // rich sponsors `referred`, holds money, and is signed in once (a session to see and end).
  const richContext = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { 'User-Agent': ANDROID_PHONE_UA },
  });
  await signInByApi(richContext, rich);
  const code = (
    (await (await richContext.get('/api/v1/auth/session')).json()) as { auth: { refferal_code: string } }
  ).auth.refferal_code;
  // A support ticket, so the admin's tickets list has a row of this run to measure and open.
  const ticket = await richContext.post('/api/v1/tickets', {
    headers: await csrfHeaders(richContext),
    data: { subject: TICKET_SUBJECT, category: 'deposit', message: 'E2E: sent an hour ago, nothing yet.' },
  });
  expect(ticket.status(), await ticket.text()).toBe(201);
  await richContext.dispose();
  const referrer = await playwright.request.newContext({ baseURL });
  await registerByApi(referrer, referred, code);
  await referrer.dispose();

  const admin = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(admin);
  for (const key of ['rich', 'plain', 'blocked', 'referred', 'erasable'] as const)
    ids[key] = await memberIdOf(admin, { rich, plain, blocked, referred, erasable }[key].email);
  await creditByApi(admin, ids.rich, '250.00');
  await creditByApi(admin, ids.rich, '10.00', 'working');
  await admin.dispose();
});

async function signInAdmin(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

const membersTable = (page: Page) => page.getByTestId('members');
const rowOf = (page: Page, member: Member): Locator =>
  membersTable(page).locator('tbody tr').filter({ hasText: member.email });

async function searchMembers(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search name, username, e-mail or phone').fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text)}`));
}

async function openProfile(page: Page, member: Member, id: string): Promise<void> {
  await page.goto(`/admin/check/profile/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(member.fullname);
}

/**
 * A mouse click where the element is, as a person clicks: in a row that opens its item the row's link
 * lies over the cell (Playwright's own click would refuse an element covered by another).
 */
async function clickOn(page: Page, target: Locator): Promise<void> {
  // Scrolled to first, as a person would: a row below the fold is not under the mouse.
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('the element is not on screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** A banner that shows, then clears itself about 3 s later (spec 4). */
async function expectBannerClears(banner: Locator, text: string): Promise<void> {
  await expect(banner).toHaveText(text);
  const shownAt = Date.now();
  await expect(banner).toBeHidden({ timeout: 6000 });
  expect(Date.now() - shownAt).toBeGreaterThan(2000);
}

test('the members list: search, filter, sort, balances, join dates and the CSV of the filter', async ({
  page,
}) => {
  await signInAdmin(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/admin\/users/);
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();

  await searchMembers(page, RUN);
  await expect(membersTable(page).locator('tbody tr')).toHaveCount(4);
  await expect(page.getByTestId('members-page')).toHaveText('Page 1 of 1 (4 members)');
  const richRow = rowOf(page, rich);
  await expect(richRow).toContainText(rich.fullname);
  await expect(richRow).toContainText(rich.username);
  await expect(richRow).toContainText(rich.phone);
  await expect(richRow).toContainText('Unblocked');
  await expect(richRow).toContainText('Inactive');
  await expect(richRow.getByRole('cell').nth(2)).toHaveText('$250.00');
  await expect(richRow.getByRole('cell').nth(3)).toHaveText('$10.00');
  await expect(richRow.getByRole('cell').nth(4)).toHaveText(
    /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
  );
  await expect(rowOf(page, plain).getByRole('cell').nth(2)).toHaveText('$0.00');

  await test.step('at 1366 px the table fits: no sideways scroll, no clipped "Delete", no word broken', async () => {
    await expect(richRow.getByRole('button', { name: `Delete ${rich.fullname}` })).toBeInViewport({
      ratio: 1,
    });
    await expectTablesFit(page.getByRole('main'));
  });

  await test.step('search by username, e-mail and phone, whatever the case', async () => {
    await searchMembers(page, plain.username.toUpperCase());
    await expect(membersTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(rowOf(page, plain)).toHaveCount(1);
    await searchMembers(page, blocked.email);
    await expect(membersTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(rowOf(page, blocked)).toHaveCount(1);
    await searchMembers(page, 'no-member-is-called-this');
    await expect(page.getByTestId('members-empty')).toHaveText('No members match this search.');
    await searchMembers(page, RUN);
  });

  await test.step('sort by Active Wallet: the member with the most money comes first, then last', async () => {
    await membersTable(page).getByRole('button', { name: 'Active Wallet' }).click();
    await expect(page).toHaveURL(/sort=business/);
    await expect(page).toHaveURL(/order=desc/);
    await expect(membersTable(page).locator('tbody tr').first()).toContainText(rich.email);
    await membersTable(page).getByRole('button', { name: 'Active Wallet' }).click();
    await expect(page).toHaveURL(/order=asc/);
    await expect(membersTable(page).locator('tbody tr').last()).toContainText(rich.email);
    await membersTable(page).getByRole('button', { name: 'Member' }).click();
    await expect(page).toHaveURL(/sort=fullname/);
    // The URL changes before the sorted page arrives (the previous rows stay shown meanwhile): wait for it.
    const byName = (names: string[]) =>
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    const cells = membersTable(page).locator('tbody tr td:first-child a');
    await expect
      .poll(async () => {
        const names = await cells.allTextContents();
        return names.length === 4 && names.join('|') === byName(names).join('|');
      })
      .toBe(true);
  });

  await test.step('the CSV holds the current filter, in the list’s order', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]?.startsWith('id,fullname,username,email,phone,status,is_active')).toBe(true);
    expect(lines).toHaveLength(5);
    const richLine = lines.find((l) => l.includes(rich.email));
    expect(richLine).toContain(',250.00,10.00,');
  });

  await test.step('filter by status and by the active flag', async () => {
    await page.getByLabel('Active', { exact: true }).selectOption('active');
    await expect(page).toHaveURL(/is_active=active/);
    await expect(page.getByTestId('members-empty')).toBeVisible();
    await page.getByLabel('Active', { exact: true }).selectOption('');
    await page.getByLabel('Status', { exact: true }).selectOption('unblock');
    await expect(membersTable(page).locator('tbody tr')).toHaveCount(4);
    await page.getByLabel('Status', { exact: true }).selectOption('block');
    await expect(page.getByTestId('members-empty')).toBeVisible();
  });
});

test('a member’s profile: details, balances, sponsor and team, ledger, sessions; the edit form saves with banners that clear', async ({
  page,
}) => {
  await signInAdmin(page);
  await page.goto(`/admin/users?search=${RUN}`);
  // The whole row opens the profile: a click on the e-mail cell, not on the name's link.
  await clickOn(page, rowOf(page, rich).getByRole('cell').nth(1));
  await expect(page).toHaveURL(new RegExp(`/admin/check/profile/${ids.rich}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(rich.fullname);

  const facts = page.getByTestId('member-facts');
  await expect(facts).toContainText(ids.rich);
  await expect(facts).toContainText(rich.email);
  await expect(facts.locator('div').filter({ hasText: 'Direct team' })).toContainText('1');
  await expect(page.getByTestId('balance-business')).toContainText('$250.00');
  await expect(page.getByTestId('balance-working')).toContainText('$10.00');
  const ledger = page.getByTestId('member-ledger');
  await expect(ledger.locator('tbody tr')).toHaveCount(2);
  await expect(ledger.locator('tbody tr').filter({ hasText: '+$250.00' })).toContainText(
    'Platform adjustments',
  );
  const sessions = page.getByTestId('member-sessions');
  await expect(sessions.locator('tbody tr')).toHaveCount(1);
  // The device as a person reads it; the whole user agent is a hover away.
  await expect(sessions.getByText('Chrome on Android')).toHaveAttribute('title', ANDROID_PHONE_UA);
  await expectTablesFit(page.getByRole('main'));

  // The referred member's sponsor is this member.
  await openProfile(page, referred, ids.referred);
  await expect(page.getByTestId('member-facts')).toContainText(
    `${rich.fullname} (${rich.username}, ${rich.email})`,
  );
  await openProfile(page, rich, ids.rich);

  const form = page.getByRole('form', { name: 'Edit member' });
  await test.step('the role is shown but cannot be changed; no password anywhere', async () => {
    await expect(form.getByLabel('Role')).toBeDisabled();
    await expect(form.getByLabel('Role')).toHaveValue('user');
    await expect(page.getByLabel(/password/i)).toHaveCount(0);
  });

  await test.step('a bad e-mail: the server’s message on the field and in an error banner that clears', async () => {
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
    await expectBannerClears(page.getByTestId('banner-error'), 'Please enter a valid email address');
    await form.getByLabel('Email').fill(rich.email);
  });

  await test.step('Save Changes: only the edited fields go, with updated_at; a success banner that clears', async () => {
    await form.getByLabel('Full name').fill(RENAMED);
    await form.getByLabel('Phone').fill('+44 7700 900123');
    await form.getByLabel('Business', { exact: true }).fill('5000');
    await form.getByLabel('ROI status').selectOption('close');
    const saving = page.waitForRequest(
      (r) => r.method() === 'PUT' && r.url().endsWith(`/api/v1/users/${ids.rich}`),
    );
    await form.getByRole('button', { name: 'Save Changes' }).click();
    const body = (await saving).postDataJSON() as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['business', 'fullname', 'phone', 'roi_status', 'updated_at']);
    expect(Number.isNaN(Date.parse(body.updated_at ?? ''))).toBe(false);
    await expectBannerClears(page.getByTestId('banner-success'), USER_MESSAGES.updated);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(RENAMED);
    await expect(form.getByLabel('Phone')).toHaveValue('+447700900123');
    await expect(form.getByLabel('Business', { exact: true })).toHaveValue('5000.00');
    // The override figure moved no money.
    await expect(page.getByTestId('balance-business')).toContainText('$250.00');
  });

  await test.step('End all sessions signs the member out everywhere', async () => {
    await page.getByRole('button', { name: 'End all sessions' }).click();
    await expect(page.getByTestId('banner-success')).toHaveText(MEMBER_ADMIN_MESSAGES.sessionsEnded);
    await expect(page.getByTestId('no-sessions')).toBeVisible();
  });
});

test('an adjustment from the member’s profile: confirmed in words, with the balance before and after', async ({
  page,
}) => {
  const keys: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/admin/adjustments')
      keys.push(request.headers()['idempotency-key']);
  });
  await signInAdmin(page);
  await openProfile(page, referred, ids.referred);
  await expect(page.getByTestId('balance-business')).toContainText('$0.00');
  const adjust = page.getByRole('region', { name: 'Adjust the balance' });
  // The member is the profile's: no e-mail to look up.
  await expect(adjust.getByLabel('Member e-mail')).toHaveCount(0);

  await test.step('Go back in the confirmation moves nothing', async () => {
    await adjust.getByLabel('Amount').fill('500');
    await adjust.getByLabel('Reason').fill('E2E: welcome bonus agreed by phone');
    await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
    const confirm = page.getByRole('dialog', { name: ADJUSTMENT_TEXT.confirmTitle });
    await expect(confirm.getByTestId('adjustment-question')).toHaveText(
      `Credit $500.00 to ${referred.fullname}'s Active Wallet?`,
    );
    await expect(confirm.getByTestId('adjustment-balance-now')).toHaveText('Active Wallet now holds $0.00.');
    await expect(confirm.getByTestId('adjustment-balance-after')).toHaveText(
      'After this adjustment: $500.00.',
    );
    await confirm.getByRole('button', { name: 'Go back' }).click();
    await expect(confirm).toBeHidden();
    expect(keys).toEqual([]);
  });

  await test.step('confirmed, the credit lands and the dialog says the new balance', async () => {
    await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
    const confirm = page.getByRole('dialog', { name: ADJUSTMENT_TEXT.confirmTitle });
    await confirm.getByRole('button', { name: ADJUSTMENT_TEXT.confirmButton }).click();
    const done = page.getByRole('dialog', { name: 'Success' });
    await expect(done).toContainText(WALLET_MESSAGES.adjusted);
    await expect(done.getByTestId('adjustment-new-balance')).toHaveText(
      `${referred.fullname}'s Active Wallet now holds $500.00.`,
    );
    await done.getByRole('button', { name: 'Go back' }).click();
    await expect(page.getByTestId('balance-business')).toContainText('$500.00');
    await expect(adjust.getByLabel('Amount')).toHaveValue('');
  });

  await test.step('a debit asks "Debit … from …" and leaves the rest', async () => {
    await adjust.getByRole('radio', { name: 'Debit' }).check();
    await adjust.getByLabel('Amount').fill('120.50');
    await adjust.getByLabel('Reason').fill('E2E: part of the bonus reversed');
    await adjust.getByRole('button', { name: 'Apply adjustment' }).click();
    const confirm = page.getByRole('dialog', { name: ADJUSTMENT_TEXT.confirmTitle });
    await expect(confirm.getByTestId('adjustment-question')).toHaveText(
      `Debit $120.50 from ${referred.fullname}'s Active Wallet?`,
    );
    await expect(confirm.getByTestId('adjustment-balance-now')).toHaveText(
      'Active Wallet now holds $500.00.',
    );
    await expect(confirm.getByTestId('adjustment-balance-after')).toHaveText(
      'After this adjustment: $379.50.',
    );
    await confirm.getByRole('button', { name: ADJUSTMENT_TEXT.confirmButton }).click();
    const done = page.getByRole('dialog', { name: 'Success' });
    await expect(done.getByTestId('adjustment-new-balance')).toHaveText(
      `${referred.fullname}'s Active Wallet now holds $379.50.`,
    );
    await done.getByRole('button', { name: 'Go back' }).click();
    await expect(page.getByTestId('balance-business')).toContainText('$379.50');
    await expect(page.getByTestId('member-ledger').locator('tbody tr')).toHaveCount(2);
  });

  // One key per confirmed submission, none for the one called off.
  expect(keys).toHaveLength(2);
  expect(keys[0]).not.toBe(keys[1]);
});

async function memberPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test('blocking a signed-in member ends their session and stops sign-in with a clear message; unblocking restores access', async ({
  page,
  browser,
}, testInfo) => {
  const member = await memberPage(browser, testInfo.project.use.baseURL);
  await signInMember(member, blocked);

  await signInAdmin(page);
  await openProfile(page, blocked, ids.blocked);
  const form = page.getByRole('form', { name: 'Edit member' });
  await expect(page.getByTestId('member-sessions').locator('tbody tr')).toHaveCount(1);
  await form.getByLabel('Status', { exact: true }).selectOption('block');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('banner-success')).toHaveText(USER_MESSAGES.updated);
  await expect(page.getByText('Blocked', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('no-sessions')).toBeVisible();

  await test.step('the member is signed out at once and told why when signing in', async () => {
    await member.reload();
    await expect(member).toHaveURL(/\/login/);
    await fillSignIn(member, blocked.email, blocked.password);
    const dialog = member.getByRole('dialog', { name: 'Error' });
    await expect(dialog).toContainText(AUTH.blocked);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  });

  await test.step('unblocked, the member signs in again', async () => {
    await form.getByLabel('Status', { exact: true }).selectOption('unblock');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByTestId('banner-success')).toHaveText(USER_MESSAGES.updated);
    await signInMember(member, blocked);
  });
  await member.context().close();
});

test('deleting: a member without history is erased from the list; one with money is deactivated, and the dialog says so first', async ({
  page,
}) => {
  await signInAdmin(page);
  await page.goto(`/admin/users?search=${RUN}`);
  await expect(membersTable(page).locator('tbody tr')).toHaveCount(4);

  await test.step('Go back leaves the member as they were', async () => {
    await rowOf(page, plain)
      .getByRole('button', { name: `Delete ${plain.fullname}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await expect(dialog).toContainText('Are you sure you want to delete this item?');
    await expect(dialog.getByTestId('deletion-outcome')).toContainText('will be erased for good');
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, plain)).toHaveCount(1);
  });

  await test.step('no history: erased, gone from the list', async () => {
    await rowOf(page, plain)
      .getByRole('button', { name: `Delete ${plain.fullname}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await expect(dialog.getByTestId('deletion-outcome')).toContainText('will be erased for good');
    const deleting = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().endsWith(`/api/v1/users/${ids.plain}`),
    );
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    expect((await deleting).status()).toBe(200);
    await expect(rowOf(page, plain)).toHaveCount(0);
    await expect(membersTable(page).locator('tbody tr')).toHaveCount(3);
    await expectBannerClears(page.getByTestId('banner-success'), MEMBER_ADMIN_MESSAGES.erased);
  });

  await test.step('erased from the profile: back on the list, the banner is there to read, then clears', async () => {
    await openProfile(page, erasable, ids.erasable);
    await page.getByRole('button', { name: 'Delete member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await expect(dialog.getByTestId('deletion-outcome')).toContainText('will be erased for good');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/users/);
    await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
    await expectBannerClears(page.getByTestId('banner-success'), MEMBER_ADMIN_MESSAGES.erased);
  });

  await test.step('money and history: the dialog says why, and the member is blocked and deactivated', async () => {
    await openProfile(page, { ...rich, fullname: RENAMED }, ids.rich);
    await page.getByRole('button', { name: 'Delete member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    const outcome = dialog.getByTestId('deletion-outcome');
    await expect(outcome).toContainText('This member will not be erased.');
    await expect(outcome).toContainText('Active Wallet holds $250.00');
    await expect(outcome).toContainText('Income Working holds $10.00');
    await expect(outcome).toContainText('2 ledger transfers');
    await expect(outcome).toContainText('sponsors 1 member');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectBannerClears(page.getByTestId('banner-success'), MEMBER_ADMIN_MESSAGES.deactivated);
    await expect(page.locator('.page-head .badge').first()).toHaveText('Blocked');
    await expect(page.locator('.page-head .badge').nth(1)).toHaveText('Inactive');
    await expect(page.getByTestId('balance-business')).toContainText('$250.00');
  });
});

test('the audit log on Reports: what happened in words, only what changed, ids behind Details; by member and by admin', async ({
  page,
}) => {
  await signInAdmin(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/admin\/reports/);
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();

  const filterByMember = async (text: string) => {
    await page.getByLabel('Member (e-mail, username or id)').fill(text);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  await filterByMember(rich.email);
  const table = page.getByTestId('audit-table');
  const rows = table.locator('tbody tr');
  await expect(rows.filter({ hasText: 'Blocked and deactivated member instead of deleting' })).toHaveCount(1);
  const actions = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')));
  expect(actions.sort()).toEqual(
    ['user.deactivate', 'user.sessions_end', 'user.update', 'wallet.credit', 'wallet.credit'].sort(),
  );
  await expectTablesFit(page.getByRole('main'));

  await test.step('a money entry names the wallet and shows only the balance that moved', async () => {
    const credits = table.locator('tr[data-action="wallet.credit"]');
    await expect(credits.filter({ hasText: 'Credited Active Wallet' })).toHaveCount(1);
    const working = credits.filter({ hasText: 'Credited Income Working' });
    await expect(working.locator('.audit-changes li')).toHaveText(['Income Working: $0.00 → $10.00']);
  });

  const edit = table.locator('tr[data-action="user.update"]');
  await test.step('an edit: the admin, the member, and the four fields that changed, by their names', async () => {
    await expect(edit).toContainText('Edited member');
    await expect(edit).toContainText('Administrator');
    await expect(edit).toContainText(RENAMED);
    const changes = edit.locator('.audit-changes li');
    await expect(changes).toHaveCount(4);
    await expect(changes.filter({ hasText: 'Full name:' })).toHaveText(
      `Full name: ${rich.fullname} → ${RENAMED}`,
    );
    await expect(changes.filter({ hasText: 'Business:' })).toHaveText(
      /^Business: \$[\d,]+\.\d{2} → \$5,000\.00$/,
    );
    await expect(changes.filter({ hasText: 'ROI status:' })).toHaveText('ROI status: Open → Closed');
    await expect(edit.getByRole('cell').nth(0)).toHaveText(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
    );
  });

  await test.step('ids and the stored values wait behind Details', async () => {
    const raw = edit.locator('.audit-details pre').first();
    await expect(raw).toBeHidden();
    await expect(edit.getByText(ids.rich)).toBeHidden();
    await edit.getByText('Details', { exact: true }).click();
    await expect(raw).toBeVisible();
    await expect(raw).toContainText(`"fullname": "${rich.fullname}"`);
    await expect(edit.getByText(ids.rich)).toBeVisible();
    await expect(edit.getByText(E2E_ADMIN.email)).toBeVisible();
    await expectTablesFit(page.getByRole('main'));
    await edit.getByText('Details', { exact: true }).click();
    await expect(raw).toBeHidden();
  });

  const deactivated = table.locator('tr[data-action="user.deactivate"]');
  await expect(deactivated.locator('.audit-changes li')).toContainText(['Status: Unblocked → Blocked']);
  await expect(deactivated).toContainText('Active Wallet holds $250.00');

  await test.step('the erased member’s entries remain, marked erased', async () => {
    await filterByMember(ids.plain);
    const erased = page.getByTestId('audit-table').locator('tr[data-action="user.delete"]');
    await expect(erased).toContainText('Erased member');
    await expect(erased).toContainText(plain.email);
    await expect(erased).toContainText('erased');
  });

  await test.step('by admin: the run’s admin made these changes; the filter is in the address', async () => {
    await filterByMember(blocked.email);
    await page
      .getByRole('combobox', { name: 'Admin' })
      .selectOption({ label: `Administrator (${E2E_ADMIN.email})` });
    await expect(page).toHaveURL(/admin=/);
    const edits = page.getByTestId('audit-table').locator('tr[data-action="user.update"]');
    await expect(edits).toHaveCount(2);
    await expect(edits.first()).toContainText('Unblocked member');
    await expect(edits.first().locator('.audit-changes li')).toHaveText(['Status: Blocked → Unblocked']);
    await expect(edits.last()).toContainText('Blocked member');
    await expect(edits.last().locator('.audit-changes li')).toHaveText(['Status: Unblocked → Blocked']);
    await page.reload();
    await expect(page.getByTestId('audit-table').locator('tr[data-action="user.update"]')).toHaveCount(2);
  });
});

test('the support tickets list fits at 1366 px and each whole row opens its ticket', async ({ page }) => {
  await signInAdmin(page);
  await page.goto(`/admin/tickets?search=${encodeURIComponent(rich.email)}`);
  const rows = page.getByTestId('admin-tickets').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(TICKET_SUBJECT);
  await expectTablesFit(page.getByRole('main'));
  await clickOn(page, rows.first().getByRole('cell').nth(2));
  await expect(page).toHaveURL(/\/admin\/ticket\/[^/]+$/);
  await expect(page.getByText(TICKET_SUBJECT).first()).toBeVisible();
});

test('the Invested filter: "Never" shows only the members without a top-up, and the count says so', async ({
  page,
  playwright,
}, testInfo) => {
  // The referred member buys a plan of their own; rich and blocked never invested.
  const baseURL = testInfo.project.use.baseURL;
  const admin = await playwright.request.newContext({ baseURL });
  const buyer = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(admin);
    const plan = await admin.post('/api/v1/plans/add', {
      headers: await csrfHeaders(admin),
      data: {
        name: `E2E ${RUN} invested`,
        min_amount: '10.00',
        max_amount: '500.00',
        roi_percent: '1.00',
        duration_days: 30,
      },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    const planId = ((await plan.json()) as { plan: { id: string } }).plan.id;
    await signInByApi(buyer, referred);
    const topup = await buyer.post('/api/v1/topup/add', {
      headers: { ...(await csrfHeaders(buyer)), 'Idempotency-Key': crypto.randomUUID() },
      data: { plan_id: planId, amount: '100.00' },
    });
    expect(topup.status(), await topup.text()).toBe(201);
    // Closed again, so no member screen of another spec offers this run's plan.
    const closed = await admin.put(`/api/v1/plans/${planId}`, {
      headers: await csrfHeaders(admin),
      data: { status: 'inactive' },
    });
    expect(closed.status(), await closed.text()).toBe(200);
  } finally {
    await admin.dispose();
    await buyer.dispose();
  }

  await signInAdmin(page);
  await page.goto(`/admin/users?search=${RUN}`);
  const rows = membersTable(page).locator('tbody tr');
  const invested = page.getByLabel('Invested', { exact: true });
  await expect(rows).toHaveCount(3);
  await expect(invested).toHaveValue('any');

  await invested.selectOption('never');
  await expect(page).toHaveURL(/invested=never/);
  await expect(rowOf(page, referred)).toHaveCount(0);
  await expect(rows).toHaveCount(2);
  await expect(rowOf(page, rich)).toHaveCount(1);
  await expect(rowOf(page, blocked)).toHaveCount(1);
  await expect(page.getByTestId('members-page')).toHaveText('Page 1 of 1 (2 members)');

  await test.step('the filter stays in the address: a reload shows the same list', async () => {
    await page.reload();
    await expect(invested).toHaveValue('never');
    await expect(rows).toHaveCount(2);
    await expect(rowOf(page, referred)).toHaveCount(0);
  });

  await test.step('"Yes" shows the member who invested, and the CSV holds only them', async () => {
    await invested.selectOption('yes');
    await expect(page).toHaveURL(/invested=yes/);
    await expect(rows).toHaveCount(1);
    await expect(rowOf(page, referred)).toHaveCount(1);
    await expect(page.getByTestId('members-page')).toHaveText('Page 1 of 1 (1 member)');
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const text = (await readFile((await (await downloading).path()) as string, 'utf8')).trim();
    const lines = text.split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(referred.email);
  });

  await test.step('"Any" shows everyone again and leaves the address', async () => {
    await invested.selectOption('any');
    await expect(rows).toHaveCount(3);
    await expect(page).not.toHaveURL(/invested=/);
  });
});
