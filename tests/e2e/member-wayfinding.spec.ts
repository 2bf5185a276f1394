import { expect, type Locator, type Page, test } from '@playwright/test';
import { DISCLOSURE_TEXT } from '../../src/shared/disclosure.ts';
import { newMember, registerByApi, signInMember } from './helpers.ts';

// A member finds their way on a phone: the income disclosure opens inside the app with a way back
// (an installed app has no Back button), and every tab of a strip too wide for the screen can be seen
// and chosen, the chosen one always shown whole, the strip fading where it hides more.

test.use({ viewport: { width: 360, height: 740 } });

async function signedIn(page: Page, tag: string): Promise<void> {
  const member = newMember(tag);
  await registerByApi(page.request, member);
  await signInMember(page, member);
}

test('the income disclosure opens inside the member app, with the member bar and a way back', async ({
  page,
}) => {
  await signedIn(page, 'disclose');
  await page.getByRole('link', { name: 'Income disclosure: what members earn' }).click();
  await expect(page).toHaveURL(/\/user\/income-disclosure$/);
  await expect(page.getByRole('heading', { level: 1, name: DISCLOSURE_TEXT.title })).toBeVisible();
  await expect(page.getByTestId('disclosure-members')).toHaveText(/^\d+$/);
  // The member's own app around it: their bottom bar, not the visitor's Sign Up / Login.
  await expect(page.getByRole('navigation', { name: 'Member' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Sign Up/i })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
});

/** The tab's box lies inside the strip's visible box. */
async function shownWhole(list: Locator, tab: Locator): Promise<boolean> {
  const [strip, box] = [await list.boundingBox(), await tab.boundingBox()];
  if (!strip || !box) return false;
  return box.x >= strip.x - 0.5 && box.x + box.width <= strip.x + strip.width + 0.5;
}

async function everyTabReachable(page: Page, listName: string, count: number): Promise<void> {
  const list = page.getByRole('tablist', { name: listName });
  const tabs = list.getByRole('tab');
  await expect(tabs).toHaveCount(count);
  // Too wide for 360 px: the strip fades where it hides tabs.
  const overflows = await list.evaluate((el) => el.scrollWidth > el.clientWidth);
  if (overflows) await expect(list).toHaveAttribute('data-hidden', /^(start|end|both)$/);
  // The page itself never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  for (let i = count - 1; i >= 0; i--) {
    const tab = tabs.nth(i);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => shownWhole(list, tab)).toBe(true);
  }
  // Back at the first tab, the strip shows its start and hides tabs at its end.
  if (overflows) await expect(list).toHaveAttribute('data-hidden', 'end');
}

test('every transfer tab is shown whole when chosen, on the dashboard and in the history', async ({
  page,
}) => {
  await signedIn(page, 'tabs');
  await page.goto('/user/transfer?tab=transfer');
  // Opened on the last tab: it is on screen without touching the strip.
  const list = page.getByRole('tablist', { name: 'Transfers' });
  const transferFund = list.getByRole('tab', { name: 'Transfer fund' });
  await expect(transferFund).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => shownWhole(list, transferFund)).toBe(true);
  await everyTabReachable(page, 'Transfers', 4);

  await page.goto('/user/transfer-history');
  await everyTabReachable(page, 'Transfer history', 4);
});

test('Team, Rewards and News are two taps from the dashboard, and the bottom bar’s labels keep off the edges and each other', async ({
  page,
}) => {
  await signedIn(page, 'more');
  const bar = page.getByRole('navigation', { name: 'Member' });
  for (const [label, path, heading] of [
    ['Team', /\/user\/direct-members$/, /direct members/i],
    ['Rewards', /\/user\/rewards$/, /rewards/i],
    ['News', /\/user\/news$/, /news/i],
  ] as const) {
    await page.goto('/user/dashboard');
    await bar.getByRole('button', { name: 'More' }).click();
    await page.getByRole('dialog', { name: 'More' }).getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // The bar marks More as where the member is.
    await expect(bar.getByRole('button', { name: 'More' })).toHaveAttribute('aria-current', 'page');
  }
  const items = bar.locator('.bottom-nav-item');
  await expect(items).toHaveCount(5);
  const width = page.viewportSize()?.width ?? 360;
  let previousRight = 0;
  for (const item of await items.all()) {
    // A drawn icon beside the label, not a character standing in for one.
    await expect(item.locator('svg')).toHaveCount(1);
    const box = await item.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      return { left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) };
    });
    // Clear of the screen's edges and of the label beside it.
    expect(box.left).toBeGreaterThanOrEqual(Math.max(4, previousRight + 4));
    expect(box.right).toBeLessThanOrEqual(width - 4);
    previousRight = box.right;
  }
});
