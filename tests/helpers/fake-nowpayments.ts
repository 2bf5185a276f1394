import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for NOWPayments' REST API (https://documenter.getpostman.com/view/7907941/2s93JusNJt),
// on 127.0.0.1 and a port of its own: POST /v1/payment, GET /v1/payment/{id}, GET /v1/currencies and
// GET /v1/min-amount, each behind the x-api-key header (401 without the right one). It records every
// request so a test can check what the server sent, lets a test move a payment to any status (as the
// real provider would when money arrives on chain), and can be told to fail.

export type FakePaymentStatus =
  | 'waiting'
  | 'confirming'
  | 'confirmed'
  | 'sending'
  | 'partially_paid'
  | 'finished'
  | 'failed'
  | 'refunded'
  | 'expired';

/** A payment as NOWPayments keeps it (numbers where NOWPayments answers with numbers). */
export type FakePayment = {
  payment_id: number;
  payment_status: FakePaymentStatus;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string | null;
  order_description: string | null;
  ipn_callback_url: string | null;
  purchase_id: string;
  created_at: string;
  updated_at: string;
  expiration_estimate_date: string;
  /** The payer's transaction, once NOWPayments has seen it. */
  payin_hash?: string;
};

export type RecordedRequest = {
  method: string;
  /** The path without the query string, e.g. "/v1/payment/5000000001". */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (undefined without one; the raw text when it is not JSON). */
  body: unknown;
};

/** What a failure looks like: an HTTP error answer, or the connection dropped without one. */
export type FailureMode = {
  /** HTTP status to answer with (default 500); ignored with hangUp. */
  status?: number;
  /** Drop the connection without answering (the server sees a network error). */
  hangUp?: boolean;
  /** Fail only requests with this method ... */
  method?: 'GET' | 'POST';
  /** ... and whose path matches (a string is a prefix). Without either, every request fails. */
  path?: string | RegExp;
};

