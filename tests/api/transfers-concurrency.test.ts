import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { type ApiClient, type ApiResponse, fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Transfers under concurrency, over real HTTP, on SQLite and PostgreSQL (RULES.md "Wallets and the
// ledger", "Internal transfers"): an Idempotency-Key moves money once however often it races; a balance
// covers exactly as many racing transfers as it holds; transfers in opposite directions (and admin
// decisions between them) never deadlock; the daily limit holds under racing requests.
// Members in this file: 15.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof fundedMember>>;
type Body = Record<string, unknown>;

const transferBody = (to: Member, amount: string, wallets: Body = {}): Body => ({
  userto_id: to.auth.id,
  amount,
  from: 'business',
  to: 'business',
  ...wallets,
});

const send = (from: Member, body: Body, key?: string) =>
  from.client.post('/transfer/touser', body, key === undefined ? {} : { 'Idempotency-Key': key });

const balanceOf = async (member: Member) => {
  const res = await member.client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

/** The member transfers a member sent, from the ledger. */
const sentRows = (userId: string) =>
  server.db
    .selectFrom('ledger_transfers')
    .select(['id', 'amount_cents', 'phase'])
    .where('kind', '=', 'transfer')
    .where('debit_account_id', 'in', [`${userId}:business`, `${userId}:working`])
    .execute();

const countStatuses = (answers: ApiResponse[]) => {
  const byStatus: Record<number, number> = {};
  for (const res of answers) byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
  return byStatus;
};

describe('Idempotency-Key on POST /transfer/touser', () => {
  let a: Member;
  let b: Member;
  beforeAll(async () => {
    a = await fundedMember(server.baseUrl, admin, { business: '100.00', working: '10.00' });
    b = await fundedMember(server.baseUrl, admin);
  });

  it('replays the first 201 for the same key and body, moving the money once', async () => {
    const key = randomUUID();
    const first = await send(a, transferBody(b, '12.34', { desc: 'Once' }), key);
    expect(first.status, first.text).toBe(201);
    const again = await send(a, transferBody(b, '12.34', { desc: 'Once' }), key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // The same amount written as a number is the same request.
    const asNumber = await send(a, transferBody(b, 12.34 as unknown as string, { desc: 'Once' }), key);
    expect(asNumber.status).toBe(201);
    expect(asNumber.body).toEqual(first.body);
    // /transfer/friend is the same call: the same key replays there too.
    const friend = await a.client.post('/transfer/friend', transferBody(b, '12.34', { desc: 'Once' }), {
      'Idempotency-Key': key,
    });
    expect(friend.status).toBe(201);
    expect(friend.body).toEqual(first.body);

    expect(await balanceOf(a)).toEqual({ business: '87.66', working: '10.00' });
    expect(await balanceOf(b)).toEqual({ business: '12.34', working: '0.00' });
    expect(await sentRows(a.auth.id)).toEqual([
      { id: first.body.transfer.id, amount_cents: 1234, phase: 'single' },
    ]);
    await expectBalanced();
  });

  it('answers the same key with another body with 409, moving nothing', async () => {
    const key = randomUUID();
    const body = transferBody(b, '5.00');
    expect((await send(a, body, key)).status).toBe(201);
    const before = await sentRows(a.auth.id);
    const balances = [await balanceOf(a), await balanceOf(b)];
    for (const other of [
      transferBody(b, '5.01'),
      transferBody(b, '5.00', { to: 'working' }),
      transferBody(b, '5.00', { from: 'working' }),
      transferBody(b, '5.00', { desc: 'Now with a note' }),
      transferBody(a, '5.00', { to: 'working' }),
    ]) {
      const res = await send(a, other, key);
      expect(res.status, JSON.stringify(other)).toBe(409);
      expect(res.body).toEqual({ message: WALLET_MESSAGES.idempotencyReused });
    }
    expect(await sentRows(a.auth.id)).toEqual(before);
    expect([await balanceOf(a), await balanceOf(b)]).toEqual(balances);
  });

  it('keeps each member’s keys their own', async () => {
    const key = randomUUID();
    const mine = await send(a, transferBody(b, '1.00'), key);
    const theirs = await send(b, transferBody(a, '1.00'), key);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.transfer.id).not.toBe(mine.body.transfer.id);
    expect(theirs.body.transfer.sender_email).toBe(b.member.email);
  });

  it('moves the money once when 20 requests with one key race', async () => {
    const key = `race-${randomUUID()}`;
    const before = (await sentRows(a.auth.id)).length;
    const balances = await balanceOf(a);
    // More than half the business balance: a second debit could not happen even if one slipped through.
    const amount = (Number(balances.business) * 0.6).toFixed(2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send(a, transferBody(b, amount, { to: 'working' }), key)),
    );
    for (const res of answers) expect(res.status, res.text).toBe(201);
    expect(new Set(answers.map((r) => r.body.transfer.id)).size).toBe(1);
    for (const res of answers) expect(res.body).toEqual(answers[0]?.body);
    expect(await sentRows(a.auth.id)).toHaveLength(before + 1);
    const stored = await server.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', key)
      .execute();
    expect(stored).toHaveLength(1);
    const cents = Math.round(Number(balances.business) * 100) - Math.round(Number(amount) * 100);
    expect((await balanceOf(a)).business).toBe((cents / 100).toFixed(2));
    expect((await balanceOf(b)).working).toBe(amount);
    await expectBalanced();
  });
});

describe('200 racing transfers over HTTP', () => {
  it('lets exactly 33 transfers of 0.30 through from 10.00, refusing the other 167', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '10.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(sender, transferBody(recipient, '0.30', { desc: `Race ${i}` })),
      ),
    );
    expect(countStatuses(answers)).toEqual({ 201: 33, 422: 167 });
    for (const res of answers) {
      if (res.status === 422) expect(res.body).toEqual({ message: WALLET_MESSAGES.insufficient });
      else expect(res.body.transfer).toMatchObject({ amount: '0.30', status: 'completed' });
    }
    expect(new Set(answers.filter((r) => r.status === 201).map((r) => r.body.transfer.id)).size).toBe(33);

    expect(await balanceOf(sender)).toEqual({ business: '0.10', working: '0.00' });
    expect(await balanceOf(recipient)).toEqual({ business: '9.90', working: '0.00' });
    const rows = await sentRows(sender.auth.id);
    expect(rows).toHaveLength(33);
    expect(rows.every((r) => Number(r.amount_cents) === 30)).toBe(true);
    // Only the transfers that happened count against the daily limit.
    const daily = await server.db
      .selectFrom('transfer_daily_totals')
      .select('amount_cents')
      .where('user_id', '=', sender.auth.id)
      .execute();
    expect(daily.map((d) => Number(d.amount_cents))).toEqual([990]);
    const history = await sender.client.get(`/transfer/byid/${sender.auth.id}`);
    expect(history.body.stats).toMatchObject({ total_outgoing: 33, total_sent_amount: '9.90' });
    await expectBalanced();
  });
});

