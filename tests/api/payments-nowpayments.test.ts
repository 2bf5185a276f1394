import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../src/shared/payments.ts';
import { CHAIN_CREDIT_MESSAGES } from '../../src/shared/web3.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import {
  type FakeNowPayments,
  type FakePayment,
  type FakePaymentStatus,
  startFakeNowPayments,
} from '../helpers/fake-nowpayments.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Crypto payments through NOWPayments (PAYMENT_PROVIDER=nowpayments), against a local fake of its API
// that records what we send: the x-api-key header, POST /v1/payment's fields, status reads; IPN
// callbacks verified with HMAC-SHA512 of the key-sorted JSON body (computed here independently of the
// server's code), statuses that only move forward, the status re-read from the provider before
// anything is credited, and exactly one credit however often and however concurrently the news comes.
// Members in this file: 16 on the main server, 1 on the misconfigured one (the limit is 20 per server).

const IPN_SECRET = `ipn-${randomBytes(16).toString('hex')}`;
const PUBLIC_URL = 'http://platform.example.test';

let fake: FakeNowPayments;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  fake = await startFakeNowPayments({ minAmount: 2 });
  server = await startServer({
    PAYMENT_PROVIDER: 'nowpayments',
    NOWPAYMENTS_API_KEY: fake.apiKey,
    NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
    NOWPAYMENTS_BASE_URL: fake.url,
    PAYMENT_SWEEP_MS: '0',
    PUBLIC_URL,
  });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await fake?.stop();
});

type Member = Awaited<ReturnType<typeof signedInMember>>;
type Body = Record<string, unknown>;

const order = (overrides: Body = {}): Body => ({
  price_amount: '25.00',
  price_currency: 'usd',
  pay_currency: 'usdtbsc',
  ...overrides,
});

async function created(who: Member, body: Body = order()) {
  const res = await who.client.post('/payments/create-payment', body);
  expect(res.status, res.text).toBe(201);
  return { payment: res.body, remote: fake.payment(res.body.payment_id) };
}

const statusOf = (who: Member, id: string) => who.client.get(`/payments/payment-status/${id}`);

// --- the signature, written here from NOWPayments' documentation rather than taken from the server ---

/** Every object's keys in sorted order, at every depth. */
function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, sortDeep(inner)]),
    );
  return value;
}

const sign = (body: unknown, secret = IPN_SECRET) =>
  createHmac('sha512', secret)
    .update(JSON.stringify(sortDeep(body)))
    .digest('hex');

/** A callback body shaped like NOWPayments' (the nested fee object's keys deliberately unsorted). */
const ipnBody = (payment: FakePayment, changes: Partial<FakePayment> = {}): Body => ({
  payment_id: payment.payment_id,
  invoice_id: null,
  payment_status: payment.payment_status,
  pay_address: payment.pay_address,
  price_amount: payment.price_amount,
  price_currency: payment.price_currency,
  pay_amount: payment.pay_amount,
  actually_paid: payment.actually_paid,
  actually_paid_at_fiat: 0,
  pay_currency: payment.pay_currency,
  order_id: payment.order_id,
  order_description: payment.order_description,
  purchase_id: payment.purchase_id,
  outcome_amount: payment.actually_paid,
  outcome_currency: 'usdtbsc',
  fee: { currency: 'usdtbsc', depositFee: 0.1, withdrawalFee: 0, serviceFee: 0.05 },
  updated_at: Date.now(),
  ...changes,
});

