import { expect, test } from '@playwright/test';
import { solidImage } from '../fixtures/images.ts';
import {
  csrfHeaders,
  expectTapTarget,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInMember,
} from './helpers.ts';

// Issue 19 item 4 on a phone: the news an admin published is on the member's dashboard (newest first)
// and on the news screen with its picture; a draft is nowhere; the admin's QR link is on the deposit
// history screen, drawn as a code with the address to copy.

const member = newMember('news');
const stamp = Date.now().toString(36);
const PUBLISHED = `E2E Published ${stamp}`;
const DRAFT = `E2E Draft ${stamp}`;
const QR_LABEL = `E2E USDT ${stamp}`;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const made: { news: string[]; qr: string[] } = { news: [], qr: [] };

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await registerByApi(api, member);
    await signInAdminByApi(admin);
    const picture = await admin.post('/api/v1/news/images', {
      headers: await csrfHeaders(admin),
      multipart: {
        image: { name: 'news.png', mimeType: 'image/png', buffer: await solidImage('png', 400, 240) },
      },
    });
    expect(picture.status(), await picture.text()).toBe(201);
    const image = ((await picture.json()) as { image: { name: string } }).image.name;
    for (const data of [
      { title: DRAFT, body: 'Not yet.', published: false },
      { title: PUBLISHED, body: 'Deposits now credit within minutes.', image, published: true },
    ]) {
      const added = await admin.post('/api/v1/news/add', { headers: await csrfHeaders(admin), data });
      expect(added.status(), await added.text()).toBe(201);
      made.news.push(((await added.json()) as { news: { id: string } }).news.id);
    }
    const qr = await admin.post('/api/v1/qr/add', {
      headers: await csrfHeaders(admin),
      data: { label: QR_LABEL, value: ADDRESS },
    });
    expect(qr.status(), await qr.text()).toBe(201);
    made.qr.push(((await qr.json()) as { qr: { id: string } }).qr.id);
  } finally {
    await Promise.all([api.dispose(), admin.dispose()]);
  }
});

test.afterAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(admin);
    for (const id of made.news)
      await admin.delete(`/api/v1/news/${id}`, { headers: await csrfHeaders(admin) });
    for (const id of made.qr) await admin.delete(`/api/v1/qr/${id}`, { headers: await csrfHeaders(admin) });
  } finally {
    await admin.dispose();
  }
});

test('a member sees published news on the dashboard and the news screen, and the QR link where they deposit', async ({
  page,
}) => {
  await signInMember(page, member);
  const card = page.getByRole('region', { name: 'Latest news' });
  await expect(card.getByTestId('latest-news').getByRole('listitem').first()).toContainText(PUBLISHED);
  await expect(card).not.toContainText(DRAFT);

  const allNews = card.getByRole('link', { name: 'All news' });
  await expectTapTarget(allNews);
  await allNews.click();
  await expect(page).toHaveURL(/\/user\/news$/);
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  const item = page.getByRole('article', { name: PUBLISHED });
  await expect(item).toContainText('Deposits now credit within minutes.');
  const picture = item.locator('img');
  await expect(picture).toHaveAttribute('loading', 'lazy');
  await picture.scrollIntoViewIfNeeded();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByRole('article', { name: DRAFT })).toHaveCount(0);

  await page.goto('/user/deposit-history');
  await expect(page.getByRole('heading', { level: 2, name: 'Where to deposit' })).toBeVisible();
  const qr = page.getByTestId('qr-link').filter({ hasText: QR_LABEL });
  await expect(qr.getByRole('img', { name: `QR code: ${QR_LABEL}` })).toBeVisible();
  await expect(qr.getByRole('img', { name: `QR code: ${QR_LABEL}` })).toHaveAttribute(
    'data-qr-text',
    ADDRESS,
  );
  await expect(qr).toContainText(ADDRESS);
  await expectTapTarget(qr.getByRole('button', { name: `Copy ${QR_LABEL}` }));
});
