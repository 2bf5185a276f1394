import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page, type Request, test } from '@playwright/test';
import QRCode from 'qrcode';
import {
  PAY_COIN_LABEL,
  PAYMENT_MESSAGES,
  type Payment,
  paymentStatusMessage,
} from '../../src/shared/payments.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { type Member, newMember, registerByApi, signInMember } from './helpers.ts';

// The crypto payment page on a phone (spec 2 "Crypto payment page", spec 4 statuses, spec 8 payment
// errors, spec 9 constants; RULES.md "Deposits") against the sandbox provider, whose statuses step every
// SANDBOX_STEP_MS (300 ms in this run). One registration for the file: the member pays in full once
// (the Active Wallet is credited once), pays part of a second invoice, then reads the deposit history.
// Issue 22: one amount to send (the invoice's pay_amount, spec 9's rounded-up amount), the same amount
// paid, the price credited as the screen said; "Check now"; "Return Home" to the dashboard.

test.describe.configure({ mode: 'serial' });

const TIME_ZONE = 'America/New_York';
test.use({ timezoneId: TIME_ZONE });

const PAYMENTS = '/api/v1/payments';
const CREATE = `${PAYMENTS}/create-payment`;
const STATUS = `${PAYMENTS}/payment-status/`;

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
const manifest: Record<string, Chunk> = JSON.parse(
  readFileSync(join(process.env.CLIENT_DIR ?? 'dist', '.vite/manifest.json'), 'utf8'),
);
/** The QR library's chunk: loaded only when a payment is shown, never with the app or the form. */
const QR_CHUNK = Object.entries(manifest).find(([key]) => key.includes('node_modules/qrcode/'))?.[1].file;

/** Every script the page downloads, by path. */
function watchScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.slice(1));
  });
  return scripts;
}

let member: Member;
/** The payments the tests made, as the server answered their creation. */
const made: { full?: Payment; partial?: Payment } = {};

/** A payment an earlier test of this serial file made: without it this test fails, it is never skipped. */
function earlier(which: keyof typeof made): Payment {
  const payment = made[which];
  if (!payment) throw new Error(`the ${which} payment of an earlier test is missing: that test failed`);
  return payment;
}

test.beforeAll(async ({ playwright }, testInfo) => {
  const visitor = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  member = newMember('payer');
  await registerByApi(visitor, member);
  await visitor.dispose();
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Spec 9: en-US with hour and minute, in the browser's (pinned) time zone. */
const shownDate = (iso: string) =>
  new RegExp(
    escapeRegExp(
      new Intl.DateTimeFormat('en-US', {
        timeZone: TIME_ZONE,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }).format(new Date(iso)),
    ).replace(/\s/g, '\\s'),
  );

const form = (page: Page) => page.getByRole('region', { name: PAYMENT_MESSAGES.newDeposit });
const details = (page: Page) => page.getByTestId('payment-details');
const statusPanel = (page: Page) => page.getByTestId('payment-status');
const sandbox = (page: Page) => page.getByRole('region', { name: 'Simulate payment (sandbox)' });
const badge = (scope: Locator) => scope.locator('.badge');
const checkNow = (page: Page) => statusPanel(page).getByRole('button', { name: PAYMENT_MESSAGES.checkNow });
/** "13.5" -> "13.5 USDT (BEP20, BNB Smart Chain)": the coin is always written in full. */
const coin = (amount: string) => `${amount} ${PAY_COIN_LABEL}`;

/** Nothing on the page reaches beyond the screen's width. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Status checks the page makes, with when they were made (page time, ms). */
function watchStatusChecks(page: Page): { at: number; url: string }[] {
  const checks: { at: number; url: string }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname.startsWith(STATUS))
      checks.push({ at: Date.now(), url: request.url() });
  });
  return checks;
}

async function openPayPage(page: Page): Promise<void> {
  await page.goto('/user/scanner');
  await expect(page).toHaveURL(/\/user\/scanner$/);
  await expect(page.getByRole('heading', { level: 1, name: PAYMENT_MESSAGES.title })).toBeVisible();
}

