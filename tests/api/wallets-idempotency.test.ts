import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// RULES.md "Wallets and the ledger": a repeat with the same Idempotency-Key and body returns the first
// result and moves nothing; the same key with another body is a 409. Checked on POST /admin/adjustments,
// one request after another and as 20 requests racing with one key.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const adjust = (body: Record<string, unknown>, key?: string) =>
  admin.post('/admin/adjustments', body, key === undefined ? {} : { 'Idempotency-Key': key });

const credit = (userId: string, amount: string, reason = 'Support credit') => ({
  user_id: userId,
  wallet: 'business',
  direction: 'credit',
  amount,
  reason,
});

const balanceOf = async (client: ApiClient) => {
  const res = await client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

/** The ledger rows and audit rows that concern one member. */
const movementsOf = async (userId: string) => ({
  transfers: await server.db
    .selectFrom('ledger_transfers')
    .select(['id', 'amount_cents'])
    .where((eb) =>
      eb.or([
        eb('debit_account_id', '=', `${userId}:business`),
        eb('credit_account_id', '=', `${userId}:business`),
      ]),
    )
    .execute(),
  audits: await server.db.selectFrom('audit_log').select('id').where('target_id', '=', userId).execute(),
});

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

describe('Idempotency-Key on POST /admin/adjustments', () => {
  it('answers a repeat of the same key and body with the first result and moves the money once', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const key = randomUUID();
    const first = await adjust(credit(auth.id, '12.34'), key);
    expect(first.status).toBe(201);
    expect(first.body.transfer.amount).toBe('12.34');

    const again = await adjust(credit(auth.id, '12.34'), key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // The same amount written another way is the same request.
    const sameAmount = await adjust({ ...credit(auth.id, '12.34'), amount: 12.34 }, key);
    expect(sameAmount.status).toBe(201);
    expect(sameAmount.body.transfer.id).toBe(first.body.transfer.id);

    expect(await balanceOf(client)).toEqual({ business: '12.34', working: '0.00' });
    const moved = await movementsOf(auth.id);
    expect(moved.transfers).toEqual([{ id: first.body.transfer.id, amount_cents: 1234 }]);
    expect(moved.audits).toHaveLength(1);
    await expectBalanced();
  });

  it('answers the same key with another body with 409 and moves nothing', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const key = randomUUID();
    expect((await adjust(credit(auth.id, '50.00'), key)).status).toBe(201);
    const before = await movementsOf(auth.id);

    const others = [
      credit(auth.id, '50.01'),
      { ...credit(auth.id, '50.00'), wallet: 'working' },
      { ...credit(auth.id, '50.00'), direction: 'debit' },
      credit(auth.id, '50.00', 'Another reason'),
    ];
    for (const body of others) {
      const res = await adjust(body, key);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body).toEqual({ message: WALLET_MESSAGES.idempotencyReused });
    }
    // Another member, same key: also another request.
    const other = await signedInMember(server.baseUrl);
    expect((await adjust(credit(other.auth.id, '50.00'), key)).status).toBe(409);

    expect(await movementsOf(auth.id)).toEqual(before);
    expect(await balanceOf(client)).toEqual({ business: '50.00', working: '0.00' });
    expect(await balanceOf(other.client)).toEqual({ business: '0.00', working: '0.00' });
    await expectBalanced();
  });

  it('treats different keys (and no key) as different requests', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const a = await adjust(credit(auth.id, '7.00'), randomUUID());
    const b = await adjust(credit(auth.id, '7.00'), randomUUID());
    const c = await adjust(credit(auth.id, '7.00'));
    const d = await adjust(credit(auth.id, '7.00'));
    for (const res of [a, b, c, d]) expect(res.status).toBe(201);
    const ids = new Set([a, b, c, d].map((r) => r.body.transfer.id));
    expect(ids.size).toBe(4);
    expect(await balanceOf(client)).toEqual({ business: '28.00', working: '0.00' });
    expect((await movementsOf(auth.id)).transfers).toHaveLength(4);
    await expectBalanced();
  });

  it('moves the money once when 20 requests with one key race', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const key = `race-${randomUUID()}`;
    const body = credit(auth.id, '3.33', 'Racing credit');
    const answers = await Promise.all(Array.from({ length: 20 }, () => adjust(body, key)));
    for (const res of answers) expect(res.status, res.text).toBe(201);
    const ids = new Set(answers.map((r) => r.body.transfer.id));
    expect(ids.size).toBe(1);
    for (const res of answers) expect(res.body).toEqual(answers[0]?.body);

    expect(await balanceOf(client)).toEqual({ business: '3.33', working: '0.00' });
    const moved = await movementsOf(auth.id);
    expect(moved.transfers).toEqual([{ id: [...ids][0], amount_cents: 333 }]);
    expect(moved.audits).toHaveLength(1);
    const stored = await server.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('key', '=', key)
      .execute();
    expect(stored).toHaveLength(1);
    await expectBalanced();
  });

  it('moves the money once when 20 debits with one key race, and never below zero', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    expect((await adjust(credit(auth.id, '1.00'))).status).toBe(201);
    const key = randomUUID();
    const body = { ...credit(auth.id, '0.60', 'Racing debit'), direction: 'debit' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => adjust(body, key)));
    for (const res of answers) expect(res.status, res.text).toBe(201);
    expect(new Set(answers.map((r) => r.body.transfer.id)).size).toBe(1);
    expect(await balanceOf(client)).toEqual({ business: '0.40', working: '0.00' });
    await expectBalanced();
  });

  it('refuses a malformed key with 400 and moves nothing', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    for (const key of ['k'.repeat(201), 'x'.repeat(300), 'has space', '']) {
      const res = await adjust(credit(auth.id, '9.00'), key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '0.00' });
    expect(await movementsOf(auth.id)).toEqual({ transfers: [], audits: [] });
    // The longest allowed key works.
    expect((await adjust(credit(auth.id, '9.00'), 'k'.repeat(200))).status).toBe(201);
    expect(await balanceOf(client)).toEqual({ business: '9.00', working: '0.00' });
  });

  it('answers a refused debit with 422 however often it is repeated with its key, moving nothing', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const key = randomUUID();
    const debit = { ...credit(auth.id, '5.00', 'Debit first'), direction: 'debit' };
    for (let i = 0; i < 2; i++) {
      const refused = await adjust(debit, key);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ message: WALLET_MESSAGES.insufficient });
    }
    expect(await movementsOf(auth.id)).toEqual({ transfers: [], audits: [] });
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '0.00' });
    await expectBalanced();
  });
});