describe('transfers in opposite directions', () => {
  it('answers every one of 100 crossing transfers between two members, conserving the total', async () => {
    const x = await fundedMember(server.baseUrl, admin, { business: '100.00', working: '100.00' });
    const y = await fundedMember(server.baseUrl, admin, { business: '100.00', working: '100.00' });
    const pairs = [
      { from: 'business', to: 'business' },
      { from: 'business', to: 'working' },
      { from: 'working', to: 'business' },
      { from: 'working', to: 'working' },
    ];
    // Model: each wallet starts at 10,000 cents; no wallet loses more than 25 x 1.00, so all fit.
    const model = new Map<string, number>();
    for (const m of [x, y]) for (const w of ['business', 'working']) model.set(`${m.auth.id}:${w}`, 10_000);
    const jobs: Promise<ApiResponse>[] = [];
    for (let i = 0; i < 50; i++)
      for (const [from, to] of [
        [x, y],
        [y, x],
      ] as const) {
        const pair = pairs[i % 4] as (typeof pairs)[number];
        const debit = `${from.auth.id}:${pair.from}`;
        const credit = `${to.auth.id}:${pair.to}`;
        model.set(debit, (model.get(debit) ?? 0) - 100);
        model.set(credit, (model.get(credit) ?? 0) + 100);
        jobs.push(send(from, transferBody(to, '1.00', pair)));
      }
    const answers = await Promise.all(jobs);
    expect(countStatuses(answers)).toEqual({ 201: 100 });

    const cents = (id: string) => ((model.get(id) ?? 0) / 100).toFixed(2);
    for (const m of [x, y])
      expect(await balanceOf(m)).toEqual({
        business: cents(`${m.auth.id}:business`),
        working: cents(`${m.auth.id}:working`),
      });
    await expectBalanced();
  });

  it('answers admin decisions racing with crossing transfers (no deadlock), conserving the total', async () => {
    const x = await fundedMember(server.baseUrl, admin, { business: '20000.00', working: '50.00' });
    const y = await fundedMember(server.baseUrl, admin, { business: '20000.00', working: '50.00' });
    const total = async () => {
      let sum = 0;
      for (const m of [x, y]) {
        const row = await server.db
          .selectFrom('ledger_accounts')
          .select(['balance_cents'])
          .where('user_id', '=', m.auth.id)
          .execute();
        for (const r of row) sum += Number(r.balance_cents);
      }
      return sum;
    };
    expect(await total()).toBe(4_010_000);

    for (let round = 0; round < 3; round++) {
      // Each round: each member holds one transfer of 5,000.00 to the other, then both holds are
      // approved while 20 small transfers cross in both directions.
      const holds: string[] = [];
      for (const [from, to] of [
        [x, y],
        [y, x],
      ] as const) {
        const res = await send(from, transferBody(to, '5000.00', { to: round % 2 ? 'working' : 'business' }));
        expect(res.status, res.text).toBe(201);
        expect(res.body.transfer.status).toBe('pending');
        holds.push(res.body.transfer.id);
      }
      const jobs: Promise<ApiResponse>[] = holds.map((id) =>
        admin.put(`/transfer/${id}/status`, { status: 'completed' }),
      );
      for (let i = 0; i < 10; i++) {
        jobs.push(send(x, transferBody(y, '0.50', { from: i % 2 ? 'working' : 'business' })));
        jobs.push(send(y, transferBody(x, '0.50', { to: i % 2 ? 'working' : 'business' })));
      }
      const answers = await Promise.all(jobs);
      for (const res of answers.slice(0, 2)) expect(res.status, res.text).toBe(200);
      for (const res of answers.slice(2)) expect(res.status, res.text).toBe(201);
    }
    // Money only moved between the two: their sum is what they were given.
    expect(await total()).toBe(4_010_000);
    const x1 = await balanceOf(x);
    const y1 = await balanceOf(y);
    // Symmetric rounds: each sent and received 3 x 5,000.00 and 30 x 0.50.
    const cents = (b: { business: string; working: string }) =>
      Math.round(Number(b.business) * 100) + Math.round(Number(b.working) * 100);
    expect(cents(x1)).toBe(2_005_000);
    expect(cents(y1)).toBe(2_005_000);
    await expectBalanced();
  });
});

