import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RISK_DISCLAIMER } from '../../src/shared/messages.ts';
import { waitForControl } from './pwa-helpers.ts';

// Issue 19: the landing page registers the service worker itself, so a visitor who has only ever seen /
// gets the landing page again with no network, and the worker it installs downloads no member or admin
// code. The app's side (screens offline, the update prompt) is in public-pwa.spec.ts.

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(
  readFileSync(join(process.env.CLIENT_DIR ?? 'dist', '.vite/manifest.json'), 'utf8'),
);

/** Every file the given manifest entries load, through static imports and, if asked, dynamic ones too. */
function closure(keys: string[], { dynamic }: { dynamic: boolean }): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of [...(chunk.imports ?? []), ...(dynamic ? (chunk.dynamicImports ?? []) : [])])
      visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

// As vite.config.ts decides the precache: the two pages and the public screens are what may be fetched;
// member and admin screens, with everything only they load, are not.
const isPrivate = (key: string) => /^src\/client\/routes\/(user|admin)(\.tsx|\/)/.test(key);
const isPublicRoute = (key: string) => /^src\/client\/routes\//.test(key) && !isPrivate(key);
const precached = closure(['index.html', 'landing.html', ...Object.keys(manifest).filter(isPublicRoute)], {
  dynamic: false,
});
const privateOnly = [...closure(Object.keys(manifest).filter(isPrivate), { dynamic: true })].filter(
  (file) => !precached.has(file),
);

const HEADING = 'Secure, educational and transparent crypto trading';

test('a visitor who has only opened / sees the landing page again with no network', async ({
  page,
  context,
}) => {
  expect(privateOnly.length).toBeGreaterThan(2);
  // Everything this context asks for, the page's requests and the worker's own (its precache) alike.
  const requests: { path: string; byWorker: boolean }[] = [];
  context.on('request', (request) =>
    requests.push({ path: new URL(request.url()).pathname, byWorker: request.serviceWorker() !== null }),
  );

  // A new context: no worker, no cache, nothing opened before this page.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: HEADING })).toBeVisible();
  await waitForControl(page);
  const registration = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return { scope: reg?.scope, script: reg?.active?.scriptURL };
  });
  expect(new URL(registration.scope as string).pathname).toBe('/');
  expect(new URL(registration.script as string).pathname).toBe('/sw.js');

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { name: HEADING })).toBeVisible();
    const note = page.getByRole('complementary', { name: 'Risk warning' }).getByRole('note');
    await expect(note.locator('p').first()).toHaveText(RISK_DISCLAIMER);
    // The second visit, in a tab of its own.
    const again = await context.newPage();
    await again.goto('/');
    await expect(again.getByRole('heading', { name: HEADING })).toBeVisible();
    await expect(
      again.getByRole('complementary', { name: 'Risk warning' }).getByRole('note').locator('p').first(),
    ).toHaveText(RISK_DISCLAIMER);
  } finally {
    await context.setOffline(false);
  }

  // The worker's downloads were seen (the app shell it keeps), so the lists below are complete.
  expect(requests.filter((r) => r.byWorker).map((r) => r.path)).toContain('/app-shell');
  const scripts = [
    ...new Set(requests.map((r) => r.path.slice(1)).filter((p) => /^assets\/.*\.js$/.test(p))),
  ];
  expect(scripts.filter((file) => privateOnly.includes(file))).toEqual([]);
  expect(scripts.filter((file) => !precached.has(file))).toEqual([]);
  // Nor is any kept in the worker's caches.
  const cached = await page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys())
        paths.push(new URL(request.url).pathname.slice(1));
    return paths;
  });
  expect(cached).toContain(manifest['landing.html']?.file as string);
  expect(cached.filter((file) => privateOnly.includes(file))).toEqual([]);
});
