import { expect, type Page, test } from '@playwright/test';
import { TICKET_CATEGORIES } from '../../src/shared/tickets.ts';
import {
  creditByApi,
  csrfHeaders,
  memberIdOf,
  newMember,
  referralCodeOf,
  registerByApi,
  setActiveByApi,
  signInAdminByApi,
  signInByApi,
  signInMember,
  transferByApi,
} from './helpers.ts';

// Issue 22: on the narrowest phones members use (360 and 390 px wide) no member screen scrolls
// sideways, and every control and link a member taps is at least 44 px high (WCAG 2.5.5's target
// size, Apple's and Android's guidance). One member with some of everything (money, a transfer each
// way, a ticket, a payment) opens every member screen, each tab of the transfer dashboard included.

const MIN_TARGET_PX = 44;

// A long e-mail address, as real ones can be: it shows on the dashboard and must not widen the page.
// Its parts are dotted, so the admin tables (which wrap addresses only after a dot) still fit it.
const base = newMember('fit');
const alice = { ...base, email: base.email.replace('@', '.with.a.rather.long.mailbox.name@') };
const bob = newMember('fitpeer');
// A member Alice invited: her team screens have a row.
const carol = newMember('fitteam');
let ticketId = '';
let aliceId = '';
let planId = '';
// A plan of this run (other specs' plans are in the same database), with a name long enough to wrap.
const planName = `Fit plan with a rather long name for narrow phones ${Date.now().toString(36)}`;

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  const aliceApi = await playwright.request.newContext({ baseURL });
  const bobApi = await playwright.request.newContext({ baseURL });
  try {
    await registerByApi(aliceApi, alice);
    await registerByApi(bobApi, bob);
    await signInAdminByApi(admin);
    aliceId = await memberIdOf(admin, alice.email);
    const bobId = await memberIdOf(admin, bob.email);
    for (const id of [aliceId, bobId]) {
      await setActiveByApi(admin, id);
      await creditByApi(admin, id, '500.00');
    }
    // A payout address on the profile: 42 characters without a space, which must wrap, not widen.
    const address = await admin.put(`/api/v1/users/${aliceId}`, {
      headers: await csrfHeaders(admin),
      data: { bep20: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    });
    expect(address.status(), await address.text()).toBe(200);
    await signInByApi(aliceApi, alice);
    await signInByApi(bobApi, bob);
    await transferByApi(aliceApi, {
      userto_id: bobId,
      amount: '25.50',
      from: 'business',
      to: 'business',
      desc: 'A rather long description that must wrap on a narrow phone instead of widening the page',
    });
    await transferByApi(bobApi, { userto_id: aliceId, amount: '10.00', from: 'business', to: 'business' });
    // A plan, and a top-up Alice pays for Bob: the plan cards and the top-up list have rows.
    const plan = await admin.post('/api/v1/plans/add', {
      headers: await csrfHeaders(admin),
      data: {
        name: planName,
        min_amount: '10.00',
        max_amount: '1000.00',
        roi_percent: '1.25',
        duration_days: 90,
      },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    planId = ((await plan.json()) as { plan: { id: string } }).plan.id;
    const topup = await aliceApi.post('/api/v1/topup/entry', {
      headers: { ...(await csrfHeaders(aliceApi)), 'Idempotency-Key': crypto.randomUUID() },
      data: { id: bobId, userby_id: aliceId, plan_id: planId, amount: '20.00' },
    });
    expect(topup.status(), await topup.text()).toBe(201);
    const ticket = await aliceApi.post('/api/v1/tickets', {
      headers: await csrfHeaders(aliceApi),
      data: {
        subject: 'A subject long enough to need wrapping on the smallest phones we support',
        category: TICKET_CATEGORIES[0],
        message: 'Averyveryverylongwordwithoutanyspacesthatmustnotwidenthepageonaphone and more text.',
      },
    });
    expect(ticket.status(), await ticket.text()).toBe(201);
    ticketId = ((await ticket.json()) as { ticket: { ticket_id: string } }).ticket.ticket_id;
    const payment = await aliceApi.post('/api/v1/payments/create-payment', {
      headers: await csrfHeaders(aliceApi),
      data: { price_amount: 49.99, price_currency: 'usd', pay_currency: 'usdtbsc', id: aliceId },
    });
    expect(payment.status(), await payment.text()).toBe(201);
    const codeApi = await playwright.request.newContext({ baseURL });
    const carolApi = await playwright.request.newContext({ baseURL });
    try {
      await registerByApi(carolApi, carol, await referralCodeOf(codeApi, alice));
    } finally {
      await Promise.all([codeApi.dispose(), carolApi.dispose()]);
    }
  } finally {
    await Promise.all([admin.dispose(), aliceApi.dispose(), bobApi.dispose()]);
  }
});

// The plan is closed afterwards, so members' plan lists stay short in a database shared by every spec.
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

/** What the page shows wider than the screen, and every visible tap target lower than 44 px. */
async function measure(page: Page) {
  return page.evaluate((minPx) => {
    // A phone's layout viewport grows to fit content wider than the screen (then clientWidth grows
    // too), so the screen's own width is the visual viewport's.
    const viewport = Math.min(document.documentElement.clientWidth, window.visualViewport?.width ?? Infinity);
    const wide = document.documentElement.scrollWidth;
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      if (el.closest('.visually-hidden, [aria-hidden="true"], .skip-link')) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    const small: string[] = [];
    const targets = document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="tab"]',
    );
    for (const el of targets) {
      if (!visible(el)) continue;
      // A checkbox or radio is tapped through its label: the label is the target.
      const target =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? (el.closest('label') ?? el)
          : el;
      const height = target.getBoundingClientRect().height;
      if (height < minPx - 0.5) {
        const name = (target.textContent || target.getAttribute('aria-label') || target.tagName).trim();
        small.push(`${target.tagName.toLowerCase()} "${name.slice(0, 40)}" ${height.toFixed(1)} px`);
      }
    }
    // Anything sticking out past the right edge names the culprit, not just "too wide".
    const overflowing = [...document.querySelectorAll('body *')]
      .filter((el) => visible(el) && el.getBoundingClientRect().right > viewport + 0.5)
      .filter((el) => !el.closest('.table-scroll, .tab-list'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}`);
    return { viewport, wide, small, overflowing };
  }, MIN_TARGET_PX);
}

const screens = () => [
  { path: '/user/dashboard', ready: 'heading', name: `Welcome, ${alice.fullname}` },
  { path: '/user/transfer?tab=overview', ready: 'text', name: 'Recent Activity' },
  { path: '/user/transfer?tab=sent', ready: 'text', name: bob.fullname },
  { path: '/user/transfer?tab=received', ready: 'text', name: bob.fullname },
  { path: '/user/transfer?tab=transfer', ready: 'label', name: 'Recipient email' },
  { path: '/user/transfer-form', ready: 'label', name: 'Recipient email' },
  { path: '/user/transfer-history', ready: 'heading', name: 'Transfer history' },
  { path: '/user/add-money', ready: 'heading', name: 'Report a payment you made' },
  { path: '/user/scanner', ready: 'heading', name: 'Crypto Payment Gateway' },
  { path: '/user/deposit-history', ready: 'text', name: '49.99' },
  { path: '/user/web3-deposit', ready: 'heading', name: 'Where to send' },
  { path: '/user/notifications', ready: 'heading', name: 'Notifications' },
  { path: '/user/queries', ready: 'text', name: 'A subject long enough' },
  { path: '/user/query/create', ready: 'label', name: 'Subject' },
  { path: `/user/queries/${ticketId}`, ready: 'text', name: 'Averyveryverylongword' },
  { path: `/user/profile/${aliceId}`, ready: 'heading', name: 'Two-factor sign-in' },
  { path: '/user/subscription', ready: 'heading', name: planName },
  { path: '/user/topup', ready: 'text', name: `${bob.fullname} (` },
  { path: '/user/income', ready: 'heading', name: 'Your investments' },
  { path: '/user/withdrawal', ready: 'heading', name: 'What you can withdraw' },
  { path: '/user/transaction/all_transaction', ready: 'heading', name: 'All transactions' },
  { path: '/user/transaction/transfer_transaction/out', ready: 'text', name: bob.username },
  { path: '/user/direct-members', ready: 'text', name: carol.fullname },
  { path: '/user/refferral-tree', ready: 'text', name: `@${carol.username}` },
  { path: '/user/rewards', ready: 'heading', name: 'Your team business' },
];

for (const width of [360, 390]) {
  test(`every member screen fits a ${width} px phone, with tap targets of 44 px or more`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 800 });
    await signInMember(page, alice);
    const problems: string[] = [];
    for (const screen of screens()) {
      await page.goto(screen.path);
      const ready =
        screen.ready === 'heading'
          ? page.getByRole('heading', { name: screen.name }).first()
          : screen.ready === 'label'
            ? page.getByLabel(screen.name).first()
            : page.getByText(screen.name).first();
      await expect(ready, screen.path).toBeVisible();
      await expect(page.locator('.spinner'), screen.path).toHaveCount(0);
      const found = await measure(page);
      if (found.wide > found.viewport)
        problems.push(
          `${screen.path}: ${found.wide} px wide at ${found.viewport} (${found.overflowing.join(', ')})`,
        );
      for (const target of found.small) problems.push(`${screen.path}: ${target}`);
    }
    expect(problems).toEqual([]);
  });
}

test('the public pages a member taps fit a 360 px phone with 44 px targets', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const problems: string[] = [];
  for (const path of ['/login', '/registration', '/']) {
    await page.goto(path);
    await expect(page.locator('main').first()).toBeVisible();
    const found = await measure(page);
    if (found.wide > found.viewport)
      problems.push(`${path}: ${found.wide} px wide (${found.overflowing.join(', ')})`);
    for (const target of found.small) problems.push(`${path}: ${target}`);
  }
  expect(problems).toEqual([]);
});
