import { randomBytes, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import {
  PAYMENT_EXPIRY_MS,
  PAYMENT_MESSAGES,
  PAYMENT_STATUS_RANK,
  paymentSchema,
} from '../../src/shared/payments.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Crypto payments with the built-in sandbox provider (API.md "Crypto payments", RULES.md "Deposits"):
// invoices in BEP20 USDT for the session's member, a simulated payer, statuses that only move forward,
// the business wallet credited price_amount exactly once on `finished` and never on partially_paid or
// expired, admin lists and manual credits, and the background check that credits without a poll.
// Members in this file: 12 on the main server, 1 on the sweep server (the limit is 20 per server).

const STEP_MS = 50;

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer({ SANDBOX_STEP_MS: String(STEP_MS), PAYMENT_SWEEP_MS: '0' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof signedInMember>>;
type Body = Record<string, unknown>;

const order = (overrides: Body = {}): Body => ({
  price_amount: '25.00',
  price_currency: 'usd',
  pay_currency: 'usdtbsc',
  ...overrides,
});

const create = (who: Member | ApiClient, body: Body = order(), headers?: Record<string, string>) =>
  (who instanceof ApiClient ? who : who.client).post('/payments/create-payment', body, headers);

/** Creates a payment and fails loudly unless it answers 201. */
async function created(who: Member, body: Body = order()) {
  const res = await create(who, body);
  expect(res.status, res.text).toBe(201);
  return res.body as v.InferOutput<typeof paymentSchema>;
}

const statusOf = (who: Member | ApiClient, id: string) =>
  (who instanceof ApiClient ? who : who.client).get(`/payments/payment-status/${id}`);

const pay = (who: Member, id: string, body: Body = {}) =>
  who.client.post(`/payments/sandbox/${id}/pay`, body);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls payment-status until it reports `status`; returns every status seen on the way. */
async function pollUntil(who: Member, id: string, status: string, timeoutMs = 10_000) {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await statusOf(who, id);
    expect(res.status, res.text).toBe(200);
    const current = res.body.payment_status as string;
    if (seen.at(-1) !== current) seen.push(current);
    if (current === status) return { seen, payment: res.body };
    if (Date.now() > deadline) throw new Error(`payment ${id} stayed ${current}; seen ${seen.join(' > ')}`);
    await sleep(10);
  }
}

const balanceOf = async (who: Member) => {
  const res = await who.client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

const creditsOf = (paymentId: string) =>
  server.db.selectFrom('payment_credits').selectAll().where('provider_payment_id', '=', paymentId).execute();

const depositsTo = (userId: string) =>
  server.db
    .selectFrom('ledger_transfers')
    .selectAll()
    .where('credit_account_id', '=', `${userId}:business`)
    .execute();

const paymentRow = (paymentId: string) =>
  server.db
    .selectFrom('crypto_payments')
    .selectAll()
    .where('provider_payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();

const countOf = async (table: 'crypto_payments' | 'sandbox_payments' | 'payment_credits') =>
  Number(
    (
      await server.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

/** Moves a sandbox invoice's expiry into the past, as if its 20 minutes had run out. */
const expire = (paymentId: string) =>
  server.db
    .updateTable('sandbox_payments')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', paymentId)
    .execute();

const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

describe('currencies and the minimum amount', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(server.baseUrl);
  });

  it('lists the currencies, usdtbsc among them, to a signed-in member only', async () => {
    const res = await member.client.get('/payments/currencies');
    expect(res.status).toBe(200);
    expect(res.body.currencies).toContainEqual({ code: 'usdtbsc', name: expect.any(String), network: 'bsc' });
    for (const currency of res.body.currencies)
      expect(currency).toEqual({
        code: expect.any(String),
        name: expect.any(String),
        network: expect.any(String),
      });
    expect((await new ApiClient(server.baseUrl).get('/payments/currencies')).status).toBe(401);
  });

  it("answers the provider's minimum and refuses a smaller price with a 400 on price_amount", async () => {
    const min = await member.client.get('/payments/min-amount/usdtbsc/usdtbsc');
    expect(min.status).toBe(200);
    expect(min.body).toEqual({ min_amount: 1 });
    expect((await member.client.get('/payments/min-amount/USDTBSC/usdtbsc')).body).toEqual({ min_amount: 1 });

    const before = await countOf('crypto_payments');
    const res = await create(member, order({ price_amount: '0.99' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'price_amount', message: expect.stringContaining(PAYMENT_MESSAGES.belowMinimum) },
    ]);
    expect(res.body.errors[0].message).toBe(`${PAYMENT_MESSAGES.belowMinimum}: $1.00`);
    expect(await countOf('crypto_payments')).toBe(before);
    // Exactly the minimum is accepted.
    expect((await create(member, order({ price_amount: '1.00' }))).status).toBe(201);
  });
});

describe('POST /payments/create-payment', () => {
  let alice: Member;
  let bob: Member;
  beforeAll(async () => {
    alice = await signedInMember(server.baseUrl);
    bob = await signedInMember(server.baseUrl);
  });

  it("answers 201 with the Payment response for the session's member, whatever id the body names", async () => {
    const before = Date.now();
    const res = await create(alice, order({ price_amount: '25.00', id: bob.auth.id }));
    expect(res.status).toBe(201);
    const payment = res.body;
    expect(Object.keys(payment).sort()).toEqual(Object.keys(paymentSchema.entries).sort());
    expect(v.safeParse(paymentSchema, payment).success).toBe(true);
    expect(payment).toMatchObject({
      payment_id: expect.stringMatching(/^\d+$/),
      pay_address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      price_amount: '25.00',
      price_currency: 'usd',
      pay_currency: 'usdtbsc',
      // Spec 9's amount (rounded up, plus 0.5) is what the invoice asks for: the one amount to send.
      pay_amount: '25.5',
      payment_status: 'waiting',
      order_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      credited_amount: null,
      provider: 'sandbox',
    });
    expect(['0', null]).toContain(payment.actually_paid);
    const createdAt = Date.parse(payment.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(Math.abs(Date.parse(payment.expires_at) - createdAt - PAYMENT_EXPIRY_MS)).toBeLessThan(5000);

    // Stored for Alice, with the sandbox's own invoice under the same order id.
    const row = await paymentRow(payment.payment_id);
    expect(row).toMatchObject({ user_id: alice.auth.id, id: payment.order_id, provider: 'sandbox' });
    expect(Number(row.price_amount_cents)).toBe(2500);
    const invoice = await server.db
      .selectFrom('sandbox_payments')
      .selectAll()
      .where('id', '=', payment.payment_id)
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({
      order_id: payment.order_id,
      pay_address: payment.pay_address,
      price_amount: '25.00',
      pay_amount: '25.5',
    });

    expect((await alice.client.get('/payments/mine')).body.payments.map((p: Body) => p.payment_id)).toContain(
      payment.payment_id,
    );
    expect((await bob.client.get('/payments/mine')).body.payments).toEqual([]);
    expect((await statusOf(bob, payment.payment_id)).status).toBe(404);
  });

  it('refuses invalid amounts and currencies with 400 and the field, and stores nothing', async () => {
    const before = {
      payments: await countOf('crypto_payments'),
      invoices: await countOf('sandbox_payments'),
    };
    const cases: [Body, string, string][] = [
      [{ price_amount: undefined }, 'price_amount', WALLET_MESSAGES.amountRequired],
      [{ price_amount: '' }, 'price_amount', WALLET_MESSAGES.amountRequired],
      [{ price_amount: '0' }, 'price_amount', WALLET_MESSAGES.amountPositive],
      [{ price_amount: 0 }, 'price_amount', WALLET_MESSAGES.amountPositive],
      [{ price_amount: '-5.00' }, 'price_amount', WALLET_MESSAGES.amountPositive],
      [{ price_amount: '10.123' }, 'price_amount', WALLET_MESSAGES.amountFormat],
      [{ price_amount: 'ten' }, 'price_amount', WALLET_MESSAGES.amountInvalid],
      [{ price_currency: 'eur' }, 'price_currency', PAYMENT_MESSAGES.onlyUsd],
      [{ price_currency: undefined }, 'price_currency', PAYMENT_MESSAGES.currencyRequired],
      [{ pay_currency: 'btc' }, 'pay_currency', PAYMENT_MESSAGES.onlyUsdtBsc],
      [{ pay_currency: 'usdttrc20' }, 'pay_currency', PAYMENT_MESSAGES.onlyUsdtBsc],
      [{ pay_currency: undefined }, 'pay_currency', PAYMENT_MESSAGES.payCurrencyRequired],
      [{ pay_currency: ' ' }, 'pay_currency', PAYMENT_MESSAGES.payCurrencyRequired],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await create(alice, order(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(overrides)).toContain(field);
      expect(res.body.errors.find((e: { field: string }) => e.field === field).message).toBe(message);
    }
    expect(await countOf('crypto_payments')).toBe(before.payments);
    expect(await countOf('sandbox_payments')).toBe(before.invoices);
  });

  it('accepts the currencies in any case and numbers with up to 2 decimals', async () => {
    const upper = await create(
      alice,
      order({ pay_currency: 'USDTBSC', price_currency: 'USD', price_amount: 12.3 }),
    );
    expect(upper.status).toBe(201);
    expect(upper.body).toMatchObject({
      pay_currency: 'usdtbsc',
      price_currency: 'usd',
      price_amount: '12.30',
    });
  });

  it('is for signed-in members: 401 without a session, 403 for an admin', async () => {
    expect((await create(new ApiClient(server.baseUrl))).status).toBe(401);
    expect((await create(admin)).status).toBe(403);
  });

  it('answers a repeated Idempotency-Key with the same payment, and another body with 409', async () => {
    const key = randomUUID();
    const before = {
      payments: await countOf('crypto_payments'),
      invoices: await countOf('sandbox_payments'),
    };
    const first = await create(alice, order({ price_amount: '40.00' }), { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const again = await create(alice, order({ price_amount: '40.00' }), { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // The body's id is ignored, so naming one does not make it another request.
    const withId = await create(alice, order({ price_amount: '40.00', id: alice.auth.id }), {
      'Idempotency-Key': key,
    });
    expect(withId.body.payment_id).toBe(first.body.payment_id);
    const other = await create(alice, order({ price_amount: '41.00' }), { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(WALLET_MESSAGES.idempotencyReused);
    expect(await countOf('crypto_payments')).toBe(before.payments + 1);
    expect(await countOf('sandbox_payments')).toBe(before.invoices + 1);
    // The same key is Alice's own: Bob using it makes his own payment.
    const bobs = await create(bob, order({ price_amount: '41.00' }), { 'Idempotency-Key': key });
    expect(bobs.status).toBe(201);
    expect(bobs.body.payment_id).not.toBe(first.body.payment_id);
  });
});

describe('the simulated payer', () => {
  it('walks a full payment forward to finished and credits the business wallet price_amount once', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member, order({ price_amount: '25.50' }));
    expect(payment.pay_amount).toBe('26.5');
    const paid = await pay(member, payment.payment_id);
    expect(paid.status).toBe(200);
    expect(paid.body.payment_id).toBe(payment.payment_id);
    expect(PAYMENT_STATUS_RANK[paid.body.payment_status as 'confirming']).toBeGreaterThanOrEqual(
      PAYMENT_STATUS_RANK.confirming,
    );

    const { seen, payment: done } = await pollUntil(member, payment.payment_id, 'finished');
    const ranks = seen.map((s) => PAYMENT_STATUS_RANK[s as 'finished']);
    expect(ranks, seen.join(' > ')).toEqual([...ranks].sort((a, b) => a - b));
    expect(seen.every((s) => ['confirming', 'confirmed', 'sending', 'finished'].includes(s))).toBe(true);
    // The default transfer is exactly what the invoice asked for; the price is what is credited.
    expect(done).toMatchObject({
      pay_amount: '26.5',
      actually_paid: '26.5',
      price_amount: '25.50',
      credited_amount: '25.50',
    });
    expect(await balanceOf(member)).toEqual({ business: '25.50', working: '0.00' });

    // Asked again and again: still one credit.
    for (let i = 0; i < 5; i++)
      expect((await statusOf(member, payment.payment_id)).body.payment_status).toBe('finished');
    await member.client.get('/payments/mine');
    expect(await balanceOf(member)).toEqual({ business: '25.50', working: '0.00' });
    const credits = await creditsOf(payment.payment_id);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ provider: 'sandbox', method: 'automatic', created_by: null });
    expect(Number(credits[0]?.amount_cents)).toBe(2550);
    const deposits = await depositsTo(member.auth.id);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({
      id: credits[0]?.ledger_transfer_id,
      kind: 'deposit',
      debit_account_id: 'platform:deposits',
      reference: `payment:sandbox:${payment.payment_id}`,
    });
    expect(Number(deposits[0]?.amount_cents)).toBe(2550);
    await expectBalanced();
  });

  it('credits once when 20 polls and the history race for a payment that has just finished', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member, order({ price_amount: '7.25' }));
    // Paid directly in the sandbox's book, so no request has recorded any status yet.
    await server.db
      .updateTable('sandbox_payments')
      .set({ paid_amount: payment.pay_amount, paid_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', payment.payment_id)
      .execute();
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('waiting');

    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => statusOf(member, payment.payment_id)),
      ...Array.from({ length: 5 }, () => member.client.get('/payments/mine')),
    ]);
    for (const res of answers) expect(res.status, res.text).toBe(200);
    for (const res of answers.slice(0, 20))
      expect(res.body).toMatchObject({ payment_status: 'finished', credited_amount: '7.25' });
    expect(await balanceOf(member)).toEqual({ business: '7.25', working: '0.00' });
    expect(await creditsOf(payment.payment_id)).toHaveLength(1);
    expect(await depositsTo(member.auth.id)).toHaveLength(1);
    await expectBalanced();
  });

  it('leaves a partial payment partially_paid with no credit until the rest arrives', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member, order({ price_amount: '30.00' }));
    const paid = await pay(member, payment.payment_id, { amount: '10.5' });
    expect(paid.status).toBe(200);
    expect(['waiting', 'partially_paid']).toContain(paid.body.payment_status);
    const { payment: partial } = await pollUntil(member, payment.payment_id, 'partially_paid');
    expect(partial).toMatchObject({ actually_paid: '10.5', credited_amount: null });
    await sleep(STEP_MS * 6);
    expect((await statusOf(member, payment.payment_id)).body).toMatchObject({
      payment_status: 'partially_paid',
      credited_amount: null,
    });
    expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });
    expect(await creditsOf(payment.payment_id)).toEqual([]);
    // Spec 4 asks the payer to send the remaining amount: the rest completes the payment, credited once.
    // Still short of the 30.5 asked: still partially paid, still nothing credited.
    expect((await pay(member, payment.payment_id, { amount: '19.5' })).status).toBe(200);
    const { payment: short } = await pollUntil(member, payment.payment_id, 'partially_paid');
    await sleep(STEP_MS * 3);
    expect((await statusOf(member, payment.payment_id)).body).toMatchObject({
      payment_status: 'partially_paid',
      actually_paid: '30',
      credited_amount: null,
    });
    expect(short.pay_amount).toBe('30.5');
    const rest = await pay(member, payment.payment_id, { amount: '0.5' });
    expect(rest.status).toBe(200);
    const { payment: done } = await pollUntil(member, payment.payment_id, 'finished');
    expect(done).toMatchObject({ actually_paid: '30.5', credited_amount: '30.00' });
    expect(await balanceOf(member)).toEqual({ business: '30.00', working: '0.00' });
    expect(await creditsOf(payment.payment_id)).toHaveLength(1);
    expect((await pay(member, payment.payment_id, { amount: '1' })).status).toBe(409);
  });

  it('refuses a second transfer with 409 and still credits once', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member, order({ price_amount: '5.00' }));
    expect((await pay(member, payment.payment_id)).status).toBe(200);
    const twice = await pay(member, payment.payment_id);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: PAYMENT_MESSAGES.sandboxNotWaiting });
    await pollUntil(member, payment.payment_id, 'finished');
    expect((await pay(member, payment.payment_id)).status).toBe(409);
    expect(await balanceOf(member)).toEqual({ business: '5.00', working: '0.00' });
  });

  it('refuses a malformed amount with 400', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member);
    for (const amount of ['-1', '0', 'abc', '1.123456789'])
      expect((await pay(member, payment.payment_id, { amount })).status, amount).toBe(400);
    expect((await statusOf(member, payment.payment_id)).body.payment_status).toBe('waiting');
  });

  it('expires an unpaid invoice at expires_at: expired, nothing credited, no transfer accepted', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member, order({ price_amount: '15.00' }));
    await expire(payment.payment_id);
    const res = await statusOf(member, payment.payment_id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ payment_status: 'expired', credited_amount: null });
    const late = await pay(member, payment.payment_id);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(PAYMENT_MESSAGES.sandboxNotWaiting);
    expect((await statusOf(member, payment.payment_id)).body.payment_status).toBe('expired');
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('expired');
    expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });
    expect(await creditsOf(payment.payment_id)).toEqual([]);
  });

  it("answers another member's payment, and an unknown one, with 404 on status and pay", async () => {
    const owner = await signedInMember(server.baseUrl);
    const other = await signedInMember(server.baseUrl);
    const payment = await created(owner);
    const peek = await statusOf(other, payment.payment_id);
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ message: PAYMENT_MESSAGES.notFound });
    const steal = await pay(other, payment.payment_id);
    expect(steal.status).toBe(404);
    expect((await statusOf(owner, payment.payment_id)).body.payment_status).toBe('waiting');
    expect((await statusOf(owner, '999999')).status).toBe(404);
    expect((await pay(owner, '999999')).status).toBe(404);
    // An admin may look at any payment (the Deposits screen) but pays nothing.
    expect((await statusOf(admin, payment.payment_id)).body.payment_id).toBe(payment.payment_id);
    expect((await admin.post(`/payments/sandbox/${payment.payment_id}/pay`, {})).status).toBe(403);
    expect(
      (await new ApiClient(server.baseUrl).get(`/payments/payment-status/${payment.payment_id}`)).status,
    ).toBe(401);
  });
});

