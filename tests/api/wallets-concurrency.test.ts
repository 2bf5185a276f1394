import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// RULES.md: "A member wallet can never go below zero. The balance check and the write are one atomic
// step, safe under any number of concurrent requests, on SQLite and on PostgreSQL." Over real HTTP:
// 200 debits race for a balance that covers 33 of them.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const adjust = (body: Record<string, unknown>, key: string) =>
  admin.post('/admin/adjustments', body, { 'Idempotency-Key': key });

const balanceOf = async (client: ApiClient) => {
  const res = await client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

const reconciliation = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  return res.body;
};

const accountRow = (id: string) =>
  server.db
    .selectFrom('ledger_accounts')
    .select(['balance_cents', 'held_cents'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('concurrent debits of one wallet', () => {
  it('lets exactly as many of 200 racing debits through as the balance covers', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const base = { user_id: auth.id, wallet: 'business' };
    const funded = await adjust(
      { ...base, direction: 'credit', amount: '10.00', reason: 'Funding' },
      randomUUID(),
    );
    expect(funded.status).toBe(201);
    expect(await balanceOf(client)).toEqual({ business: '10.00', working: '0.00' });

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        adjust({ ...base, direction: 'debit', amount: '0.30', reason: `Racing debit ${i}` }, randomUUID()),
      ),
    );
    const byStatus = new Map<number, number>();
    for (const res of answers) byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ 201: 33, 422: 167 });
    for (const res of answers) {
      if (res.status === 422) expect(res.body).toEqual({ message: WALLET_MESSAGES.insufficient });
      else expect(res.body.transfer).toMatchObject({ amount: '0.30', kind: 'adjustment' });
    }
    expect(new Set(answers.filter((r) => r.status === 201).map((r) => r.body.transfer.id)).size).toBe(33);

    expect(await balanceOf(client)).toEqual({ business: '0.10', working: '0.00' });
    expect(await accountRow(`${auth.id}:business`)).toEqual({ balance_cents: 10, held_cents: 0 });
    const debits = await server.db
      .selectFrom('ledger_transfers')
      .select('amount_cents')
      .where('debit_account_id', '=', `${auth.id}:business`)
      .execute();
    expect(debits).toHaveLength(33);
    expect(debits.every((d) => Number(d.amount_cents) === 30)).toBe(true);
    const audits = await server.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', auth.id)
      .execute();
    expect(audits.filter((a) => a.action === 'wallet.debit')).toHaveLength(33);
    expect(audits.filter((a) => a.action === 'wallet.credit')).toHaveLength(1);

    const books = await reconciliation();
    expect(books).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });

  it('keeps two wallets of two members apart while credits and debits race', async () => {
    const one = await signedInMember(server.baseUrl);
    const two = await signedInMember(server.baseUrl);
    const fund = (userId: string, wallet: string) =>
      adjust(
        { user_id: userId, wallet, direction: 'credit', amount: '5.00', reason: 'Funding' },
        randomUUID(),
      );
    for (const res of await Promise.all([
      fund(one.auth.id, 'business'),
      fund(one.auth.id, 'working'),
      fund(two.auth.id, 'business'),
      fund(two.auth.id, 'working'),
    ]))
      expect(res.status).toBe(201);

    // Each wallet: 40 debits of 0.25 (20 fit) mixed with 10 credits of 0.10 that may arrive at any time.
    const jobs: Promise<{ wallet: string; direction: string; status: number }>[] = [];
    for (const member of [one, two])
      for (const wallet of ['business', 'working'])
        for (let i = 0; i < 50; i++) {
          const direction = i % 5 === 4 ? 'credit' : 'debit';
          const amount = direction === 'credit' ? '0.10' : '0.25';
          const body = { user_id: member.auth.id, wallet, direction, amount, reason: `Mixed ${i}` };
          jobs.push(
            adjust(body, randomUUID()).then((r) => ({
              wallet: `${member.auth.id}:${wallet}`,
              direction,
              status: r.status,
            })),
          );
        }
    const results = await Promise.all(jobs);
    for (const member of [one, two])
      for (const wallet of ['business', 'working']) {
        const id = `${member.auth.id}:${wallet}`;
        const mine = results.filter((r) => r.wallet === id);
        expect(mine.filter((r) => r.direction === 'credit').every((r) => r.status === 201)).toBe(true);
        const debits = mine.filter((r) => r.direction === 'debit');
        expect(debits.every((r) => r.status === 201 || r.status === 422)).toBe(true);
        const passed = debits.filter((r) => r.status === 201).length;
        // 5.00 + 1.00 of credits covers 24 debits at most; with the credits last, at least 20 fit.
        expect(passed).toBeGreaterThanOrEqual(20);
        expect(passed).toBeLessThanOrEqual(24);
        const expected = 500 + 10 * 10 - 25 * passed;
        const row = await accountRow(id);
        expect(Number(row.balance_cents)).toBe(expected);
        expect(Number(row.balance_cents)).toBeGreaterThanOrEqual(0);
      }
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });
});