/** Posts a callback as NOWPayments does: no cookies, no CSRF token, the signature in x-nowpayments-sig. */
async function ipn(body: unknown, signature: string | null = sign(body), target = server) {
  const response = await fetch(`${target.baseUrl}/api/v1/payments/ipn`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-nowpayments-sig': signature }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The server's reads of one payment at the fake. */
const readsOf = (paymentId: string | number) => fake.requestsTo('GET', `/v1/payment/${paymentId}`).length;

const paymentRow = (paymentId: string | number) =>
  server.db
    .selectFrom('crypto_payments')
    .selectAll()
    .where('provider_payment_id', '=', String(paymentId))
    .executeTakeFirstOrThrow();

const creditsOf = (paymentId: string | number) =>
  server.db
    .selectFrom('payment_credits')
    .selectAll()
    .where('provider_payment_id', '=', String(paymentId))
    .execute();

const depositsTo = (userId: string) =>
  server.db
    .selectFrom('ledger_transfers')
    .selectAll()
    .where('credit_account_id', '=', `${userId}:business`)
    .execute();

const paymentCount = async () =>
  Number(
    (
      await server.db
        .selectFrom('crypto_payments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const balanceOf = async (who: Member) => {
  const res = await who.client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

/** Everything a refused callback must leave alone. */
const snapshot = async (paymentId: string | number, userId: string) => ({
  row: await paymentRow(paymentId),
  credits: await creditsOf(paymentId),
  deposits: await depositsTo(userId),
});

describe('what the server sends to NOWPayments', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(server.baseUrl);
  });

  it('reads the currencies and the minimum with the x-api-key header', async () => {
    const currencies = await member.client.get('/payments/currencies');
    expect(currencies.status).toBe(200);
    expect(currencies.body.currencies).toContainEqual({
      code: 'usdtbsc',
      name: 'Tether USD (BEP20)',
      network: 'bsc',
    });
    expect(currencies.body.currencies.map((c: Body) => c.code)).toEqual(fake.currencies);
    const [read] = fake.requestsTo('GET', '/v1/currencies').slice(-1);
    expect(read?.headers['x-api-key']).toBe(fake.apiKey);

    const min = await member.client.get('/payments/min-amount/usdtbsc/usdtbsc');
    expect(min.status).toBe(200);
    expect(min.body).toEqual({ min_amount: 2 });
    const [asked] = fake.requestsTo('GET', '/v1/min-amount').slice(-1);
    expect(asked?.query).toEqual({ currency_from: 'usdtbsc', currency_to: 'usdtbsc' });
    expect(asked?.headers['x-api-key']).toBe(fake.apiKey);
  });

  it('creates the invoice with POST /v1/payment and stores the provider payment id and address', async () => {
    const before = fake.requestsTo('POST', '/v1/payment').length;
    const res = await member.client.post(
      '/payments/create-payment',
      order({ price_amount: '12.30', id: 'someone-else' }),
    );
    expect(res.status).toBe(201);
    const sent = fake.requestsTo('POST', '/v1/payment');
    expect(sent).toHaveLength(before + 1);
    const request = sent.at(-1);
    expect(request?.headers['x-api-key']).toBe(fake.apiKey);
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    const body = request?.body as Body;
    expect(typeof body.price_amount).toBe('number');
    expect(body).toMatchObject({
      price_amount: 12.3,
      price_currency: 'usd',
      // Spec 9's amount (12.30 rounded up, plus 0.5) is asked for as it is, not converted from the price.
      pay_amount: 13.5,
      pay_currency: 'usdtbsc',
      order_id: res.body.order_id,
      ipn_callback_url: `${PUBLIC_URL}/api/v1/payments/ipn`,
    });
    expect(String(body.ipn_callback_url)).toMatch(/\/api\/v1\/payments\/ipn$/);

    const remote = fake.payment(res.body.payment_id);
    expect(res.body).toMatchObject({
      payment_id: String(remote.payment_id),
      pay_address: remote.pay_address,
      pay_amount: '13.5',
      price_amount: '12.30',
      price_currency: 'usd',
      pay_currency: 'usdtbsc',
      payment_status: 'waiting',
      expires_at: remote.expiration_estimate_date,
      credited_amount: null,
      provider: 'nowpayments',
    });
    const row = await paymentRow(remote.payment_id);
    expect(row).toMatchObject({
      id: res.body.order_id,
      user_id: member.auth.id,
      provider: 'nowpayments',
      pay_address: remote.pay_address,
      payment_status: 'waiting',
    });
  });

  it("enforces the provider's minimum with a 400 on price_amount and asks for no invoice", async () => {
    fake.minAmount = 30;
    try {
      const before = { posts: fake.requestsTo('POST', '/v1/payment').length, rows: await paymentCount() };
      const res = await member.client.post('/payments/create-payment', order({ price_amount: '29.99' }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { field: 'price_amount', message: `${PAYMENT_MESSAGES.belowMinimum}: $30.00` },
      ]);
      expect(fake.requestsTo('POST', '/v1/payment')).toHaveLength(before.posts);
      expect(await paymentCount()).toBe(before.rows);
      expect(
        (await member.client.post('/payments/create-payment', order({ price_amount: '30' }))).status,
      ).toBe(201);
    } finally {
      fake.minAmount = 2;
    }
  });
});

describe('status polling', () => {
  it("follows the provider's status and credits when it reports finished", async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member, order({ price_amount: '40.00' }));
    const id = payment.payment_id as string;
    const steps: [FakePaymentStatus, number][] = [
      ['waiting', 0],
      ['partially_paid', 15],
      ['confirming', 40.1],
      ['confirmed', 40.1],
      ['sending', 40.1],
    ];
    for (const [status, paid] of steps) {
      fake.setPayment(remote.payment_id, { payment_status: status, actually_paid: paid });
      const reads = readsOf(id);
      const res = await statusOf(member, id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        payment_status: status,
        actually_paid: String(paid),
        credited_amount: null,
      });
      expect(readsOf(id)).toBe(reads + 1);
      expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });
    }
    fake.setPayment(remote.payment_id, { payment_status: 'finished' });
    const done = await statusOf(member, id);
    expect(done.body).toMatchObject({ payment_status: 'finished', credited_amount: '40.00' });
    expect(await balanceOf(member)).toEqual({ business: '40.00', working: '0.00' });
    // Once finished and credited, polling stops asking the provider.
    const reads = readsOf(id);
    expect((await statusOf(member, id)).body.payment_status).toBe('finished');
    expect(readsOf(id)).toBe(reads);
    const deposits = await depositsTo(member.auth.id);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({ kind: 'deposit', reference: `payment:nowpayments:${id}` });
    expect(Number(deposits[0]?.amount_cents)).toBe(4000);
  });

  it('keeps an expired or failed payment uncredited', async () => {
    const member = await signedInMember(server.baseUrl);
    for (const status of ['expired', 'failed'] as const) {
      const { payment, remote } = await created(member, order({ price_amount: '10.00' }));
      fake.setPayment(remote.payment_id, { payment_status: status });
      expect((await statusOf(member, payment.payment_id)).body).toMatchObject({
        payment_status: status,
        credited_amount: null,
      });
      expect(await creditsOf(payment.payment_id)).toEqual([]);
    }
    expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });
  });

  it("answers another member's payment with 404 and shows the stored status while the provider is down", async () => {
    const owner = await signedInMember(server.baseUrl);
    const other = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(owner);
    const peek = await statusOf(other, payment.payment_id);
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ message: PAYMENT_MESSAGES.notFound });
    expect((await other.client.get('/payments/mine')).body.payments).toEqual([]);

    fake.setPayment(remote.payment_id, { payment_status: 'finished' });
    fake.fail({ method: 'GET', path: '/v1/payment/' });
    try {
      const res = await statusOf(owner, payment.payment_id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ payment_status: 'waiting', credited_amount: null });
    } finally {
      fake.fail(null);
    }
    expect((await statusOf(owner, payment.payment_id)).body).toMatchObject({
      payment_status: 'finished',
      credited_amount: '25.00',
    });
  });

  it('is a 404 on the sandbox pay route with this provider', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment } = await created(member);
    const res = await member.client.post(`/payments/sandbox/${payment.payment_id}/pay`, {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: PAYMENT_MESSAGES.sandboxOnly });
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('waiting');
  });
});