describe('payment lists and the manual credit', () => {
  let carol: Member;
  let dave: Member;
  let carolFinished: string;
  let carolPartial: string;
  let daveWaiting: string;
  beforeAll(async () => {
    carol = await signedInMember(server.baseUrl);
    dave = await signedInMember(server.baseUrl);
    carolFinished = (await created(carol, order({ price_amount: '11.00' }))).payment_id;
    expect((await pay(carol, carolFinished)).status).toBe(200);
    await pollUntil(carol, carolFinished, 'finished');
    carolPartial = (await created(carol, order({ price_amount: '50.00' }))).payment_id;
    expect((await pay(carol, carolPartial, { amount: '20' })).status).toBe(200);
    await pollUntil(carol, carolPartial, 'partially_paid');
    daveWaiting = (await created(dave, order({ price_amount: '9.00' }))).payment_id;
  });

  it("GET /payments/mine lists the member's own payments only, newest first", async () => {
    const res = await carol.client.get('/payments/mine');
    expect(res.status).toBe(200);
    expect(res.body.payments.map((p: Body) => p.payment_id)).toEqual([carolPartial, carolFinished]);
    for (const payment of res.body.payments) expect(v.safeParse(paymentSchema, payment).success).toBe(true);
    expect(res.body.payments[1]).toMatchObject({ payment_status: 'finished', credited_amount: '11.00' });
    const daves = await dave.client.get('/payments/mine');
    expect(daves.body.payments.map((p: Body) => p.payment_id)).toEqual([daveWaiting]);
    expect((await admin.get('/payments/mine')).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).get('/payments/mine')).status).toBe(401);
  });

  it('GET /payments/all lists every payment with its member for an admin, by status', async () => {
    const all = await admin.get('/payments/all?limit=200');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 200, total: await countOf('crypto_payments') });
    const ids = all.body.payments.map((p: Body) => p.payment_id);
    expect(ids).toEqual(expect.arrayContaining([carolFinished, carolPartial, daveWaiting]));

    const finished = await admin.get('/payments/all?status=finished&limit=200');
    expect(finished.status).toBe(200);
    expect(finished.body.payments.length).toBeGreaterThan(0);
    expect(finished.body.payments.every((p: Body) => p.payment_status === 'finished')).toBe(true);
    expect(finished.body.total).toBe(finished.body.payments.length);
    expect(finished.body.payments.find((p: Body) => p.payment_id === carolFinished)).toMatchObject({
      member_id: carol.auth.id,
      member_email: carol.member.email,
      member_name: carol.member.fullname,
      credited_amount: '11.00',
    });
    const partial = await admin.get('/payments/all?status=partially_paid');
    expect(partial.body.payments.map((p: Body) => p.payment_id)).toContain(carolPartial);
    expect(partial.body.payments.map((p: Body) => p.payment_id)).not.toContain(carolFinished);

    const paged = await admin.get('/payments/all?limit=1&page=2');
    expect(paged.body).toMatchObject({ page: 2, limit: 1 });
    expect(paged.body.payments).toHaveLength(1);
    // (Payments created in the same millisecond may trade places between two queries.)
    expect(ids).toContain(paged.body.payments[0].payment_id);

    expect((await admin.get('/payments/all?status=paid')).status).toBe(400);
    expect((await carol.client.get('/payments/all')).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).get('/payments/all')).status).toBe(401);
  });

  it('lets an admin credit a partially paid payment by hand once, audited', async () => {
    const before = await balanceOf(carol);
    expect(before.business).toBe('11.00');
    const body = { amount: '20.00', reason: 'Payer sent 20 of 50; credited what arrived' };

    const member = await carol.client.post(`/payments/${carolPartial}/manual-credit`, body);
    expect(member.status).toBe(403);
    expect(member.body).toEqual({ message: GENERIC.forbidden });
    expect((await admin.post(`/payments/${carolPartial}/manual-credit`, { amount: '20.00' })).status).toBe(
      400,
    );
    expect((await admin.post('/payments/999999/manual-credit', body)).status).toBe(404);

    const res = await admin.post(`/payments/${carolPartial}/manual-credit`, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: expect.any(String),
      payment: { payment_id: carolPartial, payment_status: 'partially_paid', credited_amount: '20.00' },
    });
    expect(await balanceOf(carol)).toEqual({ business: '31.00', working: '0.00' });
    const credits = await creditsOf(carolPartial);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ method: 'manual', created_by: expect.any(String) });
    expect(Number(credits[0]?.amount_cents)).toBe(2000);
    const transfer = await server.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('id', '=', credits[0]?.ledger_transfer_id ?? '')
      .executeTakeFirstOrThrow();
    expect(transfer).toMatchObject({ kind: 'adjustment', credit_account_id: `${carol.auth.id}:business` });
    const audits = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'payment.manual_credit')
      .where('target_id', '=', carol.auth.id)
      .execute();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_id: credits[0]?.created_by, reason: body.reason });
    expect(JSON.parse(audits[0]?.before_json ?? '{}')).toMatchObject({ payment: carolPartial });
    expect(JSON.parse(audits[0]?.after_json ?? '{}')).toMatchObject({
      credited: '20.00',
      wallet: 'business',
    });

    const again = await admin.post(`/payments/${carolPartial}/manual-credit`, {
      ...body,
      reason: 'Second try',
    });
    expect(again.status).toBe(409);
    const finished = await admin.post(`/payments/${carolFinished}/manual-credit`, body);
    expect(finished.status).toBe(422);
    const waiting = await admin.post(`/payments/${daveWaiting}/manual-credit`, body);
    expect(waiting.status).toBe(422);
    expect(await balanceOf(carol)).toEqual({ business: '31.00', working: '0.00' });
    expect(await balanceOf(dave)).toEqual({ business: '0.00', working: '0.00' });
    expect(await creditsOf(carolPartial)).toHaveLength(1);
    await expectBalanced();
  });
});

