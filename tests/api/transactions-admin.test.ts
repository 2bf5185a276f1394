import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_MESSAGES } from '../../src/shared/transactions.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { buy, createPlan, type Member, member } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The admin's transaction calls (API.md "Plans, top-ups and income"): GET /tr/all, GET /tr/matrix and
// PATCH /transactions/{id}, which settles a transfer waiting for review through the transfers module:
// exactly once, audited. Members may call none of them.

let server: TestServer;
let admin: ApiClient;
let alice: Member;
let bob: Member;
let pendingId: string;
let topupLedgerId: string;

const month = () => new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1', INCOME_SCHEDULE: 'off' });
  admin = await signedInAdminClient(server.baseUrl);
  expect((await admin.post('/plans/addactivelevel', { percents: [] })).status).toBe(200);
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  alice = await member(server, admin, undefined, { business: '9000' });
  bob = await member(server, admin, undefined, { business: '100' });
  const topupId = await buy(alice, planId, '300');
  const topup = await server.db
    .selectFrom('topups')
    .select('ledger_transfer_id')
    .where('id', '=', topupId)
    .executeTakeFirstOrThrow();
  topupLedgerId = topup.ledger_transfer_id;
  const sent = await alice.client.post('/transfer/touser', {
    userto_id: bob.id,
    amount: '6000',
    from: 'business',
    to: 'business',
    desc: 'Held for review',
  });
  expect(sent.status).toBe(201);
  expect(sent.body.transfer.status).toBe('pending');
  pendingId = sent.body.transfer.id;
}, 120_000);
afterAll(async () => server?.stop());

describe('GET /tr/all', () => {
  it("lists every member's transactions once each, naming the member, newest first", async () => {
    const res = await admin.get('/tr/all?limit=100');
    expect(res.status).toBe(200);
    const mine = res.body.transactions.filter((t: { user_id: string }) =>
      [alice.id, bob.id].includes(t.user_id),
    );
    // Two fundings, the top-up and the transfer (listed under bob, whom it credits).
    expect(mine.map((t: Record<string, string>) => [t.username, t.transaction_type, t.amount])).toEqual([
      [bob.username, 'transfer', '6000.00'],
      [alice.username, 'topup', '300.00'],
      [bob.username, 'adjustment', '100.00'],
      [alice.username, 'adjustment', '9000.00'],
    ]);
  });

  it('filters by member (id, e-mail or username) on either side, type and status, and pages', async () => {
    const byName = await admin.get(`/tr/all?user=${alice.username}`);
    // The transfer is listed under bob, whom it credits, and is alice's too.
    expect(
      byName.body.transactions.map((t: Record<string, string>) => [t.username, t.transaction_type]),
    ).toEqual([
      [bob.username, 'transfer'],
      [alice.username, 'topup'],
      [alice.username, 'adjustment'],
    ]);
    expect((await admin.get(`/tr/all?user=${alice.id}`)).body.total).toBe(3);
    expect((await admin.get(`/tr/all?user=${bob.username.toUpperCase()}`)).body.total).toBe(2);
    const pending = await admin.get('/tr/all?transaction_type=transfer&status=pending');
    expect(pending.body.transactions.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([
      pendingId,
    ]);
    const paged = await admin.get('/tr/all?limit=1&page=2');
    expect(paged.body).toMatchObject({ currentPage: 2, totalPages: paged.body.total });
    expect(paged.body.transactions).toHaveLength(1);
  });

  it('is a 400 for a bad filter and a 403 for a member', async () => {
    const bad = await admin.get('/tr/all?transaction_type=gift');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'transaction_type', message: TRANSACTION_MESSAGES.typeInvalid },
    ]);
    expect((await alice.client.get('/tr/all')).status).toBe(403);
  });
});

