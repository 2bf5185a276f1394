import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// What a phone downloads for the public pages: never member or admin code, every asset precompressed,
// hashed assets cached for good and the page itself re-checked on each visit.

type Chunk = { file: string; src?: string; imports?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));

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