describe('POST /payments/ipn with the sandbox provider', () => {
  it('refuses every callback with 401 (no IPN secret) and changes nothing', async () => {
    const member = await signedInMember(server.baseUrl);
    const payment = await created(member);
    const rowBefore = await paymentRow(payment.payment_id);
    const ipn = (headers: Record<string, string>) =>
      fetch(`${server.baseUrl}/api/v1/payments/ipn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ payment_id: payment.payment_id, payment_status: 'finished' }),
      });
    const attempts: Record<string, string>[] = [
      {},
      { 'x-nowpayments-sig': randomBytes(64).toString('hex') },
      { 'x-nowpayments-sig': 'x' },
    ];
    for (const headers of attempts) {
      const res = await ipn(headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: PAYMENT_MESSAGES.badSignature });
    }
    expect(await paymentRow(payment.payment_id)).toEqual(rowBefore);
    expect(await creditsOf(payment.payment_id)).toEqual([]);
  });
});

describe('the background check (PAYMENT_SWEEP_MS)', () => {
  let sweeping: TestServer;
  beforeAll(async () => {
    sweeping = await startServer({ SANDBOX_STEP_MS: '20', PAYMENT_SWEEP_MS: '100' });
  });
  afterAll(async () => sweeping?.stop());

  it('credits a paid payment and expires an unpaid one without anyone polling', async () => {
    const member = await signedInMember(sweeping.baseUrl);
    const paidRes = await member.client.post('/payments/create-payment', order({ price_amount: '8.80' }));
    const waitingRes = await member.client.post('/payments/create-payment', order({ price_amount: '3.00' }));
    expect(paidRes.status).toBe(201);
    expect(waitingRes.status).toBe(201);
    const paid = paidRes.body.payment_id as string;
    const unpaid = waitingRes.body.payment_id as string;
    expect((await member.client.post(`/payments/sandbox/${paid}/pay`, {})).status).toBe(200);
    await sweeping.db
      .updateTable('sandbox_payments')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', unpaid)
      .execute();

    const statusIn = (id: string) =>
      sweeping.db
        .selectFrom('crypto_payments')
        .select('payment_status')
        .where('provider_payment_id', '=', id)
        .executeTakeFirstOrThrow();
    const deadline = Date.now() + 10_000;
    while (
      (await statusIn(paid)).payment_status !== 'finished' ||
      (await statusIn(unpaid)).payment_status !== 'expired'
    ) {
      if (Date.now() > deadline) throw new Error('the sweep did not move the payments');
      await sleep(50);
    }
    const balance = await member.client.get('/wallet/balance');
    expect(balance.body).toMatchObject({ business: '8.80', working: '0.00' });
    const credits = await sweeping.db.selectFrom('payment_credits').selectAll().execute();
    expect(credits.map((c) => c.provider_payment_id)).toEqual([paid]);
    // Later sweeps find nothing more to do.
    await sleep(350);
    expect(await sweeping.db.selectFrom('payment_credits').selectAll().execute()).toHaveLength(1);
    expect((await member.client.get('/wallet/balance')).body).toMatchObject({
      business: '8.80',
      working: '0.00',
    });
  });
});
