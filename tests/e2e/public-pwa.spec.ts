import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { pngSize, startOwnServer, waitForControl } from './pwa-helpers.ts';

// The installable app for a visitor on a phone (issue 6): the manifest and its icons, the service worker
// that makes the landing page and the app's screens open with no network, the CSP still whole with it,
// and a new deploy announced with a Reload button rather than reloading by itself.

type Manifest = {
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
  shortcuts: { name: string; url: string }[];
  screenshots: { src: string; sizes: string; form_factor?: string }[];
};

/** Collects CSP violations the page reports (console messages from a listener added before any script). */
async function watchCsp(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`csp-violation ${event.effectiveDirective} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('csp-violation')) violations.push(message.text());
  });
  return violations;
}

/** The toasts' runtime stylesheet holds rules: the page's style nonce was accepted by its CSP. */
const nonceAccepted = (page: Page) =>
  page.evaluate(
    () => (document.getElementById('_goober') as HTMLStyleElement | null)?.sheet?.cssRules.length ?? 0,
  );

test('the manifest describes an installable, themed app with icons, shortcuts and screenshots', async ({
  request,
}) => {
  const shell = await (await request.get('/login', { headers: { accept: 'text/html' } })).text();
  const landing = await (await request.get('/', { headers: { accept: 'text/html' } })).text();
  for (const page of [shell, landing])
    expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  expect(shell).toContain('<meta name="theme-color" content="#0b1f3a"');

  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/manifest+json');
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = (await res.json()) as Manifest;
  expect(manifest).toMatchObject({
    name: 'Member Platform',
    short_name: 'Members',
    start_url: '/user/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: '#0b1f3a',
    background_color: '#f4f6fa',
  });
  expect(manifest.description.length).toBeGreaterThan(20);
  expect(manifest.shortcuts.map((s) => [s.name, s.url])).toEqual([
    ['Transfer', '/user/transfer'],
    ['Add money', '/user/add-money'],
    ['Notifications', '/user/notifications'],
  ]);

  // Each icon is a PNG of the size it claims: 192 and 512, plain and maskable.
  const kinds = new Set<string>();
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    const { width, height } = pngSize(await file.body());
    expect(`${width}x${height}`).toBe(icon.sizes);
    kinds.add(`${icon.sizes} ${icon.purpose ?? 'any'}`);
  }
  expect([...kinds].sort()).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);

  const factors: string[] = [];
  for (const shot of manifest.screenshots) {
    const file = await request.get(shot.src);
    expect(file.status(), shot.src).toBe(200);
    const { width, height } = pngSize(await file.body());
    expect(`${width}x${height}`).toBe(shot.sizes);
    expect(shot.form_factor === 'wide' ? width > height : height > width).toBe(true);
    factors.push(shot.form_factor ?? '');
  }
  expect(factors.sort()).toEqual(['narrow', 'wide']);
});

test('the service worker is served from the root, re-checked on every visit, and controls the app', async ({
  page,
  request,
}) => {
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toContain('javascript');
  expect(sw.headers()['cache-control']).toBe('no-cache');

  await page.goto('/login');
  await waitForControl(page);
  const registration = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return { scope: reg?.scope, script: reg?.active?.scriptURL };
  });
  expect(new URL(registration.scope as string).pathname).toBe('/');
  expect(new URL(registration.script as string).pathname).toBe('/sw.js');
});

test("the landing page registers the service worker with none of the app's code", async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await waitForControl(page);
  const registration = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return { scope: reg?.scope, script: reg?.active?.scriptURL };
  });
  expect(new URL(registration.scope as string).pathname).toBe('/');
  expect(new URL(registration.script as string).pathname).toBe('/sw.js');
  // The browser's own call from the landing script: no workbox-window, no app entry.
  expect(scripts.filter((s) => s.includes('workbox') || s.includes('/main-'))).toEqual([]);
});

test('after one visit the landing page and the app open with no network, their CSP intact', async ({
  page,
  context,
}) => {
  const violations = await watchCsp(page);
  await page.goto('/login');
  await waitForControl(page);

  // Online, the shell now comes from the worker: its header and page still agree on a fresh nonce.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect(await nonceAccepted(page)).toBeGreaterThan(0);
  const firstNonce = await page.locator('meta[name="csp-nonce"]').getAttribute('content');
  await page.reload();
  const secondNonce = await page.locator('meta[name="csp-nonce"]').getAttribute('content');
  expect(firstNonce).toBeTruthy();
  expect(secondNonce).not.toBe(firstNonce);
  expect(await nonceAccepted(page)).toBeGreaterThan(0);

  await context.setOffline(true);
  try {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { name: 'Secure, educational and transparent crypto trading' }),
    ).toBeVisible();
    // With a query string, / is still the landing page, as the server answers it.
    await page.goto('/?utm_campaign=spring&ref=friend');
    await expect(
      page.getByRole('heading', { name: 'Secure, educational and transparent crypto trading' }),
    ).toBeVisible();
    // A screen never opened before: the shell and the code it needs are all precached.
    await page.goto('/registration');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    expect(await nonceAccepted(page)).toBeGreaterThan(0);
  } finally {
    await context.setOffline(false);
  }
  expect(violations).toEqual([]);
});

test('a new deploy shows "A new version is available" and reloads only when asked', async ({ browser }) => {
  // A server process of its own (its start took 10 s of a 30-s budget on a busy machine, as the other
  // specs that start one allow for), then a worker installed twice.
  test.setTimeout(90_000);
  const server = await startOwnServer();
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await waitForControl(page);
    const firstWorker = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL,
    );
    expect(firstWorker).toBeTruthy();

    // The next build: a changed service worker on the same address.
    const swFile = join(server.clientDir, 'sw.js');
    writeFileSync(swFile, `${readFileSync(swFile, 'utf8')}\n// next deploy ${Date.now()}\n`);

    await page.reload();
    await page.evaluate(() => {
      (window as { stillHere?: boolean }).stillHere = true;
    });
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await expect(prompt).toBeVisible({ timeout: 20_000 });
    // Nothing reloads under the member's fingers: the page stays as it is while the prompt waits.
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(
      await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
    ).toBe(true);

    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBeUndefined();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(prompt).toBeHidden();
    expect(
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { waiting: Boolean(reg?.waiting), controlled: navigator.serviceWorker.controller?.state };
      }),
    ).toEqual({ waiting: false, controlled: 'activated' });
  } finally {
    await context.close();
    await server.stop();
  }
});