describe('IPN callbacks', () => {
  it('moves the status on a valid signature after reading it again from the provider', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member);
    fake.setPayment(remote.payment_id, { payment_status: 'confirming', actually_paid: remote.pay_amount });
    const reads = readsOf(remote.payment_id);
    const res = await ipn(ipnBody(remote));
    expect(res).toEqual({ status: 200, body: { message: 'ok' } });
    expect(readsOf(remote.payment_id)).toBe(reads + 1);
    expect(await paymentRow(payment.payment_id)).toMatchObject({
      payment_status: 'confirming',
      actually_paid: String(remote.pay_amount),
    });
    // An uppercase hex signature is the same signature.
    fake.setPayment(remote.payment_id, { payment_status: 'sending' });
    const body = ipnBody(remote);
    expect((await ipn(body, sign(body).toUpperCase())).status).toBe(200);
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('sending');
  });

  it('refuses a forged, missing or wrongly keyed signature with 401 and changes nothing', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member, order({ price_amount: '60.00' }));
    fake.setPayment(remote.payment_id, { payment_status: 'finished', actually_paid: remote.pay_amount });
    const body = ipnBody(remote);
    const before = await snapshot(payment.payment_id, member.auth.id);
    const reads = readsOf(remote.payment_id);

    const signedForWaiting = ipnBody(remote, { payment_status: 'waiting' });
    const attempts: [string, Body, string | null][] = [
      ['no header', body, null],
      ['empty header', body, ''],
      ['not hex', body, 'not-a-signature'],
      ['random bytes', body, randomBytes(64).toString('hex')],
      [
        'SHA-256 length',
        body,
        createHmac('sha256', IPN_SECRET)
          .update(JSON.stringify(sortDeep(body)))
          .digest('hex'),
      ],
      ['another secret', body, sign(body, 'some-other-secret')],
      ['the API key as secret', body, sign(body, fake.apiKey)],
      ['unsorted keys', body, createHmac('sha512', IPN_SECRET).update(JSON.stringify(body)).digest('hex')],
      ['signature of another body', body, sign(signedForWaiting)],
      ['tampered amount', { ...body, price_amount: 6000 }, sign(body)],
      ['base64', body, Buffer.from(sign(body), 'hex').toString('base64')],
    ];
    for (const [what, sent, signature] of attempts) {
      const res = await ipn(sent, signature);
      expect(res.status, what).toBe(401);
      expect(res.body, what).toEqual({ message: PAYMENT_MESSAGES.badSignature });
    }
    // Nothing changed, and the server did not even ask the provider.
    expect(await snapshot(payment.payment_id, member.auth.id)).toEqual(before);
    expect(readsOf(remote.payment_id)).toBe(reads);
    expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });

    // The same news, properly signed, is accepted: the refusals were the signature's doing.
    expect((await ipn(body)).status).toBe(200);
    expect(await balanceOf(member)).toEqual({ business: '60.00', working: '0.00' });
  });

  it('sorts nested keys too: a signature over only the top-level keys sorted is refused', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member);
    fake.setPayment(remote.payment_id, { payment_status: 'confirmed' });
    const body = ipnBody(remote, {
      // Nested objects and an array of objects, none in key order.
      fee: { withdrawalFee: 0, serviceFee: 0.05, depositFee: 0.1, currency: 'usdtbsc' },
      extra: { zeta: [{ b: 2, a: 1 }], alpha: { y: true, x: null } },
    } as Partial<FakePayment>);
    const topLevelOnly = Object.fromEntries(Object.entries(body).sort(([a], [b]) => (a < b ? -1 : 1)));
    const shallow = createHmac('sha512', IPN_SECRET).update(JSON.stringify(topLevelOnly)).digest('hex');
    expect(shallow).not.toBe(sign(body));
    expect((await ipn(body, shallow)).status).toBe(401);
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('waiting');
    expect((await ipn(body, sign(body))).status).toBe(200);
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('confirmed');
  });

  it('takes the status from the provider, not the callback: "finished" while the provider says waiting credits nothing', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member, order({ price_amount: '99.00' }));
    const reads = readsOf(remote.payment_id);
    const body = ipnBody(remote, { payment_status: 'finished', actually_paid: remote.pay_amount });
    const res = await ipn(body);
    expect(res.status).toBe(200);
    expect(readsOf(remote.payment_id)).toBe(reads + 1);
    expect(await paymentRow(payment.payment_id)).toMatchObject({ payment_status: 'waiting' });
    expect(await creditsOf(payment.payment_id)).toEqual([]);
    expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });
  });

  it('answers a signed callback for an unknown payment with 404 and a provider outage with 502, changing nothing', async () => {
    const unknown = { payment_id: 1234, payment_status: 'finished' };
    expect((await ipn(unknown)).status).toBe(404);

    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member);
    fake.setPayment(remote.payment_id, { payment_status: 'finished', actually_paid: remote.pay_amount });
    fake.fail({ hangUp: true });
    try {
      const res = await ipn(ipnBody(remote));
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ message: PAYMENT_MESSAGES.providerDown });
    } finally {
      fake.fail(null);
    }
    expect(await paymentRow(payment.payment_id)).toMatchObject({ payment_status: 'waiting' });
    expect(await creditsOf(payment.payment_id)).toEqual([]);
    // NOWPayments repeats a callback that failed; the repeat credits.
    expect((await ipn(ipnBody(remote))).status).toBe(200);
    expect(await balanceOf(member)).toEqual({ business: '25.00', working: '0.00' });
  });
});

