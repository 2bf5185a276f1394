import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.ts';
import { TRANSACTION_MESSAGES } from '../../src/shared/transactions.ts';
import { ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { backdate, buy, createPlan, fund, type Member, member, runDate, today } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /tr/user/{userId} (API.md "Plans, top-ups and income"): a member's transactions, read from the
// ledger, newest first, 10 a page, with filters; a member reads only their own, an admin anyone's.
// The books: sponsor <- buyer (buys a plan, earns a day's ROI, sends two transfers to friend, one
// large enough to wait for review); the sponsor earns activation and level income from the buyer.

let server: TestServer;
let admin: ApiClient;
let sponsor: Member;
let buyer: Member;
let friend: Member;
let planName: string;

type Tx = {
  transaction_id: string;
  transaction_type: string;
  source: string;
  amount: string;
  status: string;
  created_at: string;
  description: string | null;
  direction: string;
};

const list = async (who: Member, query = '', id = who.id) => {
  const res = await who.client.get(`/tr/user/${id}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { transactions: Tx[]; totalPages: number; currentPage: number; total: number };
};

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1', INCOME_SCHEDULE: 'off' });
  admin = await signedInAdminClient(server.baseUrl);
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  planName = 'Plan 1% 30d';
  sponsor = await member(server, admin, undefined);
  buyer = await member(server, admin, sponsor, { business: '7000' });
  friend = await member(server, admin, undefined);
  const topupId = await buy(buyer, planId, '1000');
  await backdate(server, topupId, 1);
  expect((await runDate(admin, addDays(today(), -1))).status).toBe(200);
  const send = (amount: string, desc: string) =>
    buyer.client.post('/transfer/touser', {
      userto_id: friend.id,
      amount,
      from: 'business',
      to: 'business',
      desc,
    });
  expect((await send('25.50', 'Lunch money')).status).toBe(201);
  expect((await send('5000', 'Car')).status).toBe(201);
}, 120_000);
afterAll(async () => server?.stop());

describe("a member's own transactions", () => {
  it('lists every kind the member took part in, newest first, with its source and status', async () => {
    const page = await list(buyer);
    expect(page.currentPage).toBe(1);
    expect(page.total).toBe(5);
    expect(page.totalPages).toBe(1);
    const times = page.transactions.map((t) => t.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const byType = (type: string) => page.transactions.filter((t) => t.transaction_type === type);
    expect(byType('adjustment')).toEqual([
      expect.objectContaining({
        amount: '7000.00',
        source: 'adjustments',
        status: 'completed',
        direction: 'credit',
      }),
    ]);
    expect(byType('topup')).toEqual([
      expect.objectContaining({
        amount: '1000.00',
        source: planName,
        status: 'completed',
        direction: 'debit',
      }),
    ]);
    expect(byType('roi')).toEqual([
      expect.objectContaining({
        amount: '10.00',
        source: planName,
        status: 'completed',
        direction: 'credit',
      }),
    ]);
    expect(byType('transfer').map((t) => [t.amount, t.source, t.status, t.description, t.direction])).toEqual(
      [
        ['5000.00', friend.username, 'pending', 'Car', 'debit'],
        ['25.50', friend.username, 'completed', 'Lunch money', 'debit'],
      ],
    );
  });

  it('shows the recipient the same transfers as money in, from the sender', async () => {
    const page = await list(friend, '?transaction_type=transfer');
    expect(page.transactions.map((t) => [t.amount, t.source, t.direction])).toEqual([
      ['5000.00', buyer.username, 'credit'],
      ['25.50', buyer.username, 'credit'],
    ]);
  });

  it("names the downline member as the source of the sponsor's activation and level income", async () => {
    const page = await list(sponsor);
    expect(page.transactions.map((t) => [t.transaction_type, t.amount, t.source]).sort()).toEqual([
      ['activation_income', '50.00', buyer.username],
      ['level_income', '1.00', buyer.username],
    ]);
  });

  it('filters by type, status, source, search and direction', async () => {
    expect((await list(buyer, '?transaction_type=transfer')).total).toBe(2);
    expect((await list(buyer, '?transaction_type=roi')).transactions[0]?.amount).toBe('10.00');
    expect((await list(buyer, '?transaction_type=withdrawal')).transactions).toEqual([]);
    const pending = await list(buyer, '?status=pending');
    expect(pending.transactions.map((t) => t.amount)).toEqual(['5000.00']);
    expect((await list(buyer, `?source=${friend.username.toUpperCase()}`)).total).toBe(2);
    expect((await list(buyer, `?source=${encodeURIComponent(planName)}`)).total).toBe(2);
    const lunch = await list(buyer, '?search=lunch');
    expect(lunch.transactions.map((t) => t.description)).toEqual(['Lunch money']);
    // A search is text, not a pattern: % matches only a literal percent sign.
    expect(
      (await list(buyer, `?search=${encodeURIComponent('%')}`)).transactions.map((t) => t.source),
    ).toEqual([planName, planName]);
    expect((await list(buyer, '?direction=credit')).total).toBe(2);
    expect((await list(buyer, '?transaction_type=transfer&status=completed')).total).toBe(1);
  });

  it('pages 10 at a time by default, newest first, and says how many pages there are', async () => {
    const saver = await member(server, admin, undefined);
    for (let i = 1; i <= 12; i += 1) await fund(admin, saver.id, `${i}.00`);
    const first = await list(saver);
    expect(first).toMatchObject({ currentPage: 1, totalPages: 2, total: 12 });
    expect(first.transactions.map((t) => t.amount)).toEqual(
      ['12', '11', '10', '9', '8', '7', '6', '5', '4', '3'].map((n) => `${n}.00`),
    );
    const second = await list(saver, '?page=2');
    expect(second.currentPage).toBe(2);
    expect(second.transactions.map((t) => t.amount)).toEqual(['2.00', '1.00']);
    expect((await list(saver, '?page=3')).transactions).toEqual([]);
    const five = await list(saver, '?limit=5&page=3');
    expect(five).toMatchObject({ totalPages: 3, currentPage: 3 });
    expect(five.transactions.map((t) => t.amount)).toEqual(['2.00', '1.00']);
  });
});

describe('who may read them', () => {
  it("refuses a member another member's transactions as not found", async () => {
    const res = await buyer.client.get(`/tr/user/${sponsor.id}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(TRANSACTION_MESSAGES.notFound);
  });

  it('asks for a sign-in first', async () => {
    const res = await new ApiClient(server.baseUrl).get(`/tr/user/${buyer.id}`);
    expect(res.status).toBe(401);
  });

  it("lets an admin read any member's, and answers 404 for an id that is no member", async () => {
    const res = await admin.get(`/tr/user/${buyer.id}?transaction_type=transfer`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect((await admin.get('/tr/user/no-such-member')).status).toBe(404);
  });
});

describe('bad input', () => {
  it.each([
    ['page=0', 'page', TRANSACTION_MESSAGES.pageInvalid],
    ['page=abc', 'page', TRANSACTION_MESSAGES.pageInvalid],
    ['limit=101', 'limit', TRANSACTION_MESSAGES.limitInvalid],
    ['limit=0', 'limit', TRANSACTION_MESSAGES.limitInvalid],
    ['transaction_type=bonus', 'transaction_type', TRANSACTION_MESSAGES.typeInvalid],
    ['status=done', 'status', TRANSACTION_MESSAGES.statusInvalid],
    [`search=${'x'.repeat(101)}`, 'search', TRANSACTION_MESSAGES.textTooLong],
    [`source=${'x'.repeat(101)}`, 'source', TRANSACTION_MESSAGES.textTooLong],
    ['direction=sideways', 'direction', 'direction must be credit or debit'],
  ])('%s is a 400 naming the field', async (query, field, message) => {
    const res = await buyer.client.get(`/tr/user/${buyer.id}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([{ field, message }]));
  });
});