export type FakeNowPayments = {
  /** Base URL for NOWPAYMENTS_BASE_URL (no trailing slash). */
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  payments: Map<string, FakePayment>;
  /** Answered by GET /v1/min-amount. */
  minAmount: number;
  /** Answered by GET /v1/currencies. */
  currencies: string[];
  /** The provider's side of a payment (fails loudly when the id is unknown). */
  payment(id: string | number): FakePayment;
  /** Moves a payment to a status and/or amount paid, as NOWPayments would when money arrives. */
  setPayment(
    id: string | number,
    changes: { payment_status?: FakePaymentStatus; actually_paid?: number; payin_hash?: string },
  ): void;
  /** From now on, requests matching the mode fail; fail(null) heals. */
  fail(mode: FailureMode | null): void;
  /** The recorded requests to one method and path (a string is an exact path). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[];
  stop(): Promise<void>;
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** NOWPayments' error shape. */
const refuse = (res: ServerResponse, status: number, code: string, message: string) =>
  json(res, status, { status: false, statusCode: status, code, message });

const matches = (pattern: string | RegExp, path: string, exact: boolean) =>
  typeof pattern === 'string' ? (exact ? path === pattern : path.startsWith(pattern)) : pattern.test(path);

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startFakeNowPayments(
  options: { apiKey?: string; minAmount?: number } = {},
): Promise<FakeNowPayments> {
  const apiKey = options.apiKey ?? `fake-key-${randomBytes(8).toString('hex')}`;
  const requests: RecordedRequest[] = [];
  const payments = new Map<string, FakePayment>();
  let failure: FailureMode | null = null;
  let nextId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => refuse(res, 500, 'FAKE_BROKE', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeNowPayments = {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    payments,
    minAmount: options.minAmount ?? 2,
    currencies: ['btc', 'eth', 'usdtbsc', 'usdttrc20', 'usdterc20'],
    payment(id) {
      const payment = payments.get(String(id));
      if (!payment) throw new Error(`fake NOWPayments: no payment ${id}`);
      return payment;
    },
    setPayment(id, changes) {
      const payment = fake.payment(id);
      Object.assign(payment, changes, { updated_at: new Date().toISOString() });
    },
    fail(mode) {
      failure = mode;
    },
    requestsTo(method, path) {
      return requests.filter((r) => r.method === method && matches(path, r.path, true));
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    });

    if (
      failure &&
      (!failure.method || failure.method === method) &&
      (!failure.path || matches(failure.path, url.pathname, false))
    ) {
      if (failure.hangUp) {
        req.socket.destroy();
        return;
      }
      return refuse(res, failure.status ?? 500, 'INTERNAL_ERROR', 'Internal server error');
    }

    if (req.headers['x-api-key'] !== apiKey) return refuse(res, 401, 'INVALID_API_KEY', 'Invalid api key');

    if (method === 'GET' && url.pathname === '/v1/currencies')
      return json(res, 200, { currencies: fake.currencies });

    if (method === 'GET' && url.pathname === '/v1/min-amount') {
      const from = url.searchParams.get('currency_from');
      const to = url.searchParams.get('currency_to');
      if (!from || !to) return refuse(res, 400, 'INVALID_REQUEST_PARAMS', 'currency_from is required');
      return json(res, 200, { currency_from: from, currency_to: to, min_amount: fake.minAmount });
    }

    if (method === 'POST' && url.pathname === '/v1/payment') {
      const input = (body ?? {}) as Record<string, unknown>;
      if (typeof input.price_amount !== 'number' || !(input.price_amount > 0))
        return refuse(res, 400, 'INVALID_REQUEST_PARAMS', '"price_amount" must be a positive number');
      if (typeof input.price_currency !== 'string' || typeof input.pay_currency !== 'string')
        return refuse(res, 400, 'INVALID_REQUEST_PARAMS', '"price_currency" and "pay_currency" are required');
      if (!fake.currencies.includes(input.pay_currency))
        return refuse(res, 400, 'INVALID_REQUEST_PARAMS', 'Currency is not supported');
      nextId += 1;
      const now = new Date();
      const payment: FakePayment = {
        payment_id: nextId,
        payment_status: 'waiting',
        pay_address: `0x${randomBytes(20).toString('hex')}`,
        price_amount: input.price_amount,
        price_currency: input.price_currency,
        // A pay_amount given is taken as it is; otherwise NOWPayments converts at its rate and adds the
        // network fee: never exactly the price.
        pay_amount:
          typeof input.pay_amount === 'number' && input.pay_amount > 0
            ? input.pay_amount
            : Math.round(input.price_amount * 1.0025 * 1e6) / 1e6,
        actually_paid: 0,
        pay_currency: input.pay_currency,
        order_id: typeof input.order_id === 'string' ? input.order_id : null,
        order_description: typeof input.order_description === 'string' ? input.order_description : null,
        ipn_callback_url: typeof input.ipn_callback_url === 'string' ? input.ipn_callback_url : null,
        purchase_id: String(nextId + 7),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        expiration_estimate_date: new Date(now.getTime() + 20 * 60 * 1000).toISOString(),
      };
      payments.set(String(payment.payment_id), payment);
      const { actually_paid: _, ...created } = payment;
      return json(res, 201, created);
    }

    const byId = /^\/v1\/payment\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && byId) {
      const payment = payments.get(decodeURIComponent(byId[1] ?? ''));
      if (!payment) return refuse(res, 404, 'PAYMENT_NOT_FOUND', 'Payment not found');
      const { expiration_estimate_date: _, ...shown } = payment;
      return json(res, 200, { ...shown, outcome_amount: payment.actually_paid, outcome_currency: 'usdtbsc' });
    }

    return refuse(res, 404, 'NOT_FOUND', `No route ${method} ${url.pathname}`);
  }

  return fake;
}
