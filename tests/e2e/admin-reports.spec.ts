import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { addDays, dateOf } from '../../src/shared/dates.ts';
import { formatUsd, parseCents } from '../../src/shared/money.ts';
import {
  creditByApi,
  csrfHeaders,
  fillSignIn,
  memberIdOf,
  newMember,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
  transferByApi,
} from './helpers.ts';
import { expectTablesFit } from './table-fit.ts';

// Issue 19 item 2, reports: on a desktop an admin opens /admin/reports for a period in which the test
// moved money (a member-to-member transfer), sees the transfers chart drawn, and downloads its CSV, whose
// lines are the table's. The chart library is a chunk of its own that the member dashboard and the
// landing page never load.

type Chunk = { file: string; src?: string; imports?: string[]; dynamicImports?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(
  readFileSync(join(process.env.CLIENT_DIR ?? 'dist', '.vite/manifest.json'), 'utf8'),
);
/** The files of the lazily loaded chart: its module's chunk and the chunks it alone imports (Chart.js). */
const chartChunk = manifest['src/client/features/reports/components/report-chart.tsx'];

type Totals = { amount: string; count: number };
async function transfersToday(request: APIRequestContext): Promise<Totals> {
  const today = dateOf();
  const res = await request.get(`/api/v1/admin/reports?from=${today}&to=${today}&group=day`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).reports.transfers.totals as Totals;
}

/** What a script-loading page fetched, by path (leading slash dropped, as the manifest names files). */
function scriptsOf(page: Page): Set<string> {
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.add(new URL(response.url()).pathname.slice(1));
  });
  return scripts;
}

/** A table's lines as the CSV writes them: money without "$" and thousands commas. */
async function tableLines(page: Page, testId: string): Promise<string[]> {
  const rows = page.getByTestId(testId).locator('tr');
  const lines: string[] = [];
  for (const row of await rows.all()) {
    const cells = await row.locator('th, td').allInnerTexts();
    lines.push(
      cells
        .map((c) =>
          c
            .trim()
            .replace(/^(-?)\$/, '$1')
            .replace(/,/g, ''),
        )
        .join(','),
    );
  }
  return lines;
}

async function arrangeTransfer(browser: Browser, amount: string) {
  const arrange = await browser.newContext();
  const senderCtx = await browser.newContext();
  try {
    const sender = newMember('rptfrom');
    const recipient = newMember('rptto');
    await registerByApi(arrange.request, sender);
    await registerByApi(arrange.request, recipient);
    await signInAdminByApi(arrange.request);
    const senderId = await memberIdOf(arrange.request, sender.email);
    const recipientId = await memberIdOf(arrange.request, recipient.email);
    await setActiveByApi(arrange.request, senderId);
    await creditByApi(arrange.request, senderId, '500.00');
    const before = await transfersToday(arrange.request);
    await signInByApi(senderCtx.request, sender);
    await transferByApi(senderCtx.request, {
      userto_id: recipientId,
      amount,
      from: 'business',
      to: 'business',
    });
    // A deposit today too, so the deposit reports and "Income paid against deposits" have lines.
    const added = await senderCtx.request.post('/api/v1/deposite/add', {
      headers: await csrfHeaders(senderCtx.request),
      data: { amount: '1234.56', tx_hash: `0x${crypto.randomUUID().replaceAll('-', '').padEnd(64, '0')}` },
    });
    expect(added.status(), await added.text()).toBe(201);
    const depositId = ((await added.json()) as { deposit: { id: string } }).deposit.id;
    const approved = await arrange.request.put(`/api/v1/deposite/${depositId}`, {
      headers: await csrfHeaders(arrange.request),
      data: { status: 'approved', amount: '1234.56', user_id: senderId },
    });
    expect(approved.status(), await approved.text()).toBe(200);
    const after = await transfersToday(arrange.request);
    // The report counts what the test moved, exactly (the suite runs one test at a time).
    expect(after.count).toBe(before.count + 1);
    expect(parseCents(after.amount)).toBe((parseCents(before.amount) ?? 0) + (parseCents(amount) ?? 0));
    return after;
  } finally {
    await senderCtx.close();
    await arrange.close();
  }
}

test('an admin sees the period’s transfers drawn and in a table, and downloads the same lines as CSV', async ({
  browser,
  page,
}) => {
  expect(chartChunk, 'the chart is a chunk of its own').toBeDefined();
  const today = dateOf();
  const yesterday = addDays(today, -1);
  const totals = await arrangeTransfer(browser, '123.45');

  const scripts = scriptsOf(page);
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  // The dashboard's "Today" card shows today's transfers from the same reports.
  await expect(page.getByTestId('today-transfers')).toContainText(formatUsd(totals.amount));
  expect([...scripts].filter((file) => file === chartChunk?.file)).toEqual([]);

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reports' }).click();
  const period = page.getByRole('form', { name: 'Report period' });
  await period.getByLabel('From (UTC)').fill(yesterday);
  await period.getByLabel('To (UTC)').fill(today);
  await period.getByLabel('Per').selectOption('day');
  await period.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${yesterday}.*to=${today}`));

  const section = page.getByTestId('report-transfers');
  const chart = section.getByRole('img', { name: /Chart of transfers per day/ });
  await expect(chart).toBeVisible();
  // Drawn: the canvas holds painted pixels (Chart.js draws once, with animation off).
  await expect
    .poll(() =>
      chart.evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height) ?? {
          data: [],
        };
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted += 1;
        return painted;
      }),
    )
    .toBeGreaterThan(500);
  expect(scripts.has(chartChunk?.file as string)).toBe(true);

  const lines = await tableLines(page, 'report-table-transfers');
  expect(lines).toEqual([
    'Day (UTC),Amount,Transfers',
    expect.stringMatching(new RegExp(`^${yesterday},`)),
    `${today},${totals.amount},${totals.count}`,
    expect.stringMatching(/^Total,/),
  ]);

  // Every report's table fits the 1366 px laptop's box: nothing scrolls sideways or is cut.
  await expectTablesFit(page.getByRole('main'));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`transfers-${yesterday}-to-${today}-by-day.csv`);
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  expect(csv.split('\r\n').filter(Boolean)).toEqual(lines);
});

test('the chart library is loaded by neither the member dashboard nor the landing page', async ({
  browser,
}) => {
  expect(chartChunk).toBeDefined();
  // Everything only the chart's module reaches (its own chunk and Chart.js), not shared with the app.
  const chartFiles = new Set([chartChunk?.file as string]);
  for (const key of chartChunk?.imports ?? []) {
    const file = manifest[key]?.file;
    if (file && /chart/i.test(key)) chartFiles.add(file);
  }
  const phone = await browser.newContext({ viewport: { width: 412, height: 915 }, serviceWorkers: 'block' });
  try {
    const member = newMember('rptmember');
    await registerByApi(phone.request, member);
    const page = await phone.newPage();
    const scripts = scriptsOf(page);
    await signInMember(page, member);
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await page.waitForLoadState('networkidle');
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts.size).toBeGreaterThan(0);
    expect([...scripts].filter((file) => chartFiles.has(file))).toEqual([]);
  } finally {
    await phone.close();
  }
});