test('a worker first installed by the landing page waits, after a new deploy, for the app’s Reload', async ({
  browser,
}) => {
  // A server process of its own (its start took 10 s of a 30-s budget on a busy machine, as the other
  // specs that start one allow for), then a worker installed twice.
  test.setTimeout(90_000);
  const server = await startOwnServer();
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await waitForControl(page);
    const landingWorker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);

    const swFile = join(server.clientDir, 'sw.js');
    writeFileSync(swFile, `${readFileSync(swFile, 'utf8')}\n// next deploy ${Date.now()}\n`);

    // Visiting / again finds the new version; it installs and waits: the landing page neither reloads
    // nor changes hands under the visitor.
    await page.reload();
    await page.evaluate(() => {
      (window as { stillHere?: boolean }).stillHere = true;
    });
    await expect
      .poll(
        () => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(landingWorker);

    // The app, opened next, offers the waiting version and takes it only when asked.
    await page.goto('/login');
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await expect(prompt).toBeVisible();
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(prompt).toBeHidden();
    expect(
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { waiting: Boolean(reg?.waiting), controlled: navigator.serviceWorker.controller?.state };
      }),
    ).toEqual({ waiting: false, controlled: 'activated' });
  } finally {
    await context.close();
    await server.stop();
  }
});