describe('statuses only move forward', () => {
  it('keeps finished when a late confirming arrives by IPN or by poll', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member, order({ price_amount: '18.00' }));
    fake.setPayment(remote.payment_id, { payment_status: 'finished', actually_paid: remote.pay_amount });
    expect((await ipn(ipnBody(remote))).status).toBe(200);
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('finished');
    expect(await balanceOf(member)).toEqual({ business: '18.00', working: '0.00' });

    // A stale read (or a late, properly signed callback) says confirming.
    fake.setPayment(remote.payment_id, { payment_status: 'confirming' });
    expect((await ipn(ipnBody(remote))).status).toBe(200);
    const poll = await statusOf(member, payment.payment_id);
    expect(poll.body).toMatchObject({ payment_status: 'finished', credited_amount: '18.00' });
    expect((await paymentRow(payment.payment_id)).payment_status).toBe('finished');
    // And finished again, late: still one credit.
    fake.setPayment(remote.payment_id, { payment_status: 'finished' });
    expect((await ipn(ipnBody(remote))).status).toBe(200);
    expect(await balanceOf(member)).toEqual({ business: '18.00', working: '0.00' });
    expect(await creditsOf(payment.payment_id)).toHaveLength(1);
  });

  it('keeps sending when the provider later answers confirming', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member);
    fake.setPayment(remote.payment_id, { payment_status: 'sending', actually_paid: remote.pay_amount });
    expect((await statusOf(member, payment.payment_id)).body.payment_status).toBe('sending');
    for (const late of ['confirming', 'confirmed', 'partially_paid', 'waiting'] as const) {
      fake.setPayment(remote.payment_id, { payment_status: late });
      expect((await statusOf(member, payment.payment_id)).body.payment_status, late).toBe('sending');
      expect((await ipn(ipnBody(remote))).status).toBe(200);
      expect((await paymentRow(payment.payment_id)).payment_status, late).toBe('sending');
    }
  });

  it('credits nothing when finished arrives after refunded or expired', async () => {
    const member = await signedInMember(server.baseUrl);
    for (const final of ['refunded', 'expired', 'failed'] as const) {
      const { payment, remote } = await created(member, order({ price_amount: '12.00' }));
      fake.setPayment(remote.payment_id, { payment_status: final });
      expect((await ipn(ipnBody(remote))).status).toBe(200);
      expect((await paymentRow(payment.payment_id)).payment_status).toBe(final);
      fake.setPayment(remote.payment_id, { payment_status: 'finished', actually_paid: remote.pay_amount });
      expect((await ipn(ipnBody(remote))).status).toBe(200);
      expect((await statusOf(member, payment.payment_id)).body).toMatchObject({
        payment_status: final,
        credited_amount: null,
      });
      expect(await creditsOf(payment.payment_id), final).toEqual([]);
    }
    expect(await balanceOf(member)).toEqual({ business: '0.00', working: '0.00' });
    expect(await depositsTo(member.auth.id)).toEqual([]);
  });
});

