import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { newMember, registerByApi, signInMember } from './helpers.ts';

// The phone pays for every kilobyte: a member opening the dashboard with nothing cached (a new phone,
// or the first visit after a release) downloads at most 150 KB of JavaScript, gzip level 9. The heavy
// parts (QR scanner, wallet modal, charts, tables) load only on the screens that use them.

const DASHBOARD_JS_BUDGET_BYTES = 150 * 1024;
/** Every request of the cold load (page, scripts, styles, images, API calls): each costs a phone a round trip. */
const DASHBOARD_REQUEST_BUDGET = 25;

test(`the member dashboard's cold load is at most ${DASHBOARD_JS_BUDGET_BYTES / 1024} KB of JavaScript (gzip) in at most ${DASHBOARD_REQUEST_BUDGET} requests`, async ({
  browser,
  page,
  request,
}) => {
  const member = newMember('budget');
  await registerByApi(request, member);
  await signInMember(page, member);
  const signedIn = await page.context().storageState();

  // A fresh context holds the session but no HTTP cache and no service worker: a cold load.
  const cold = await browser.newContext({ storageState: signedIn, serviceWorkers: 'block' });
  try {
    const phone = await cold.newPage();
    const scripts = new Map<string, Promise<Buffer>>();
    const requests: string[] = [];
    phone.on('request', (request) => {
      requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`);
    });
    phone.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.set(new URL(response.url()).pathname, response.body());
    });
    await phone.goto('/user/dashboard');
    await expect(phone.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
    await phone.waitForLoadState('networkidle');
    const sizes = await Promise.all(
      [...scripts].map(async ([path, body]) => ({ path, bytes: gzipSync(await body, { level: 9 }).length })),
    );
    const gzipBytes = sizes.reduce((sum, file) => sum + file.bytes, 0);
    // The largest files first: what to look at when the budget is passed.
    const largest = sizes
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 8)
      .map((file) => `${file.path} ${file.bytes}`);
    console.log(
      `member dashboard JavaScript: ${scripts.size} files = ${gzipBytes} bytes gzip; ${largest.join(', ')}`,
    );
    console.log(`member dashboard cold load: ${requests.length} requests: ${requests.join(', ')}`);
    expect(scripts.size).toBeGreaterThan(0);
    expect(gzipBytes).toBeLessThanOrEqual(DASHBOARD_JS_BUDGET_BYTES);
    expect(requests.length).toBeLessThanOrEqual(DASHBOARD_REQUEST_BUDGET);
  } finally {
    await cold.close();
  }
});
