import { expect, test } from '@playwright/test';
import { TEAM_TEXT } from '../../src/shared/team.ts';
import { newMember, referralCodeOf, registerByApi, signInMember } from './helpers.ts';

// Issue 17 item 1 on a 360 px phone: a member opens their direct members (searchable) and their
// referral tree, opens a level that was not loaded yet, and finds a member three levels down by
// username; nothing on the way is wider than the screen.

const top = newMember('teamtop');
const left = newMember('teamleft');
const right = newMember('teamright');
const deep = newMember('teamdeep');
const deeper = newMember('teamdeeper');

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const codes = await playwright.request.newContext({ baseURL });
  try {
    await registerByApi(api, top);
    await registerByApi(api, left, await referralCodeOf(codes, top));
    await registerByApi(api, right, await referralCodeOf(codes, top));
    await registerByApi(api, deep, await referralCodeOf(codes, left));
    await registerByApi(api, deeper, await referralCodeOf(codes, deep));
  } finally {
    await Promise.all([api.dispose(), codes.dispose()]);
  }
});

const fitsScreen = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('a member sees their direct members and finds someone deep in their tree', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signInMember(page, top);
  await page.getByRole('link', { name: 'Direct members' }).click();
  await expect(page).toHaveURL(/\/user\/direct-members$/);
  const table = page.getByTestId('direct-members');
  await expect(table.getByText(left.fullname)).toBeVisible();
  await expect(table.getByText(right.fullname)).toBeVisible();
  await page.getByLabel(TEAM_TEXT.search).fill(right.username);
  await expect(table.getByText(right.fullname)).toBeVisible();
  await expect(table.getByText(left.fullname)).toHaveCount(0);
  expect(await fitsScreen(page)).toBe(true);

  await page.getByRole('link', { name: TEAM_TEXT.treeTitle }).click();
  await expect(page).toHaveURL(/\/user\/refferral-tree$/);
  const nodes = page.getByTestId('team-node');
  await expect(nodes.filter({ hasText: `@${left.username}` })).toBeVisible();
  // Two levels came with the page; the third loads when its parent opens.
  await page.getByRole('button', { name: TEAM_TEXT.expand(left.username) }).click();
  await expect(nodes.filter({ hasText: `@${deep.username}` })).toBeVisible();
  await expect(nodes.filter({ hasText: `@${deeper.username}` })).toHaveCount(0);
  await page.getByRole('button', { name: TEAM_TEXT.expand(deep.username) }).click();
  await expect(nodes.filter({ hasText: `@${deeper.username}` })).toBeVisible();
  await expect(nodes.filter({ hasText: `@${deeper.username}` })).toContainText(TEAM_TEXT.level(3));
  // Closing a level hides what is under it.
  await page.getByRole('button', { name: TEAM_TEXT.collapse(left.username) }).click();
  await expect(nodes.filter({ hasText: `@${deep.username}` })).toHaveCount(0);
  expect(await fitsScreen(page)).toBe(true);

  // Search opens the way down to the member found.
  await page.getByLabel(TEAM_TEXT.searchTree).fill(deeper.username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: new RegExp(`@${deeper.username}`) }).click();
  const found = nodes.filter({ hasText: `@${deeper.username}` });
  await expect(found).toBeVisible();
  await expect(found).toHaveClass(/highlight/);
  expect(await fitsScreen(page)).toBe(true);
});
