import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { OFFLINE_DB, OFFLINE_MESSAGES, OFFLINE_STORE } from '../../src/shared/offline.ts';
import { PAYMENT_MESSAGES } from '../../src/shared/payments.ts';
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
  signOutMember,
  transferByApi,
} from './helpers.ts';
import { waitForControl, waitForRegistration } from './pwa-helpers.ts';

// Offline on a phone (issue 6 item 2): after one visit the member's transfers and notifications open
// with no network from the service worker's IndexedDB copies, under "Offline - showing data from
// <time>"; nothing that moves money can be pressed offline, and nothing is sent when the network comes
// back. Signing out empties the copies, so the next person on a shared phone sees none of them.

test.describe.configure({ mode: 'serial' });

let sender: Member;
let recipient: Member;
const ids = { sender: '', recipient: '' };
const NOTE_TITLE = `Offline reading ${Date.now().toString(36)}`;

test.beforeAll(async ({ playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const visitor = await playwright.request.newContext({ baseURL });
  sender = newMember('offsender');
  recipient = newMember('offrecipient');
  for (const member of [sender, recipient]) await registerByApi(visitor, member);
  await visitor.dispose();

  const admin: APIRequestContext = await playwright.request.newContext({ baseURL });
  await signInAdminByApi(admin);
  ids.sender = await memberIdOf(admin, sender.email);
  ids.recipient = await memberIdOf(admin, recipient.email);
  await creditByApi(admin, ids.sender, '500.00');
  await setActiveByApi(admin, ids.sender);
  const note = await admin.post('/api/v1/notifications', {
    headers: await csrfHeaders(admin),
    data: {
      title: NOTE_TITLE,
      message: 'Read this with no network.',
      users: false,
      recipients: [ids.sender],
    },
  });
  expect(note.status(), await note.text()).toBe(201);
  await admin.dispose();

  const senderApi = await playwright.request.newContext({ baseURL });
  await signInByApi(senderApi, sender);
  await transferByApi(senderApi, {
    userto_id: ids.recipient,
    amount: '12.34',
    from: 'business',
    to: 'business',
    desc: 'Offline lunch',
  });
  await senderApi.dispose();
});

/** The keys of the offline copies in this browser's IndexedDB (none when the store does not exist). */
function copyKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    ([dbName, storeName]) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        // As idb-keyval itself does, so the app's own opening later finds the same database.
        open.onupgradeneeded = () => open.result.createObjectStore(storeName);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const keys = db.transaction(storeName).objectStore(storeName).getAllKeys();
          keys.onerror = () => reject(keys.error);
          keys.onsuccess = () => {
            db.close();
            resolve(keys.result.map(String));
          };
        };
      }),
    [OFFLINE_DB, OFFLINE_STORE] as const,
  );
}

/** Every request that could move money: anything but a GET to the API. */
function watchWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() !== 'GET' && url.pathname.startsWith('/api/'))
      writes.push(`${request.method()} ${url.pathname}`);
  });
  return writes;
}

/** The $12.34 transfer in the dashboard's Recent Activity. */
const recentTransfer = (page: Page) =>
  page.getByRole('region', { name: 'Recent Activity' }).getByRole('listitem').filter({ hasText: '$12.34' });

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "Offline - showing data from Nov 23, 2026, 5:40 PM" (en-US, spec 9). */
const SHOWING_COPY = new RegExp(
  `^${escapeRegExp(OFFLINE_MESSAGES.showingCopy('TIME')).replace(
    'TIME',
    '[A-Z][a-z]{2} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2}\\s[AP]M',
  )}$`,
);