describe('exactly-once crediting', () => {
  it('credits once when the same finished callback is replayed', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member, order({ price_amount: '33.33' }));
    fake.setPayment(remote.payment_id, { payment_status: 'finished', actually_paid: remote.pay_amount });
    const body = ipnBody(remote);
    const signature = sign(body);
    for (let i = 0; i < 5; i++) expect((await ipn(body, signature)).status).toBe(200);
    expect((await statusOf(member, payment.payment_id)).body.credited_amount).toBe('33.33');
    expect(await balanceOf(member)).toEqual({ business: '33.33', working: '0.00' });
    expect(await creditsOf(payment.payment_id)).toHaveLength(1);
    expect(await depositsTo(member.auth.id)).toHaveLength(1);
  });

  it('credits price_amount once when 20 callbacks and 20 polls race for one finished payment', async () => {
    const member = await signedInMember(server.baseUrl);
    const { payment, remote } = await created(member, order({ price_amount: '123.45' }));
    // The payer sent more than asked: the credit is still price_amount.
    fake.setPayment(remote.payment_id, { payment_status: 'finished', actually_paid: remote.pay_amount + 1 });
    const body = ipnBody(remote);
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => ipn(body)),
      ...Array.from({ length: 20 }, () => statusOf(member, payment.payment_id)),
    ]);
    for (const res of answers.slice(0, 20)) expect(res).toEqual({ status: 200, body: { message: 'ok' } });
    for (const res of answers.slice(20)) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ payment_status: 'finished', credited_amount: '123.45' });
    }
    expect(await balanceOf(member)).toEqual({ business: '123.45', working: '0.00' });
    const credits = await creditsOf(payment.payment_id);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ provider: 'nowpayments', method: 'automatic' });
    expect(Number(credits[0]?.amount_cents)).toBe(12345);
    const deposits = await depositsTo(member.auth.id);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({ id: credits[0]?.ledger_transfer_id, kind: 'deposit' });
    expect(Number(deposits[0]?.amount_cents)).toBe(12345);
    const depositRows = await server.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('kind', '=', 'deposit')
      .where('reference', '=', `payment:nowpayments:${payment.payment_id}`)
      .execute();
    expect(depositRows).toHaveLength(1);
    await expectBalanced();
  });

  it('lists the payments for an admin with the provider and the credit', async () => {
    const all = await admin.get('/payments/all?status=finished&limit=200');
    expect(all.status).toBe(200);
    expect(all.body.payments.length).toBeGreaterThan(0);
    for (const payment of all.body.payments)
      expect(payment).toMatchObject({
        provider: 'nowpayments',
        payment_status: 'finished',
        credited_amount: expect.any(String),
      });
  });
});

