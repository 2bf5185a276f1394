import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { INCOME_MESSAGES } from '../../src/shared/income.ts';
import { RISK_DISCLAIMER } from '../../src/shared/messages.ts';
import { formatUsd } from '../../src/shared/money.ts';
import type { MemberRewards } from '../../src/shared/rewards.ts';
import {
  closeTestPlan,
  createTestPlan,
  creditByApi,
  csrfHeaders,
  memberIdOf,
  newMember,
  registerByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';
import { expectNoProgressBars, pageWords, promisesIn } from './honesty.ts';
import { movePurchaseTo, unpaidPastDate } from './income-dates.ts';

// The member screens with figures report what was paid and state the rules as rules: read in the
// browser for a member with an investment and income paid, none of them promises a return, shows a
// projected total, counts down days still to pay or fills a bar toward a target, and each keeps the
// risk warning beside its figures (not only at the foot of the page).

/** $123.00 at 1.10% a day for at most 37 days, capped at 200%: a run pays $1.35 (rounded down). */
const PLAN = { min_amount: '10.00', max_amount: '500.00', roi_percent: '1.1', duration_days: 37 };
const AMOUNT = '123.00';
const PAID = '1.35';
/**
 * What a screen that projected this investment would show: the rate times the days (exact and from
 * the rounded daily payment), with the principal, what is "left" of either after the day paid, the
 * cap as money and what is left under it, a month's and a year's worth of the daily payment.
 */
const PROJECTIONS = [
  '50.06',
  '49.95',
  '173.06',
  '172.95',
  '48.71',
  '48.60',
  '246.00',
  '244.65',
  '40.50',
  '492.75',
].map((amount) => formatUsd(amount));

const SCREENS: { path: string; ready: (page: Page) => Promise<void> }[] = [
  {
    path: '/user/dashboard',
    ready: async (page) => {
      await expect(page.getByTestId('income-today')).not.toHaveText('');
      await expect(page.getByTestId('rank-line')).toBeVisible();
      await expect(page.getByTestId('active-investments')).toContainText(formatUsd(AMOUNT));
    },
  },
  {
    path: '/user/subscription',
    ready: async (page) => {
      await expect(page.getByTestId('plan-held').first()).toBeVisible();
    },
  },
  {
    path: '/user/topup',
    ready: async (page) => {
      await expect(page.getByTestId('topups').locator('tbody tr').first()).toBeVisible();
    },
  },
  {
    path: '/user/income',
    ready: async (page) => {
      await expect(page.getByTestId('income-investment').first()).toBeVisible();
      await expect(page.getByTestId('income-chart')).toBeVisible();
    },
  },
  {
    path: '/user/rewards',
    ready: async (page) => {
      await expect(page.getByTestId('rewards-business')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Your salary history' })).toBeVisible();
    },
  },
];

test('plans, income, rewards and the dashboard report what was paid and promise nothing', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin: APIRequestContext = await playwright.request.newContext({ baseURL });
  const memberApi: APIRequestContext = await playwright.request.newContext({ baseURL });
  const member = newMember('honesty');
  let planId = '';
  try {
    await registerByApi(memberApi, member);
    await signInAdminByApi(admin);
    const created = await createTestPlan(admin, 'Honest', PLAN);
    planId = created.id;
    const planName = created.name;
    await creditByApi(admin, await memberIdOf(admin, member.email), '150.00');

    // The member invests, and a run pays one day of ROI.
    const memberId = await signInByApi(memberApi, member);
    const bought = await memberApi.post('/api/v1/topup/add', {
      headers: { ...(await csrfHeaders(memberApi)), 'Idempotency-Key': crypto.randomUUID() },
      data: { plan_id: planId, amount: AMOUNT },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    const topupId = ((await bought.json()) as { topup: { id: string } }).topup.id;
    const date = await unpaidPastDate(admin);
    movePurchaseTo(topupId, date);
    const run = await admin.post('/api/v1/income/run', { headers: await csrfHeaders(admin), data: { date } });
    expect(run.status(), await run.text()).toBe(200);
    expect(((await run.json()) as { message: string }).message).toBe(INCOME_MESSAGES.runDone);

    await signInMember(page, member);
    for (const screen of SCREENS) {
      await test.step(screen.path, async () => {
        await page.goto(screen.path);
        await screen.ready(page);
        const words = await pageWords(page);
        expect(promisesIn(words), screen.path).toEqual([]);
        for (const figure of PROJECTIONS)
          expect(words, `${screen.path} shows ${figure}`).not.toContain(figure);
        await expectNoProgressBars(page);
        // Beside the figures, and again at the foot of every member page.
        const notes = page.getByRole('note').filter({ hasText: RISK_DISCLAIMER });
        expect(await notes.count(), screen.path).toBeGreaterThanOrEqual(2);
        await expect(notes.first()).toBeVisible();
      });
    }

    // What was paid is there, said as paid.
    await page.goto('/user/subscription');
    await expect(page.locator(`li[data-plan="${planName}"]`).getByTestId('plan-held')).toHaveText(
      `You hold one investment in this plan: ${formatUsd(AMOUNT)} invested, ${formatUsd(PAID)} of ROI paid so far.`,
    );
    await page.goto('/user/income');
    const investment = page.getByTestId('income-investment').filter({ hasText: planName });
    await expect(investment.getByTestId('investment-roi-paid')).toHaveText(formatUsd(PAID));
    await expect(investment.getByTestId('investment-rule')).toContainText('on at most 37 days');

    // The next rank is its requirement, never its prize.
    const rewards = await memberApi.get(`/api/v1/rewards/user/${memberId}`);
    expect(rewards.status()).toBe(200);
    const standing = (await rewards.json()) as MemberRewards;
    const next = standing.rewards.find((reward) => reward.id === standing.next?.id);
    await page.goto('/user/dashboard');
    const rankLine = page.getByTestId('rank-line');
    await expect(rankLine).toContainText('Rank: ');
    if (next) {
      await expect(rankLine).toContainText(
        `${next.rank} needs ${formatUsd(next.business_needed)} team business`,
      );
      await expect(rankLine).not.toContainText(`${formatUsd(next.amount)} reward`);
      await page.goto('/user/rewards');
      await expect(page.getByTestId('rewards-next')).toHaveText(
        `Next rank: ${next.rank} needs ${formatUsd(next.business_needed)} of team business, ${formatUsd(standing.next?.business_left ?? '0.00')} more than now.`,
      );
    }
  } finally {
    if (planId) await closeTestPlan(admin, planId);
    await Promise.all([admin.dispose(), memberApi.dispose()]);
  }
});