test('offline, the transfers and notifications seen last open from the copies with the notice; money cannot move', async ({
  page,
  context,
}) => {
  await signInMember(page, sender);
  await waitForControl(page);
  // One visit online to each screen: their code is kept and their data copied.
  await page.goto('/user/notifications');
  await expect(page.getByText(NOTE_TITLE)).toBeVisible();
  await page.goto('/user/transfer-form');
  await expect(page.getByRole('button', { name: 'Send Transfer' })).toBeEnabled();
  await page.goto('/user/scanner');
  await expect(page.getByRole('button', { name: PAYMENT_MESSAGES.create })).toBeEnabled();
  await page.goto('/user/transfer');
  const row = recentTransfer(page);
  await expect(row).toBeVisible();
  await expect(row).toContainText(recipient.fullname);
  await expect
    .poll(() => copyKeys(page))
    .toEqual(
      expect.arrayContaining([
        'owner',
        `copy:${ids.sender}:/api/v1/transfer/byid/${ids.sender}`,
        `copy:${ids.sender}:/api/v1/notifications/user/${ids.sender}`,
      ]),
    );
  // Only this member's own calls are copied (beside whose they are and when the session ends).
  expect(
    (await copyKeys(page)).filter(
      (key) => key !== 'owner' && key !== 'ends' && !key.startsWith(`copy:${ids.sender}:`),
    ),
  ).toEqual([]);
  await expect(page.getByText(OFFLINE_MESSAGES.showingCopy(''), { exact: false })).toHaveCount(0);

  const writes = watchWrites(page);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(row).toBeVisible();
    await expect(row).toContainText(recipient.fullname);
    await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveText(SHOWING_COPY);

    await page.goto('/user/notifications');
    await expect(page.getByText(NOTE_TITLE)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveText(SHOWING_COPY);

    // The transfer form: its button is disabled, and says why.
    await page.goto('/user/transfer-form');
    const send = page.getByRole('button', { name: 'Send Transfer' });
    await expect(send).toBeDisabled();
    await expect(page.getByText(OFFLINE_MESSAGES.moneyNeedsNetwork)).toBeVisible();
    await page.getByLabel('Amount').fill('5');
    await page.getByLabel('Amount').press('Enter');
    // The Pay screen: creating a payment waits for the network too.
    await page.goto('/user/scanner');
    await expect(page.getByRole('button', { name: PAYMENT_MESSAGES.create })).toBeDisabled();
    await expect(page.getByText(OFFLINE_MESSAGES.moneyNeedsNetwork)).toBeVisible();
    // A screen never opened online has no code here: the error screen says why.
    await page.goto('/user/queries');
    await expect(page.getByRole('alert').getByText(OFFLINE_MESSAGES.screenNotSaved)).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
  // Back online: the notice goes, the buttons come back, and nothing was kept to send.
  await page.goto('/user/transfer-form');
  await expect(page.getByRole('button', { name: 'Send Transfer' })).toBeEnabled();
  await expect(page.getByText(OFFLINE_MESSAGES.moneyNeedsNetwork)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(writes).toEqual([]);
});

test("signing out empties the copies: the next member on the phone never sees the last one's data", async ({
  page,
  context,
}) => {
  await signInMember(page, sender);
  await waitForControl(page);
  await page.goto('/user/transfer');
  await expect(recentTransfer(page)).toBeVisible();
  await expect.poll(async () => (await copyKeys(page)).length).toBeGreaterThan(1);

  await signOutMember(page);
  await expect.poll(() => copyKeys(page)).toEqual([]);
  // The sign-out cleared the site's storage, its worker with it: the app has registered it again.
  await waitForRegistration(page);

  // The next member, on the same phone: their own copies only.
  await signInMember(page, recipient);
  await page.goto('/user/transfer');
  await waitForControl(page);
  await expect(recentTransfer(page)).toContainText(sender.fullname);
  await expect
    .poll(() => copyKeys(page))
    .toContain(`copy:${ids.recipient}:/api/v1/transfer/byid/${ids.recipient}`);
  expect((await copyKeys(page)).some((key) => key.includes(ids.sender))).toBe(false);
  await context.setOffline(true);
  try {
    await page.goto('/user/notifications');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(NOTE_TITLE)).toHaveCount(0);
  } finally {
    await context.setOffline(false);
  }
});