describe('GET /tr/export', () => {
  it("gives an admin the filter's transactions as a CSV file, and refuses members", async () => {
    const res = await admin.get(`/tr/export?user=${alice.username}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = res.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'transaction_id,created_at,username,transaction_type,direction,amount,status,source,description',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(2, 7))).toEqual([
      [bob.username, 'transfer', 'credit', '6000.00', 'pending'],
      [alice.username, 'topup', 'debit', '300.00', 'completed'],
      [alice.username, 'adjustment', 'credit', '9000.00', 'completed'],
    ]);
    expect((await alice.client.get('/tr/export')).status).toBe(403);
  });
});

describe('GET /tr/matrix', () => {
  it("totals this month's transactions by type, leaving a rejected transfer out", async () => {
    const res = await admin.get(`/tr/matrix?month=${month()}`);
    expect(res.status).toBe(200);
    const cell = (type: string) =>
      res.body.matrix.find((m: { transaction_type: string }) => m.transaction_type === type);
    expect(cell('topup')).toEqual({ month: month(), transaction_type: 'topup', count: 1, amount: '300.00' });
    expect(cell('adjustment')).toMatchObject({ count: 2, amount: '9100.00' });
    expect(cell('transfer')).toMatchObject({ count: 1, amount: '6000.00' });
    expect((await admin.get('/tr/matrix?month=2001-01')).body.matrix).toEqual([]);
  });

  it('is a 400 for a bad month and a 403 for a member', async () => {
    const bad = await admin.get('/tr/matrix?month=2026-13');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'month', message: TRANSACTION_MESSAGES.monthInvalid }]);
    expect((await bob.client.get('/tr/matrix')).status).toBe(403);
  });
});

describe('PATCH /transactions/{id}', () => {
  it('refuses members, bad input and anything but a transfer waiting for review', async () => {
    expect((await alice.client.patch(`/transactions/${pendingId}`, { status: 'completed' })).status).toBe(
      403,
    );
    const bad = await admin.patch(`/transactions/${pendingId}`, { status: 'approved' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'status', message: 'Choose completed or failed' }]);
    const topup = await admin.patch(`/transactions/${topupLedgerId}`, { status: 'failed' });
    expect(topup.status).toBe(404);
    expect(topup.body.message).toBe(TRANSACTION_MESSAGES.transactionNotFound);
    expect((await admin.patch('/transactions/no-such-id', { status: 'failed' })).status).toBe(404);
    // Nothing was decided: the transfer still waits.
    const still = await alice.client.get(`/tr/user/${alice.id}?status=pending`);
    expect(still.body.transactions.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([
      pendingId,
    ]);
  });

  it('rejects a pending transfer once: the money returns, the decision is audited, a second one is a 409', async () => {
    const before = (await alice.client.get('/wallet/balance')).body.business;
    expect(before).toBe('2700.00');
    const res = await admin.patch(`/transactions/${pendingId}`, {
      status: 'failed',
      reason: 'Unusual amount',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(TRANSFER_MESSAGES.rejected);
    expect(res.body.transfer.status).toBe('failed');
    expect((await alice.client.get('/wallet/balance')).body.business).toBe('8700.00');
    const mine = await alice.client.get(`/tr/user/${alice.id}?transaction_type=transfer`);
    expect(mine.body.transactions.map((t: { status: string }) => t.status)).toEqual(['failed']);
    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', pendingId)
      .execute();
    expect(audit.map((a) => [a.action, a.reason])).toEqual([['transfer.reject', 'Unusual amount']]);

    const again = await admin.patch(`/transactions/${pendingId}`, { status: 'completed' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(TRANSFER_MESSAGES.notPending);
    expect((await bob.client.get('/wallet/balance')).body.business).toBe('100.00');
    expect((await admin.get(`/tr/matrix?month=${month()}`)).body.matrix).not.toContainEqual(
      expect.objectContaining({ transaction_type: 'transfer' }),
    );
  });

  it('approves another once, even when ten admins press at the same time', async () => {
    const sent = await alice.client.post('/transfer/touser', {
      userto_id: bob.id,
      amount: '5000',
      from: 'business',
      to: 'working',
    });
    const id = sent.body.transfer.id;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => admin.patch(`/transactions/${id}`, { status: 'completed' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect((await bob.client.get('/wallet/balance')).body.working).toBe('5000.00');
    const incoming = await bob.client.get(`/tr/user/${bob.id}?transaction_type=transfer&status=completed`);
    expect(incoming.body.transactions.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([id]);
  });
});

describe('OpenAPI document', () => {
  it('publishes every transaction call with the parameters and body it validates', async () => {
    const res = await admin.get('/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    for (const [path, method] of [
      ['/api/v1/tr/user/{userId}', 'get'],
      ['/api/v1/tr/all', 'get'],
      ['/api/v1/tr/export', 'get'],
      ['/api/v1/tr/matrix', 'get'],
      ['/api/v1/transactions/{transactionId}', 'patch'],
    ] as const)
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    const names = (paths['/api/v1/tr/user/{userId}'].get.parameters as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['userId', 'page', 'limit', 'transaction_type', 'source', 'status', 'search']),
    );
    const patch = paths['/api/v1/transactions/{transactionId}'].patch.requestBody.content['application/json'];
    expect(patch.schema.required).toEqual(['status']);
  });
});