describe('when the provider is down or refuses us', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(server.baseUrl);
  });

  it('answers create with 502 and a clear message, and stores nothing', async () => {
    const modes = [
      { status: 500 },
      { status: 503, method: 'POST' as const, path: '/v1/payment' },
      { hangUp: true, method: 'POST' as const, path: '/v1/payment' },
      { status: 500, method: 'GET' as const, path: '/v1/min-amount' },
    ];
    for (const mode of modes) {
      const before = await paymentCount();
      fake.fail(mode);
      try {
        const res = await member.client.post('/payments/create-payment', order());
        expect(res.status, JSON.stringify(mode)).toBe(502);
        expect(res.body).toEqual({ message: PAYMENT_MESSAGES.providerDown });
      } finally {
        fake.fail(null);
      }
      expect(await paymentCount()).toBe(before);
    }
    expect((await member.client.post('/payments/create-payment', order())).status).toBe(201);
  });

  it('answers currencies and min-amount with 502 while the provider fails', async () => {
    fake.fail({ status: 500 });
    try {
      for (const path of ['/payments/currencies', '/payments/min-amount/usdtbsc/usdtbsc']) {
        const res = await member.client.get(path);
        expect(res.status, path).toBe(502);
        expect(res.body).toEqual({ message: PAYMENT_MESSAGES.providerDown });
      }
    } finally {
      fake.fail(null);
    }
  });

  describe('a server with the wrong API key and no IPN secret', () => {
    let misconfigured: TestServer;
    beforeAll(async () => {
      misconfigured = await startServer({
        PAYMENT_PROVIDER: 'nowpayments',
        NOWPAYMENTS_API_KEY: 'not-the-key',
        NOWPAYMENTS_BASE_URL: fake.url,
        PAYMENT_SWEEP_MS: '0',
      });
    });
    afterAll(async () => misconfigured?.stop());

    it('gets 401 from the provider (answered 502) and refuses every callback', async () => {
      const someone = await signedInMember(misconfigured.baseUrl);
      const before = fake.requests.length;
      const res = await someone.client.post('/payments/create-payment', order());
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ message: PAYMENT_MESSAGES.providerDown });
      const seen = fake.requests.slice(before);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((r) => r.headers['x-api-key'] === 'not-the-key')).toBe(true);
      expect(await misconfigured.db.selectFrom('crypto_payments').selectAll().execute()).toEqual([]);

      // Without NOWPAYMENTS_IPN_SECRET no signature can be right, not even one made with an empty key.
      const body = { payment_id: 1, payment_status: 'finished' };
      for (const signature of [sign(body, ''), sign(body), null])
        expect((await ipn(body, signature, misconfigured)).status).toBe(401);
    });
  });
});