describe('the daily limit under concurrency', () => {
  it('lets exactly 6 of 10 racing transfers of 4,000.00 through (24,000.00), refusing the rest with the limit', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '50000.00' });
    const one = await fundedMember(server.baseUrl, admin);
    const two = await fundedMember(server.baseUrl, admin);
    const jobs: Promise<ApiResponse>[] = [];
    for (let i = 0; i < 10; i++) jobs.push(send(sender, transferBody(i % 2 ? one : two, '4000.00')));
    // Self-transfers racing alongside do not count against the limit, and all go through.
    const selfJobs = Array.from({ length: 5 }, () =>
      send(sender, { ...transferBody(sender, '100.00'), to: 'working' }),
    );
    const answers = await Promise.all(jobs);
    const selfAnswers = await Promise.all(selfJobs);
    expect(countStatuses(answers)).toEqual({ 201: 6, 422: 4 });
    for (const res of answers) {
      if (res.status === 422) expect(res.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(2_500_000) });
      else expect(res.body.transfer).toMatchObject({ amount: '4000.00', status: 'completed' });
    }
    expect(countStatuses(selfAnswers)).toEqual({ 201: 5 });

    expect(await balanceOf(sender)).toEqual({ business: '25500.00', working: '500.00' });
    const received = [await balanceOf(one), await balanceOf(two)].map((b) => Number(b.business));
    expect((received[0] ?? 0) + (received[1] ?? 0)).toBe(24_000);
    const daily = await server.db
      .selectFrom('transfer_daily_totals')
      .select('amount_cents')
      .where('user_id', '=', sender.auth.id)
      .execute();
    expect(daily.map((d) => Number(d.amount_cents))).toEqual([2_400_000]);
    // 1,000.00 is left today: 1,000.01 is refused, 1,000.00 goes.
    const over = await send(sender, transferBody(one, '1000.01'));
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(2_500_000) });
    expect((await send(sender, transferBody(one, '1000.00'))).status).toBe(201);
    await expectBalanced();
  });
});

describe('the reconciliation under load', () => {
  it('reads the books in one snapshot: balanced on every call made while transfers commit', async () => {
    const members = await Promise.all(
      Array.from({ length: 4 }, () => fundedMember(server.baseUrl, admin, { business: '100.00' })),
    );
    let sending = true;
    const load = members.map(async (from, i) => {
      const to = members[(i + 1) % members.length] as Member;
      while (sending) {
        const res = await send(from, transferBody(to, '0.01'), randomUUID());
        expect(res.status, res.text).toBe(201);
      }
    });
    const answers: { balanced: boolean; mismatches: unknown[] }[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await admin.get('/ledger/reconciliation');
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    sending = false;
    await Promise.all(load);
    expect(answers.filter((a) => !a.balanced)).toEqual([]);
    await expectBalanced();
  });
});