/** Fills the amount and presses Create Payment; returns the created payment as the server answered it. */
async function createThroughForm(page: Page, amount: string): Promise<Payment> {
  await expect(form(page).getByLabel('Pay with')).toHaveValue('usdtbsc');
  await form(page).getByLabel('Amount to deposit (USD)').fill(amount);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === CREATE);
  await form(page).getByRole('button', { name: PAYMENT_MESSAGES.create }).click();
  const response = await answer;
  expect(response.status(), await response.text()).toBe(201);
  const payment = (await response.json()) as Payment;
  await expect(page.getByRole('heading', { name: PAYMENT_MESSAGES.created })).toBeVisible();
  return payment;
}

/** Makes the page believe it was hidden or shown again, the way a phone switching apps does. */
async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((next) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => next });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => next === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, state);
}

/** The width and height a PNG's header declares. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('the deposit history starts empty and leads to a new deposit; both screens fit a 360 px phone', async ({
  page,
}) => {
  await signInMember(page, member);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/user/deposit-history');
  await expect(page.getByRole('heading', { level: 1, name: 'Deposit history' })).toBeVisible();
  await expect(page.getByTestId('deposits-empty')).toHaveText('No deposits yet.');
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.getByRole('link', { name: PAYMENT_MESSAGES.newDeposit }).click();
  await expect(page).toHaveURL(/\/user\/scanner$/);
  await expect(page.getByRole('heading', { level: 1, name: PAYMENT_MESSAGES.title })).toBeVisible();
  await expect(form(page).getByLabel('Pay with')).toHaveValue('usdtbsc');
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
});

test('the form takes the deposit in USD, paid only in BEP20 USDT, shows the minimum and what will be sent, and checks before sending', async ({
  page,
}) => {
  const creations: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === CREATE) creations.push(r.url());
  });
  const scripts = watchScripts(page);
  await signInMember(page, member);
  await openPayPage(page);
  await page.reload();
  await expect(form(page).getByText('Minimum: $1.00', { exact: true })).toBeVisible();
  expect(QR_CHUNK).toBeTruthy();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts).not.toContain(QR_CHUNK);

  const amount = form(page).getByLabel('Amount to deposit (USD)');
  await expect(amount).toHaveAttribute('type', 'number');
  await expect(amount).toHaveAttribute('step', '0.01');
  await expect(amount).toHaveAttribute('required', '');
  await expect(form(page).getByText('Minimum: $1.00', { exact: true })).toBeVisible();

  const currency = form(page).getByLabel('Currency');
  await expect(currency.locator('option')).toHaveText(['USD']);
  await expect(currency).toHaveValue('usd');
  // The sandbox lists btc and usdttrc20 too: only usdtbsc is offered, as the BEP20 token.
  const payWith = form(page).getByLabel('Pay with');
  await expect(payWith.locator('option')).toHaveText(['Select cryptocurrency', PAY_COIN_LABEL]);
  await expect(payWith.locator('option').nth(1)).toHaveAttribute('value', 'usdtbsc');
  await expect(payWith).toHaveValue('usdtbsc');

  // Validation before any request, with the shared schema's messages on their fields.
  const create = form(page).getByRole('button', { name: PAYMENT_MESSAGES.create });
  await create.click();
  await expect(amount).toHaveAccessibleDescription(new RegExp(`^${WALLET_MESSAGES.amountRequired}`));
  await amount.fill('5');
  await payWith.selectOption('');
  await create.click();
  await expect(payWith).toHaveAccessibleDescription(PAYMENT_MESSAGES.payCurrencyRequired);
  expect(creations).toEqual([]);

  // Before anything is created, the member reads what they will send and what will be credited.
  await amount.fill('49.99');
  await expect(form(page).getByTestId('payment-preview')).toHaveText(
    `You send ${coin('50.5')}; $49.99 is credited to your Active Wallet.`,
  );
  expect(creations).toEqual([]);

  // Below the provider's minimum: the server refuses, and the form says so on the field and in the banner.
  await payWith.selectOption('usdtbsc');
  await amount.fill('0.50');
  await create.click();
  const banner = form(page).getByTestId('payment-error');
  await expect(banner).toContainText(PAYMENT_MESSAGES.errorTitle);
  await expect(banner.locator('p')).toHaveText(`${PAYMENT_MESSAGES.belowMinimum}: $1.00`);
  await expect(amount).toHaveAccessibleDescription(new RegExp(escapeRegExp(PAYMENT_MESSAGES.belowMinimum)));
  expect(creations).toHaveLength(1);

  // No answer at all: "Failed to create payment".
  await page.route(`**${CREATE}`, (route) => route.abort('connectionreset'));
  await amount.fill('3');
  await create.click();
  await expect(banner.locator('p')).toHaveText(PAYMENT_MESSAGES.createFailed);
  await expect(banner).toContainText(PAYMENT_MESSAGES.errorTitle);
  await page.unroute(`**${CREATE}`);
});

test('currencies that cannot be read leave an empty list and say why', async ({ page }) => {
  await signInMember(page, member);
  const payWith = () => form(page).getByLabel('Pay with');

  await page.route(`**${PAYMENTS}/currencies`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"coins":[]}' }),
  );
  await page.goto('/user/scanner');
  await expect(form(page).getByTestId('currencies-error')).toHaveText(PAYMENT_MESSAGES.currenciesInvalid);
  await expect(payWith().locator('option')).toHaveText(['Select cryptocurrency']);

  await page.unroute(`**${PAYMENTS}/currencies`);
  await page.route(`**${PAYMENTS}/currencies`, (route) => route.abort('connectionreset'));
  await page.goto('/user/scanner');
  await expect(form(page).getByTestId('currencies-error')).toHaveText(PAYMENT_MESSAGES.currenciesFailed);
  await expect(payWith().locator('option')).toHaveText(['Select cryptocurrency']);
});

test('a created payment shows its deadline, id, amount, address, QR code and notes; Download QR and Copy Address work', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const checks = watchStatusChecks(page);
  const scripts = watchScripts(page);
  await signInMember(page, member);
  await openPayPage(page);

  // While sending: "Processing..." on a disabled button.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${CREATE}`, async (route) => {
    await held;
    await route.continue();
  });
  await form(page).getByLabel('Amount to deposit (USD)').fill('12.30');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === CREATE);
  await form(page).getByRole('button', { name: PAYMENT_MESSAGES.create }).click();
  await expect(form(page).getByRole('button', { name: PAYMENT_MESSAGES.processing })).toBeDisabled();
  const createdAt = Date.now();
  release();
  const response = await answer;
  expect(response.status()).toBe(201);
  const payment = (await response.json()) as Payment;
  made.full = payment;

  await expect(page.getByRole('heading', { name: PAYMENT_MESSAGES.created })).toBeVisible();
  // Spec 9: 12.30 rounded up, plus 0.5, is what the invoice asks for.
  expect(payment).toMatchObject({
    price_amount: '12.30',
    price_currency: 'usd',
    pay_currency: 'usdtbsc',
    pay_amount: '13.5',
    payment_status: 'waiting',
    provider: 'sandbox',
  });
  expect(payment.expires_at).not.toBeNull();
  await expect(page).toHaveURL(new RegExp(`/user/scanner\\?payment=${payment.payment_id}$`));
  await expect(details(page).getByTestId('payment-deadline')).toHaveText(shownDate(payment.expires_at ?? ''));
  await expect(details(page).getByTestId('payment-id')).toHaveText(payment.payment_id);
  // One amount to send, everywhere on the screen; the price is what will be credited.
  await expect(details(page).getByTestId('payment-amount')).toHaveText(coin('13.5'));
  await expect(details(page).getByTestId('payment-credit')).toHaveText('$12.30');
  await expect(details(page).getByTestId('pay-address')).toHaveText(payment.pay_address);
  await expect(details(page).getByTestId('send-exactly')).toHaveText(`Send exactly ${coin('13.5')}`);
  await expect(details(page).getByText(PAYMENT_MESSAGES.networkFees, { exact: true })).toBeVisible();
  await expect(details(page).getByTestId('payment-credit-note')).toHaveText(
    '$12.30 is credited to your Active Wallet when the payment is finished; the other 1.2 USDT is the processing fee.',
  );
  await expect(details(page).getByTestId('payment-remaining')).toHaveCount(0);
  await expect(page.getByRole('button', { name: PAYMENT_MESSAGES.createNew })).toBeVisible();

  // The live status: waiting, blue, with the spec's message; checked at once after creation.
  await expect(badge(statusPanel(page))).toHaveText('Waiting');
  await expect(badge(statusPanel(page))).toHaveClass(/\bblue\b/);
  await expect(statusPanel(page).getByTestId('payment-status-message')).toHaveText(
    paymentStatusMessage('waiting'),
  );
  // Polling runs only while the page is on screen (issue 6), and the page says so.
  await expect(statusPanel(page).getByTestId('payment-keep-open')).toHaveText(PAYMENT_MESSAGES.keepOpen);
  await expect(statusPanel(page).getByTestId('payment-last-checked')).toHaveText(
    /^Last checked at \d{1,2}:\d{2}:\d{2}\s[AP]M$/,
  );
  await expect(checkNow(page)).toBeVisible();
  await expect.poll(() => checks.length).toBeGreaterThanOrEqual(1);
  expect((checks[0]?.at ?? Number.POSITIVE_INFINITY) - createdAt).toBeLessThan(3000);
  expect(checks[0]?.url).toContain(`${STATUS}${payment.payment_id}`);
  // Taken down only now: removing interception while the first check starts could lose that request.
  await page.unroute(`**${CREATE}`);

  // The QR code: 250 px, level H, of "<address>?amount=<pay_amount>" (read back module by module).
  const text = `${payment.pay_address}?amount=${payment.pay_amount}`;
  const qr = details(page).getByRole('img', { name: /QR code of the payment address/ });
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('data-qr-text', text);
  expect(scripts).toContain(QR_CHUNK);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(250);
  const expected = QRCode.create(text, { errorCorrectionLevel: 'H' }).modules;
  const shown = await qr.evaluate((img: HTMLImageElement, size: number) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    if (!ctx) return [];
    ctx.drawImage(img, 0, 0);
    const scale = img.naturalWidth / (size + 4);
    const dark: boolean[] = [];
    for (let row = 0; row < size; row += 1)
      for (let col = 0; col < size; col += 1) {
        const [r = 255] = ctx.getImageData(
          Math.floor((col + 2.5) * scale),
          Math.floor((row + 2.5) * scale),
          1,
          1,
        ).data;
        dark.push(r < 128);
      }
    return dark;
  }, expected.size);
  expect(shown).toEqual(Array.from(expected.data, (bit) => bit === 1));

  // Download QR: a png named from the first 8 characters of the address.
  const download = page.waitForEvent('download');
  await details(page).getByRole('button', { name: 'Download QR' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${payment.pay_address.slice(0, 8)}.png`);
  expect(pngSize(readFileSync(await file.path()))).toEqual({ width: 250, height: 250 });

  // Copy Address: the clipboard holds the address, an alert says so, then "Copied!" for 2 s.
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  const copy = details(page).getByRole('button', { name: 'Copy Address' });
  await copy.click();
  const copiedAt = Date.now();
  const copied = details(page).getByRole('button', { name: PAYMENT_MESSAGES.copiedLabel });
  await expect(copied).toBeVisible();
  expect(alerts).toEqual([`alert: ${PAYMENT_MESSAGES.copied}`]);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payment.pay_address);
  await page.waitForTimeout(1200);
  await expect(copied).toBeVisible();
  await expect(details(page).getByRole('button', { name: 'Copy Address' })).toBeVisible({ timeout: 3000 });
  expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(1900);

  // The sandbox says plainly that nothing real happens, and pays the amount the screen asks for.
  await expect(sandbox(page)).toContainText('no real money moves');
  await expect(sandbox(page).getByRole('button', { name: /^Pay the full amount/ })).toHaveText(
    `Pay the full amount: ${coin('13.5')}`,
  );
  await expect(sandbox(page).getByLabel(/Part to pay/)).toHaveValue('6.75');

  // Every line of it fits a 360 px phone.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(details(page).getByTestId('send-exactly')).toBeVisible();
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
});

test('status checks come every 10 s, pause while the page is hidden and resume at once when it is shown', async ({
  page,
}) => {
  const payment = earlier('full');
  await page.clock.install();
  const checks = watchStatusChecks(page);
  await signInMember(page, member);
  await page.goto(`/user/scanner?payment=${payment.payment_id}`);
  await expect(badge(statusPanel(page))).toHaveText('Waiting');
  expect(checks).toHaveLength(1);

  // The 10 s run from each answer. The clock keeps flowing between these steps too, so each one
  // leaves room: 8.5 s after an answer there is no new check yet, 10.5 s after it there is.
  const nextCheck = async (count: number) => {
    await page.clock.runFor(8_500);
    expect(checks).toHaveLength(count - 1);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(STATUS));
    await page.clock.runFor(2_000);
    await answered;
    expect(checks).toHaveLength(count);
  };
  await nextCheck(2);
  await nextCheck(3);

  await setVisibility(page, 'hidden');
  await page.clock.runFor(45_000);
  await page.waitForTimeout(300);
  expect(checks).toHaveLength(3);

  await setVisibility(page, 'visible');
  await expect.poll(() => checks.length).toBe(4);
});

test('paying the amount the screen asks for walks the statuses to "Payment Successful!", shows the same amount paid, and credits what it said once', async ({
  page,
}) => {
  const payment = earlier('full');
  await signInMember(page, member);
  await page.goto('/user/dashboard');
  await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
  await page.goto(`/user/scanner?payment=${payment.payment_id}`);
  await expect(badge(statusPanel(page))).toHaveText('Waiting');
  const toSend = (await details(page).getByTestId('payment-amount').textContent()) ?? '';
  const toCredit = (await details(page).getByTestId('payment-credit').textContent()) ?? '';
  expect([toSend, toCredit]).toEqual([coin('13.5'), '$12.30']);

  // The statuses in the order the answers arrived: each body is read later, so its place is taken
  // when the response comes, not when its body has been parsed (those can finish out of order).
  const answers: Promise<string | null>[] = [];
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith(PAYMENTS)) return;
    answers.push(
      response
        .json()
        .then((body: Payment | null) => body?.payment_status ?? null)
        .catch(() => null),
    );
  });
  await sandbox(page)
    .getByRole('button', { name: `Pay the full amount: ${toSend}` })
    .click();
  // The transfer is seen at once; the sandbox offers nothing more to pay.
  await expect(badge(statusPanel(page))).not.toHaveText('Waiting');
  await expect(sandbox(page)).toHaveCount(0);
  // "Check now" asks again at once: a few presses catch the steps of the walk (300 ms apart).
  const success = page.getByRole('heading', { name: PAYMENT_MESSAGES.successTitle });
  await expect
    .poll(
      async () => {
        if (await success.isVisible()) return true;
        await checkNow(page).click();
        return false;
      },
      { intervals: [150], timeout: 15_000 },
    )
    .toBe(true);
  const seen: string[] = [];
  for (const status of await Promise.all(answers)) if (status && seen.at(-1) !== status) seen.push(status);
  // Once paid, the statuses only move forward, through the walk, to finished. Which steps a slow
  // machine saw between the checks depends on timing, so that is not asserted.
  const order = ['confirming', 'confirmed', 'sending', 'finished'];
  expect(
    seen.every((s) => order.includes(s)),
    seen.join(' > '),
  ).toBe(true);
  expect(seen.at(-1)).toBe('finished');
  expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort());

  const done = page.getByTestId('payment-success');
  await expect(done).toContainText(payment.payment_id);
  // Final: nothing more to wait for or to check.
  await expect(page.getByTestId('payment-keep-open')).toHaveCount(0);
  await expect(checkNow(page)).toHaveCount(0);
  // The amount paid is the amount the screen asked for; the credit is what it said it would be.
  await expect(done.getByTestId('amount-paid')).toHaveText(toSend);
  await expect(done).toContainText(payment.order_id);
  await expect(done.getByTestId('credited-amount')).toHaveText(toCredit);

  // However often the status is read again, the money arrives once.
  for (let i = 0; i < 3; i += 1) {
    const again = await page.request.get(`${STATUS}${payment.payment_id}`);
    expect(((await again.json()) as Payment).payment_status).toBe('finished');
  }
  await page.reload();
  await expect(success).toBeVisible();
  // "Return Home" takes the signed-in member to their dashboard, where the Active Wallet shows the credit.
  await done.getByRole('link', { name: PAYMENT_MESSAGES.returnHome }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByTestId('balance-business')).toHaveText(toCredit);
  await page.reload();
  await expect(page.getByTestId('balance-business')).toHaveText(toCredit);
});

test('Create New Payment goes back to an empty form; paying part of an invoice ends partially paid, says what is still to send and credits nothing', async ({
  page,
}) => {
  const checks = watchStatusChecks(page);
  await signInMember(page, member);
  await page.goto(`/user/scanner?payment=${made.full?.payment_id ?? ''}`);
  await expect(page.getByRole('heading', { name: PAYMENT_MESSAGES.successTitle })).toBeVisible();
  await openPayPage(page);
  await expect(form(page).getByLabel('Amount to deposit (USD)')).toHaveValue('');

  made.partial = await createThroughForm(page, '5');
  expect(made.partial.pay_amount).toBe('5.5');
  await page.getByRole('button', { name: PAYMENT_MESSAGES.createNew }).click();
  await expect(form(page).getByLabel('Amount to deposit (USD)')).toHaveValue('');
  await expect(page).toHaveURL(/\/user\/scanner$/);
  await page.goBack();
  await expect(details(page).getByTestId('payment-id')).toHaveText(made.partial.payment_id);

  const part = sandbox(page).getByLabel(/Part to pay/);
  await expect(part).toHaveValue('2.75');
  await sandbox(page).getByRole('button', { name: 'Pay this part' }).click();
  await expect(sandbox(page)).toHaveCount(0);
  // No need to wait for the next regular check (10 s): "Check now" asks at once, each press one request.
  await expect
    .poll(
      async () => {
        if ((await badge(statusPanel(page)).textContent()) === 'Partially paid') return true;
        const before = checks.length;
        await checkNow(page).click();
        await expect.poll(() => checks.length).toBeGreaterThan(before);
        return false;
      },
      { intervals: [150], timeout: 10_000 },
    )
    .toBe(true);
  await expect(badge(statusPanel(page))).toHaveClass(/\bblue\b/);
  await expect(statusPanel(page).getByTestId('payment-status-message')).toHaveText(
    paymentStatusMessage('partially_paid'),
  );
  // Polling goes on, since the rest may still come; the screen now asks only for the rest.
  await expect(checkNow(page)).toBeVisible();
  await expect(details(page).getByTestId('payment-received')).toHaveText(coin('2.75'));
  await expect(details(page).getByTestId('payment-remaining')).toHaveText(coin('2.75'));
  await expect(details(page).getByTestId('send-exactly')).toHaveText(`Send exactly ${coin('2.75')}`);
  await expect(details(page).getByRole('img', { name: /QR code of the payment address/ })).toHaveAttribute(
    'data-qr-text',
    `${made.partial.pay_address}?amount=2.75`,
  );
  await expect(sandbox(page).getByRole('button', { name: /^Pay the rest/ })).toHaveText(
    `Pay the rest: ${coin('2.75')}`,
  );
  await expect(page.getByRole('heading', { name: PAYMENT_MESSAGES.successTitle })).toHaveCount(0);
  const balance = await page.request.get('/api/v1/wallet/balance');
  expect(((await balance.json()) as { business: string }).business).toBe('12.30');
});

test('the deposit history lists both payments, newest first, with status and credit; it searches by payment ID and exports CSV', async ({
  page,
}) => {
  const full = earlier('full');
  const partial = earlier('partial');
  await signInMember(page, member);
  await openPayPage(page);
  await page.getByRole('link', { name: 'Deposit history' }).click();
  await expect(page).toHaveURL(/\/user\/deposit-history$/);
  // One card per deposit on a phone: the shared table's rows, stacked.
  const list = page.getByTestId('deposit-history');
  const rows = list.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  const [partialRow, fullRow] = [rows.nth(0), rows.nth(1)];
  const facts = (row: Locator) =>
    [
      'deposit-amount',
      'deposit-date',
      'deposit-id',
      'deposit-asked',
      'deposit-received',
      'deposit-credited',
    ].map((id) => row.getByTestId(id));
  const expectRow = async (row: Locator, shown: (string | RegExp)[], status: string) => {
    for (const [i, fact] of facts(row).entries()) await expect(fact).toHaveText(shown[i] ?? '');
    await expect(badge(row)).toHaveText(status);
  };
  await expectRow(
    partialRow,
    ['$5.00 USD', shownDate(partial.created_at), partial.payment_id, coin('5.5'), coin('2.75'), '—'],
    'Partially paid',
  );
  await expectRow(
    fullRow,
    ['$12.30 USD', shownDate(full.created_at), full.payment_id, coin('13.5'), coin('13.5'), '$12.30'],
    'Finished',
  );
  // Each fact on a card is named, the way its column heading would name it.
  const labels = await fullRow
    .locator('td')
    .evaluateAll((cells) =>
      cells.map((cell) => getComputedStyle(cell, '::before').content.replace(/^"|"$/g, '')),
    );
  expect(labels).toEqual([
    'Deposit (USD)',
    'Status',
    'Date',
    'Payment ID',
    'Amount to send',
    'Received',
    'Credited to your Active Wallet (USD)',
  ]);
  // Every fact stays on a 360 px screen: nothing to scroll sideways, neither the page nor the list's cards.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  const cards = list.locator('.table-scroll');
  expect(await cards.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await expect(badge(fullRow)).toHaveClass(/\bgreen\b/);

  // "Export CSV": every deposit, newest first, as shown (the date in ISO, dollars as plain numbers under
  // their USD heading, the coin named in full, so quoted for its commas).
  const download = page.waitForEvent('download');
  await list.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('deposits.csv');
  const lines = readFileSync(await file.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n');
  expect(lines).toEqual([
    'Deposit (USD),Status,Date,Payment ID,Amount to send,Received,Credited to your Active Wallet (USD)',
    `5.00,Partially paid,${partial.created_at},${partial.payment_id},"${coin('5.5')}","${coin('2.75')}",`,
    `12.30,Finished,${full.created_at},${full.payment_id},"${coin('13.5')}","${coin('13.5')}",12.30`,
    '',
  ]);

  // Searching by payment ID (part of it is enough) leaves that deposit alone; no match says so.
  const search = list.getByLabel('Search by payment ID');
  await search.fill(full.payment_id.slice(-6));
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('deposit-id')).toHaveText(full.payment_id);
  await search.fill('no-such-payment');
  await expect(rows).toHaveCount(0);
  await expect(list.getByTestId('deposit-history-empty')).toHaveText('No deposits match this search.');
  await search.fill('');
  await expect(rows).toHaveCount(2);
});

test('a status check that fails shows why, and Retry reloads the page; final failures read "Failed"', async ({
  page,
}) => {
  const payment = earlier('partial');
  await signInMember(page, member);

  await page.route(`**${STATUS}**`, (route) => route.abort('connectionreset'));
  await page.goto(`/user/scanner?payment=${payment.payment_id}`);
  const failure = page.getByTestId('payment-status-error');
  await expect(failure).toContainText(PAYMENT_MESSAGES.statusFailed);
  await page.unroute(`**${STATUS}**`);
  const reloaded = page.waitForEvent('load');
  await failure.getByRole('button', { name: PAYMENT_MESSAGES.retry }).click();
  await reloaded;
  await expect(badge(statusPanel(page))).toHaveText('Partially paid');
  await expect(failure).toHaveCount(0);

  // Someone else's payment, or none: the server's own error.
  await page.goto('/user/scanner?payment=not-a-payment');
  await expect(failure).toContainText(PAYMENT_MESSAGES.notFound);

  // Expired (the sandbox takes 20 minutes for that): a bare "Failed", the red badge and its message.
  await page.route(`**${STATUS}**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ ...payment, payment_status: 'expired', actually_paid: '0' }),
    }),
  );
  await page.goto(`/user/scanner?payment=${payment.payment_id}`);
  await expect(page.getByTestId('payment-failed')).toHaveText(PAYMENT_MESSAGES.failed);
  await expect(badge(statusPanel(page))).toHaveText('Expired');
  await expect(badge(statusPanel(page))).toHaveClass(/\bred\b/);
  await expect(statusPanel(page).getByTestId('payment-status-message')).toHaveText(
    paymentStatusMessage('expired'),
  );
  await expect(page.getByTestId('payment-details')).toHaveCount(0);
});
