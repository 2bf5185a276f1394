import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

// What a phone downloads for the public pages: never member or admin code, every asset precompressed,
// hashed assets cached for good and the page itself re-checked on each visit.

type Chunk = { file: string; src?: string; imports?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(
  readFileSync(join(process.env.CLIENT_DIR ?? 'dist', '.vite/manifest.json'), 'utf8'),
);

/** Every file a set of manifest entries loads through static imports. */
function closure(keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

const isPrivate = (key: string) => /^src\/client\/routes\/(user|admin)(\.tsx|\/)/.test(key);
const publicFiles = closure(Object.keys(manifest).filter((k) => !isPrivate(k)));
const privateOnly = [...closure(Object.keys(manifest).filter(isPrivate))].filter((f) => !publicFiles.has(f));

// Text only the member dashboard and the admin dashboard show: if it reaches a visitor, so did their code.
const PRIVATE_MARKERS = ['Your referral link', 'Joined today (UTC)'];

/**
 * The most JavaScript the landing page may load before any interaction, gzip level 9: the page as it
 * is (about 2.2 KB) with a little room, so a change that brings in a library fails here.
 */
const LANDING_JS_BUDGET_BYTES = 4 * 1024;

test('a visitor to the public pages downloads no member or admin code', async ({ page }) => {
  expect(privateOnly.length).toBeGreaterThan(2);
  const scripts: string[] = [];
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(new URL(response.url()).pathname.slice(1));
    bodies.push(response.text());
  });
  for (const path of ['/', '/login', '/registration']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => privateOnly.includes(s))).toEqual([]);
  const code = (await Promise.all(bodies)).join('\n');
  expect(PRIVATE_MARKERS.filter((marker) => code.includes(marker))).toEqual([]);
});

test('assets are sent precompressed and cached by content hash; screens are re-checked', async ({
  request,
}) => {
  const entry = manifest['index.html']?.file as string;
  const br = await request.get(`/${entry}`, { headers: { 'accept-encoding': 'br' } });
  expect(br.status()).toBe(200);
  expect(br.headers()['content-encoding']).toBe('br');
  expect(br.headers()['cache-control']).toContain('immutable');
  const gzip = await request.get(`/${entry}`, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');

  const screen = await request.get('/user/dashboard', {
    headers: { accept: 'text/html', 'accept-encoding': 'br' },
  });
  expect(screen.status()).toBe(200);
  expect(screen.headers()['cache-control']).toBe('no-cache');
  expect(screen.headers()['content-security-policy']).toContain("default-src 'self'");
  expect(await screen.text()).toContain('<div id="root">');
});

test('the app runs under its Content-Security-Policy without a single violation', async ({ page }) => {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`csp-violation ${event.effectiveDirective} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('csp-violation')) violations.push(message.text());
  });
  for (const path of ['/', '/login', '/registration']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  // The toasts' runtime stylesheet exists and holds rules: it was allowed, not silently dropped.
  expect(
    await page.evaluate(
      () => (document.getElementById('_goober') as HTMLStyleElement | null)?.sheet?.cssRules.length,
    ),
  ).toBeGreaterThan(0);
  expect(violations).toEqual([]);
});

test('every shell response carries a fresh style nonce that matches its CSP header', async ({ request }) => {
  const nonces = [];
  for (let i = 0; i < 2; i++) {
    const res = await request.get('/login', { headers: { accept: 'text/html' } });
    const header = /'nonce-([^']+)'/.exec(
      /style-src[^;]*/.exec(res.headers()['content-security-policy'] ?? '')?.[0] ?? '',
    )?.[1];
    const meta = /name="csp-nonce" content="([^"]*)"/.exec(await res.text())?.[1];
    expect(header).toBeTruthy();
    expect(meta).toBe(header);
    nonces.push(meta);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
});

test.describe('the landing page', () => {
  test(`loads at most ${LANDING_JS_BUDGET_BYTES / 1024} KB of JavaScript (gzip), none of it the app's`, async ({
    page,
  }) => {
    const scripts = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.set(new URL(response.url()).pathname.slice(1), response.body());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const gzipBytes = (
      await Promise.all([...scripts.values()].map(async (body) => gzipSync(await body, { level: 9 }).length))
    ).reduce((sum, bytes) => sum + bytes, 0);
    test.info().annotations.push({ type: 'landing JavaScript', description: `${gzipBytes} bytes gzip` });
    console.log(`landing page JavaScript: ${[...scripts.keys()].join(', ')} = ${gzipBytes} bytes gzip`);
    expect(scripts.size).toBeGreaterThan(0);
    expect(gzipBytes).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES);
    // Exactly the landing entry and what it imports: not the app's entry, not a single route of it.
    const landing = [...closure(['landing.html'])].filter((file) => file.endsWith('.js'));
    expect([...scripts.keys()].sort()).toEqual(landing.sort());
    expect(landing.filter((file) => privateOnly.includes(file))).toEqual([]);
    expect(scripts.has(manifest['index.html']?.file as string)).toBe(false);
  });

  test('is served at / as a static page under the same CSP, re-checked by ETag', async ({ request }) => {
    const res = await request.get('/', { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/html');
    expect(res.headers()['content-encoding']).toBe('br');
    expect(res.headers()['cache-control']).toBe('no-cache');
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toContain('Secure, educational and transparent crypto trading');
    expect(html).not.toContain('<div id="root">');
    // Nothing inline that the CSP would have to allow.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle="/);

    const etag = res.headers().etag as string;
    const again = await request.get('/', { headers: { accept: 'text/html', 'if-none-match': etag } });
    expect(again.status()).toBe(304);
    // One address for the page: the built file's own name is not another.
    expect((await request.get('/landing.html', { headers: { accept: 'text/html' } })).status()).toBe(404);
  });

  test('no request leaves the origin, and pictures are WebP at about the size shown', async ({
    page,
    baseURL,
  }) => {
    const origins = new Set<string>();
    page.on('request', (request) => {
      if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
    });
    await page.goto('/');
    // Down the whole page, so every lazy picture loads, then through the carousel and the FAQ.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo({ top: y, behavior: 'instant' });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    await page.getByRole('button', { name: 'Next posts' }).click();
    await page.locator('#faq').getByRole('button').first().click();
    await page.waitForLoadState('networkidle');
    expect([...origins]).toEqual([new URL(baseURL as string).origin]);

    await page.locator('#blogs').scrollIntoViewIfNeeded();
    const images = await page.locator('#blogs img').evaluateAll((all) =>
      (all as HTMLImageElement[]).map((img) => ({
        src: img.currentSrc,
        shownPx: img.getBoundingClientRect().width * window.devicePixelRatio,
        filePx: Number(/-(\d+)-[\w-]+\.webp$/.exec(img.currentSrc)?.[1]),
        complete: img.complete,
      })),
    );
    for (const image of images.filter((i) => i.complete && i.src)) {
      expect(image.src).toMatch(/\.webp$/);
      // Never more than twice the pixels shown, and no blur beyond the largest file.
      expect(image.filePx).toBeLessThanOrEqual(Math.max(800, image.shownPx * 2));
      expect(image.filePx).toBeGreaterThanOrEqual(Math.min(800, image.shownPx * 0.9));
    }
  });
});
