import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { parseCents } from '../../src/shared/money.ts';
import {
  csrfHeaders,
  fillSignIn,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
} from './helpers.ts';
import { expectStatTilesFit } from './table-fit.ts';

// The admin's side navigation on a 1366 px laptop: four groups (Money, Members, Content, System) under
// headings, every screen reachable in one click and marked as the current one while open; and the
// dashboard's stat tiles, whose figures stay whole on one line even when a day's deposits run to
// seven figures. One registration for the file (the member whose deposit makes the big figure).

const GROUPS: [string, string[]][] = [
  [
    'Money',
    [
      'Deposits',
      'On-chain USDT',
      'Withdrawals',
      'Transfers to review',
      'Top-ups',
      'Income',
      'Reward claims',
      'Reports',
    ],
  ],
  ['Members', ['Members', 'Tickets']],
  ['Content', ['News', 'Notifications', 'Notification list', 'QR links']],
  ['System', ['Plans', 'Reward plans', 'Mail', 'Settings']],
];

/** Where each entry leads: its path and, for a tab of a screen, that tab in the address. */
const TARGETS: Record<string, RegExp> = {
  Dashboard: /\/admin\/dashboard$/,
  Deposits: /\/admin\/deposits(\?|$)/,
  'On-chain USDT': /\/admin\/web3(\?|$)/,
  Withdrawals: /\/admin\/withdrawals$/,
  'Transfers to review': /\/admin\/topup\?.*tab=review/,
  'Top-ups': /\/admin\/topup(\?tab=topups&page=1)?$/,
  Income: /\/admin\/income(\?|$)/,
  'Reward claims': /\/admin\/reward-transactions(\?|$)/,
  Reports: /\/admin\/reports(\?|$)/,
  Members: /\/admin\/users(\?|$)/,
  Tickets: /\/admin\/tickets(\?|$)/,
  News: /\/admin\/news(\?|$)/,
  Notifications: /\/admin\/notifications$/,
  'Notification list': /\/admin\/notification\/list$/,
  'QR links': /\/admin\/qr-links(\?|$)/,
  Plans: /\/admin\/plans(\?|$)/,
  'Reward plans': /\/admin\/reward-plans(\?|$)/,
  Mail: /\/admin\/mail(\?|$)/,
  Settings: /\/admin\/settings(\?|$)/,
};

async function signInAdmin(page: Page): Promise<void> {
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });

test('the side navigation is grouped under Money, Members, Content and System, and every entry opens its screen', async ({
  page,
}) => {
  await signInAdmin(page);
  // The headings, in order, each over its own entries.
  await expect(nav(page).getByRole('heading', { level: 2 })).toHaveText(GROUPS.map(([title]) => title));
  for (const [title, entries] of GROUPS)
    await expect(
      nav(page)
        .locator('.side-nav-group')
        .filter({ has: page.getByRole('heading', { name: title, exact: true }) })
        .getByRole('link'),
    ).toHaveText(entries);
  // Dashboard stands above the groups; nothing else is outside them.
  const everyEntry = ['Dashboard', ...GROUPS.flatMap(([, entries]) => entries)];
  await expect(nav(page).getByRole('link')).toHaveText(everyEntry);

  for (const entry of everyEntry) {
    await nav(page).getByRole('link', { name: entry, exact: true }).click();
    await expect(page, entry).toHaveURL(TARGETS[entry] ?? /^$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Only this entry is marked current: Top-ups and Transfers to review share a screen, not a mark.
    await expect(nav(page).locator('[aria-current="page"]')).toHaveText([entry]);
    // Too wide names its culprits: the elements sticking out past the right edge, or holding text that does.
    const { sideways, culprits } = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll('body *')]
        .filter(
          (el) =>
            el.getBoundingClientRect().right > width + 0.5 ||
            // Text sticking out of a box that lets it show (a text node has no box of its own).
            (el.scrollWidth > el.clientWidth + 0.5 &&
              el.clientWidth > 0 &&
              getComputedStyle(el).overflowX === 'visible'),
        )
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${(el.textContent ?? '').slice(0, 30)}"`,
        );
      return { sideways: document.documentElement.scrollWidth - width, culprits: out };
    });
    expect(sideways, `${entry} scrolls sideways: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
  }

  // The Transfers to review entry opens the tab that lists them (admin-transfers.spec.ts decides one there).
  await nav(page).getByRole('link', { name: 'Transfers to review' }).click();
  await expect(page.getByRole('tab', { name: 'Transfers to review' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('heading', { level: 2, name: 'Transfers to review' })).toBeVisible();
  // Switching to the Top-ups tab moves the mark to Top-ups.
  await page.getByRole('tab', { name: 'Top-ups' }).click();
  await expect(nav(page).locator('[aria-current="page"]')).toHaveText(['Top-ups']);

  // The spec's ROI requests address opens the one withdrawal queue.
  await page.goto('/admin/roi-request');
  await expect(page).toHaveURL(/\/admin\/withdrawals$/);
  await expect(nav(page).locator('[aria-current="page"]')).toHaveText(['Withdrawals']);
});

test('the dashboard stat tiles keep a seven-figure day on one line at 1366 px', async ({
  page,
  playwright,
  baseURL,
}) => {
  // A million-dollar manual deposit today, approved: "Deposits" of today reads at least $1,000,000.00.
  const member = newMember('bigday');
  const memberApi = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await registerByApi(memberApi, member);
    await signInByApi(memberApi, member);
    await signInAdminByApi(admin);
    const memberId = await memberIdOf(admin, member.email);
    const added = await memberApi.post('/api/v1/deposite/add', {
      headers: await csrfHeaders(memberApi),
      data: {
        amount: '1000000.00',
        tx_hash: `0x${crypto.randomUUID().replaceAll('-', '').padEnd(64, '0')}`,
      },
    });
    expect(added.status(), await added.text()).toBe(201);
    const depositId = ((await added.json()) as { deposit: { id: string } }).deposit.id;
    const approved = await admin.put(`/api/v1/deposite/${depositId}`, {
      headers: await csrfHeaders(admin),
      data: { status: 'approved', amount: '1000000.00', user_id: memberId },
    });
    expect(approved.status(), await approved.text()).toBe(200);
  } finally {
    await memberApi.dispose();
    await admin.dispose();
  }

  await signInAdmin(page);
  const deposits = page.getByTestId('today-deposits').getByRole('definition');
  await expect(deposits).toHaveText(/^\$\d{1,3}(,\d{3})+\.\d{2}$/);
  expect(parseCents((await deposits.textContent())?.replace(/[$,]/g, '') ?? '')).toBeGreaterThanOrEqual(
    100_000_000,
  );
  await expect(page.getByTestId('count-total').getByRole('definition')).toHaveText(/^\d+$/);
  // Every tile on the dashboard: today's figures, the member counts and whatever else shows tiles.
  await expectStatTilesFit(page.getByRole('main'));
});
