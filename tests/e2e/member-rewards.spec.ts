import { expect, test } from '@playwright/test';
import { REWARD_MESSAGES } from '../../src/shared/rewards.ts';
import { solidImage } from '../fixtures/images.ts';
import {
  creditByApi,
  csrfHeaders,
  memberIdOf,
  newMember,
  referralCodeOf,
  registerByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';

// Issue 17 item 2 on a phone: a member whose team business reaches a reward claims it once; the
// button is disabled while the claim is on its way, and the reward shows claimed afterwards. Other
// specs share the database, so this spec's rank has a name of its own and is removed afterwards.

const top = newMember('rewardtop');
const down = newMember('rewarddown');
const rank = `E2E Rank ${Date.now().toString(36)}`;
const achiever = `E2E Star ${Date.now().toString(36)}`;
let rewardId = '';
let planId = '';

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  const api = await playwright.request.newContext({ baseURL });
  const downApi = await playwright.request.newContext({ baseURL });
  try {
    await registerByApi(api, top);
    await registerByApi(downApi, down, await referralCodeOf(api, top));
    await signInAdminByApi(admin);
    const reward = await admin.post('/api/v1/rewards', {
      headers: await csrfHeaders(admin),
      data: { rank, business_needed: '30', amount: '7.25' },
    });
    expect(reward.status(), await reward.text()).toBe(201);
    rewardId = ((await reward.json()) as { reward: { id: string } }).reward.id;
    // An achiever in the gallery, photo and all.
    const photo = await admin.post('/api/v1/achivers/images', {
      headers: await csrfHeaders(admin),
      multipart: {
        image: { name: 'star.png', mimeType: 'image/png', buffer: await solidImage('png', 160, 160) },
      },
    });
    expect(photo.status(), await photo.text()).toBe(201);
    const image = ((await photo.json()) as { image: { name: string } }).image.name;
    const added = await admin.post('/api/v1/achivers/add', {
      headers: await csrfHeaders(admin),
      data: { name: achiever, rank: 'Gold', image },
    });
    expect(added.status(), await added.text()).toBe(201);
    const plan = await admin.post('/api/v1/plans/add', {
      headers: await csrfHeaders(admin),
      data: {
        name: `E2E Reward plan ${Date.now().toString(36)}`,
        min_amount: '10',
        max_amount: '100',
        roi_percent: '1',
        duration_days: 30,
      },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    planId = ((await plan.json()) as { plan: { id: string } }).plan.id;
    await creditByApi(admin, await memberIdOf(admin, down.email), '40.00');
    await signInByApi(downApi, down);
    const bought = await downApi.post('/api/v1/topup/add', {
      headers: { ...(await csrfHeaders(downApi)), 'Idempotency-Key': crypto.randomUUID() },
      data: { plan_id: planId, amount: '40' },
    });
    expect(bought.status(), await bought.text()).toBe(201);
  } finally {
    await Promise.all([admin.dispose(), api.dispose(), downApi.dispose()]);
  }
});

// The plan is closed afterwards, so members' plan lists stay short in the shared database.
test.afterAll(async ({ playwright, baseURL }) => {
  if (!planId) return;
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await signInAdminByApi(admin);
    const closed = await admin.put(`/api/v1/plans/${planId}`, {
      headers: await csrfHeaders(admin),
      data: { status: 'inactive' },
    });
    expect(closed.status(), await closed.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
});

test('a member claims a reached reward once, the button held while it sends', async ({ page }) => {
  await signInMember(page, top);
  await expect(page.getByTestId('balance-working')).toContainText('$0.00');
  await page.getByRole('link', { name: 'Rewards' }).click();
  await expect(page).toHaveURL(/\/user\/rewards$/);
  await expect(page.getByTestId('rewards-business')).toHaveText('$40.00');
  const rung = page.locator(`[data-testid="reward"][data-rank="${rank}"]`);
  await expect(rung).toContainText('$30.00');
  // The reached, unclaimed reward is announced above the ladder (others' rungs may add to the count).
  await expect(page.getByTestId('rewards-ready')).toHaveText(/^You have \d+ rewards? ready to claim$/);
  // The claim reaches the real server a moment later, so the held button can be seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/v1/rewards/user/claim/**', async (route) => {
    await held;
    await route.continue();
  });
  const claim = rung.getByRole('button', { name: 'Claim $7.25' });
  await claim.click();
  await expect(rung.getByRole('button', { name: 'Claiming...' })).toBeDisabled();
  release();
  await expect(page.getByRole('status').filter({ hasText: REWARD_MESSAGES.claimed })).toBeVisible();
  await expect(rung).toContainText('Claimed');
  await expect(rung.getByRole('button')).toHaveCount(0);
  await page.unroute('**/api/v1/rewards/user/claim/**');
  // The achievers gallery sits below the ladder.
  const star = page.getByTestId('achiever').filter({ hasText: achiever });
  await expect(star).toContainText('Gold');
  await expect(star.getByRole('img', { name: achiever })).toBeVisible();
  await page.goto('/user/dashboard');
  await expect(page.getByTestId('balance-working')).toContainText('$7.25');
  expect(rewardId).not.toBe('');
});