describe('one transaction on chain credits once, whatever the path', () => {
  const bscHash = () => `0x${randomBytes(32).toString('hex')}`;

  it('does not credit a payment paid by a transaction already approved as a manual deposit', async () => {
    const member = await signedInMember(server.baseUrl);
    const hash = bscHash();
    const manual = await member.client.post('/deposite/add', { amount: '25.00', tx_hash: hash });
    expect(manual.status, manual.text).toBe(201);
    const d = manual.body.deposit;
    const approved = await admin.put(`/deposite/${d.id}`, {
      status: 'approved',
      amount: d.amount,
      user_id: d.user_id,
    });
    expect(approved.status, approved.text).toBe(200);
    const { payment, remote } = await created(member);
    // NOWPayments names the BSC transaction it was paid by: the one already credited by hand.
    fake.setPayment(remote.payment_id, {
      payment_status: 'finished',
      payin_hash: hash.toUpperCase().replace('0X', '0x'),
    });
    const res = await statusOf(member, payment.payment_id);
    expect(res.body).toMatchObject({ payment_status: 'finished', credited_amount: null });
    expect((await balanceOf(member)).business).toBe('25.00');
  });

  it('refuses a manual deposit of the transaction a payment was credited by', async () => {
    const member = await signedInMember(server.baseUrl);
    const hash = bscHash();
    const { payment, remote } = await created(member);
    fake.setPayment(remote.payment_id, { payment_status: 'finished', payin_hash: hash });
    const res = await statusOf(member, payment.payment_id);
    expect(res.body).toMatchObject({ payment_status: 'finished', credited_amount: '25.00' });
    const manual = await member.client.post('/deposite/add', { amount: '25.00', tx_hash: hash });
    expect(manual.status).toBe(409);
    expect(manual.body.message).toBe(CHAIN_CREDIT_MESSAGES.payment);
    expect((await balanceOf(member)).business).toBe('25.00');
  });
});
