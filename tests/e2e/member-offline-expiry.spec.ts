import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import { hashToken } from '../../src/server/http/tokens.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { OFFLINE_DB, OFFLINE_STORE } from '../../src/shared/offline.ts';
import { newMember, registerByApi, signInMember, signOutMember } from './helpers.ts';
import { waitForControl, waitForRegistration } from './pwa-helpers.ts';

// The offline copies never outlive the session: the service worker keeps with them when the session
// ends (X-Offline-Expires) and drops them from then on, online or not; signing out drops them at once.
// The session's end is moved in the run's database, never waited for in full.

/** The offline store's entries in this browser's IndexedDB: key to value (none when it does not exist). */
function offlineEntries(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(
    ([dbName, storeName]) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        // As idb-keyval itself does, so the app's own opening later finds the same database.
        open.onupgradeneeded = () => open.result.createObjectStore(storeName);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const entries: Record<string, unknown> = {};
          const cursor = db.transaction(storeName).objectStore(storeName).openCursor();
          cursor.onerror = () => reject(cursor.error);
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) {
              db.close();
              resolve(entries);
              return;
            }
            entries[String(at.key)] = at.value;
            at.continue();
          };
        };
      }),
    [OFFLINE_DB, OFFLINE_STORE] as const,
  );
}

const memberCopies = (entries: Record<string, unknown>) =>
  Object.keys(entries).filter((k) => k.startsWith('copy:'));

/** Moves the end of the page's session in the run's database to `at`. */
async function endSessionAt(page: Page, at: Date): Promise<void> {
  const sid = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)?.value;
  expect(sid).toBeTruthy();
  const { db } = createDatabase({ dataDir: E2E_DATA_DIR, databaseUrl: undefined, databaseSchema: undefined });
  try {
    await db
      .updateTable('sessions')
      .set({ expires_at: at.toISOString() })
      .where('id', '=', hashToken(sid as string))
      .execute();
  } finally {
    await db.destroy();
  }
}

test('the copies go once the session has ended, even with no network to hear it', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000);
  const member = newMember('offexpiry');
  await registerByApi(request, member);
  await signInMember(page, member);
  await waitForControl(page);
  await page.goto('/user/transfer');
  await expect.poll(async () => memberCopies(await offlineEntries(page)).length).toBeGreaterThan(0);

  // The session now ends in a few seconds; the next answers say so, and the worker keeps it.
  const end = new Date(Date.now() + 8_000);
  await endSessionAt(page, end);
  await page.reload();
  await expect.poll(async () => (await offlineEntries(page)).ends).toBe(end.toISOString());
  expect(memberCopies(await offlineEntries(page)).length).toBeGreaterThan(0);

  // Offline from here: nobody tells the phone the session ended, yet the copies go once it has.
  await context.setOffline(true);
  try {
    await expect
      .poll(
        async () => {
          await page.reload();
          return memberCopies(await offlineEntries(page));
        },
        { timeout: 45_000, intervals: [1_000] },
      )
      .toEqual([]);
    expect(Object.keys(await offlineEntries(page))).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
});

test('signing out leaves nothing of the member in IndexedDB', async ({ page, request }) => {
  const member = newMember('offsignout');
  await registerByApi(request, member);
  await signInMember(page, member);
  await waitForControl(page);
  await page.goto('/user/transfer');
  await expect.poll(async () => memberCopies(await offlineEntries(page)).length).toBeGreaterThan(0);
  await signOutMember(page);
  await expect.poll(async () => Object.keys(await offlineEntries(page))).toEqual([]);
});

/** After the site's storage was cleared: the worker is registered again, and the app opens with no network. */
async function opensOfflineAfterClearing(page: Page, context: BrowserContext): Promise<void> {
  await waitForRegistration(page);
  await page.reload();
  await waitForControl(page);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
}

// Something the app never writes: only the browser's clearing of the site's storage removes it.
const PROBE = 'probe';
const setProbe = (page: Page) => page.evaluate((key) => window.localStorage.setItem(key, 'kept?'), PROBE);
const probe = (page: Page) => page.evaluate((key) => window.localStorage.getItem(key), PROBE);

test('signing out clears the site storage, and the app still opens with no network', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(60_000);
  const member = newMember('offclear');
  await registerByApi(request, member);
  await signInMember(page, member);
  await waitForControl(page);
  await setProbe(page);
  await signOutMember(page);
  await expect.poll(() => probe(page)).toBeNull();
  await opensOfflineAfterClearing(page, context);
});

test('a session the server has ended clears the site storage at the next call', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(60_000);
  const member = newMember('offended');
  await registerByApi(request, member);
  await signInMember(page, member);
  await waitForControl(page);
  await setProbe(page);
  await endSessionAt(page, new Date(Date.now() - 1_000));
  await page.goto('/user/transfer');
  await expect(page).toHaveURL(/\/login(\?|$)/);
  await expect.poll(() => probe(page)).toBeNull();
  await opensOfflineAfterClearing(page, context);
});
