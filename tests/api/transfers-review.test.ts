import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { ApiClient, fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// RULES.md "Internal transfers": at or above the review threshold (5,000.00) a transfer is pending.
// The money leaves the sender's available balance at once (a hold); an admin completes it (the money
// reaches the recipient) or rejects it (failed, the money returns), exactly once, audited.
// Members in this file: 15.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (await admin.get('/auth/session')).body.admin.id;
  expect(adminId).toEqual(expect.any(String));
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof fundedMember>>;

const send = (from: Member, to: Member, amount: string, wallets: Record<string, string> = {}) =>
  from.client.post('/transfer/touser', {
    userto_id: to.auth.id,
    user_id: from.auth.id,
    amount,
    from: 'business',
    to: 'business',
    ...wallets,
  });

const decide = (id: string, status: string, extra: Record<string, unknown> = {}, client = admin) =>
  client.put(`/transfer/${id}/status`, { status, ...extra });

const balanceOf = async (member: Member) => {
  const res = await member.client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

const accountRow = (id: string) =>
  server.db
    .selectFrom('ledger_accounts')
    .select(['balance_cents', 'held_cents'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

const auditsOf = (transferId: string) =>
  server.db.selectFrom('audit_log').selectAll().where('target_id', '=', transferId).execute();

/** Everything a decision could change. */
const snapshot = async () => ({
  transfers: await server.db.selectFrom('ledger_transfers').select(['id']).orderBy('id').execute(),
  accounts: await server.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents', 'held_cents'])
    .orderBy('id')
    .execute(),
  audit: await server.db.selectFrom('audit_log').select(['id']).orderBy('id').execute(),
  daily: await server.db.selectFrom('transfer_daily_totals').selectAll().orderBy('user_id').execute(),
});

const pendingList = async () => {
  const res = await admin.get('/transfer/list?status=pending&limit=200');
  expect(res.status).toBe(200);
  return res.body.alltransfer as { id: string; status: string }[];
};

describe('a transfer at or above 5,000.00', () => {
  let sender: Member;
  let recipient: Member;
  beforeAll(async () => {
    sender = await fundedMember(server.baseUrl, admin, { business: '20000.00', working: '100.00' });
    recipient = await fundedMember(server.baseUrl, admin);
  });

  it('is pending: the sender’s available balance drops at once (held) and the recipient’s does not move', async () => {
    const res = await send(sender, recipient, '5000.00', { to: 'working' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: TRANSFER_MESSAGES.pendingReview(500_000),
      transfer: {
        id: expect.any(String),
        amount: '5000.00',
        description: null,
        created_at: expect.any(String),
        status: 'pending',
        sender_name: sender.member.fullname,
        sender_email: sender.member.email,
        recipient_name: recipient.member.fullname,
        recipient_email: recipient.member.email,
        from: 'business',
        to: 'working',
      },
    });
    expect(await balanceOf(sender)).toEqual({ business: '15000.00', working: '100.00' });
    expect(await balanceOf(recipient)).toEqual({ business: '0.00', working: '0.00' });
    // Held, not spent: the posted balance is unchanged and the hold is the amount.
    expect(await accountRow(`${sender.auth.id}:business`)).toEqual({
      balance_cents: 2_000_000,
      held_cents: 500_000,
    });
    // The member sees it as pending in the history, and the session's balance agrees.
    const history = await sender.client.get(`/transfer/byid/${sender.auth.id}`);
    expect(history.body.transfers.outgoing[0]).toMatchObject({ id: res.body.transfer.id, status: 'pending' });
    expect((await sender.client.get('/auth/session')).body.auth.balance).toEqual({
      business: '15000.00',
      working: '100.00',
    });
    expect((await pendingList()).map((t) => t.id)).toContain(res.body.transfer.id);
    await expectBalanced();
  });

  it('cannot spend held money: the hold counts against the available balance', async () => {
    const before = await snapshot();
    const res = await send(sender, recipient, '9000.00');
    expect(res.status).toBe(201);
    expect(res.body.transfer.status).toBe('pending');
    expect(await balanceOf(sender)).toEqual({ business: '6000.00', working: '100.00' });
    // 6,000.01 is more than is available (20,000 - 14,000 held).
    const over = await send(sender, recipient, '6000.01');
    expect(over.status).toBe(422);
    const after = await snapshot();
    expect(after.transfers).toHaveLength(before.transfers.length + 1);
    await expectBalanced();
    // Released again for the tests below.
    expect((await decide(res.body.transfer.id, 'failed')).status).toBe(200);
    expect(await balanceOf(sender)).toEqual({ business: '15000.00', working: '100.00' });
  });

  it('completes 4,999.99 at once, moving both wallets', async () => {
    const res = await send(sender, recipient, '4999.99');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ message: TRANSFER_MESSAGES.sent, transfer: { status: 'completed' } });
    expect(await balanceOf(sender)).toEqual({ business: '10000.01', working: '100.00' });
    expect(await balanceOf(recipient)).toEqual({ business: '4999.99', working: '0.00' });
    expect((await pendingList()).map((t) => t.id)).not.toContain(res.body.transfer.id);
    const completed = await admin.get('/transfer/list?status=completed&limit=200');
    expect(completed.body.alltransfer.map((t: { id: string }) => t.id)).toContain(res.body.transfer.id);
    await expectBalanced();
  });
});

describe('an admin decision', () => {
  it('approves a pending transfer: completed, the recipient credited, the sender’s balance final, audited', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '8000.00' });
    const recipient = await fundedMember(server.baseUrl, admin, { working: '1.00' });
    const sent = await send(sender, recipient, '7500.25', { to: 'working' });
    expect(sent.body.transfer.status).toBe('pending');
    const id = sent.body.transfer.id as string;
    expect(await balanceOf(sender)).toEqual({ business: '499.75', working: '0.00' });

    const res = await decide(id, 'completed', { reason: 'Checked with the sender by phone' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      message: TRANSFER_MESSAGES.approved,
      transfer: { ...sent.body.transfer, status: 'completed' },
    });
    expect(await balanceOf(recipient)).toEqual({ business: '0.00', working: '7501.25' });
    expect(await balanceOf(sender)).toEqual({ business: '499.75', working: '0.00' });
    expect(await accountRow(`${sender.auth.id}:business`)).toEqual({ balance_cents: 49_975, held_cents: 0 });
    expect((await pendingList()).map((t) => t.id)).not.toContain(id);
    const history = await recipient.client.get(`/transfer/byid/${recipient.auth.id}`);
    expect(history.body.transfers.incoming[0]).toMatchObject({ id, status: 'completed' });

    const audits = await auditsOf(id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor_id: adminId,
      action: 'transfer.approve',
      target_type: 'transfer',
      reason: 'Checked with the sender by phone',
    });
    expect(JSON.parse(audits[0]?.before_json ?? 'null')).toMatchObject({ id, status: 'pending' });
    expect(JSON.parse(audits[0]?.after_json ?? 'null')).toMatchObject({ id, status: 'completed' });
    await expectBalanced();

    // The held money is now spent: the sender cannot spend it twice.
    const over = await send(sender, recipient, '499.76');
    expect(over.status).toBe(422);
  });

  it('rejects a pending transfer: failed, the money returned to the sender, the recipient untouched, audited', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '6000.00', working: '10.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const sent = await send(sender, recipient, '6000.00');
    const id = sent.body.transfer.id as string;
    expect(sent.body.transfer.status).toBe('pending');
    expect(await balanceOf(sender)).toEqual({ business: '0.00', working: '10.00' });

    const res = await decide(id, 'failed');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      message: TRANSFER_MESSAGES.rejected,
      transfer: { ...sent.body.transfer, status: 'failed' },
    });
    expect(await balanceOf(sender)).toEqual({ business: '6000.00', working: '10.00' });
    expect(await balanceOf(recipient)).toEqual({ business: '0.00', working: '0.00' });
    expect(await accountRow(`${sender.auth.id}:business`)).toEqual({ balance_cents: 600_000, held_cents: 0 });
    const failed = await admin.get('/transfer/list?status=failed&limit=200');
    expect(failed.body.alltransfer.map((t: { id: string }) => t.id)).toContain(id);

    const audits = await auditsOf(id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_id: adminId, action: 'transfer.reject', reason: null });
    expect(JSON.parse(audits[0]?.after_json ?? 'null')).toMatchObject({ status: 'failed' });
    await expectBalanced();

    // The returned money is spendable again.
    const again = await send(sender, recipient, '4000.00');
    expect(again.status).toBe(201);
    expect(await balanceOf(recipient)).toEqual({ business: '4000.00', working: '0.00' });
  });

  it('reviews a large move between one’s own wallets the same way', async () => {
    const me = await fundedMember(server.baseUrl, admin, { working: '7000.00' });
    const sent = await send(me, me, '7000.00', { from: 'working', to: 'business' });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.transfer.status).toBe('pending');
    expect(await balanceOf(me)).toEqual({ business: '0.00', working: '0.00' });
    expect((await decide(sent.body.transfer.id, 'completed')).status).toBe(200);
    expect(await balanceOf(me)).toEqual({ business: '7000.00', working: '0.00' });
    await expectBalanced();
  });

  it('is taken once: a second decision is a 409 and changes nothing', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '20000.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const approved = (await send(sender, recipient, '5000.00')).body.transfer.id as string;
    const rejected = (await send(sender, recipient, '5000.00')).body.transfer.id as string;
    const completed = (await send(sender, recipient, '10.00')).body.transfer.id as string;
    expect((await decide(approved, 'completed')).status).toBe(200);
    expect((await decide(rejected, 'failed')).status).toBe(200);

    const before = await snapshot();
    for (const id of [approved, rejected, completed])
      for (const status of ['completed', 'failed']) {
        const res = await decide(id, status);
        expect(res.status, `${id} ${status}`).toBe(409);
        expect(res.body).toEqual({ message: TRANSFER_MESSAGES.notPending });
      }
    expect(await snapshot()).toEqual(before);
    expect(await balanceOf(sender)).toEqual({ business: '14990.00', working: '0.00' });
    expect(await balanceOf(recipient)).toEqual({ business: '5010.00', working: '0.00' });
    expect(await auditsOf(approved)).toHaveLength(1);
    expect(await auditsOf(rejected)).toHaveLength(1);
    expect(await auditsOf(completed)).toHaveLength(0);
    await expectBalanced();
  });

  it('is refused to a member (403), a visitor (401), without CSRF (403); unknown ids are 404, bad input 400', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '5000.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const id = (await send(sender, recipient, '5000.00')).body.transfer.id as string;
    const before = await snapshot();

    for (const member of [sender, recipient]) {
      const res = await decide(id, 'completed', {}, member.client);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: GENERIC.forbidden });
    }
    const visitor = await decide(id, 'completed', {}, new ApiClient(server.baseUrl));
    expect(visitor.status).toBe(401);
    const noCsrf = await admin.request('PUT', `/transfer/${id}/status`, {
      body: { status: 'completed' },
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);

    // An adjustment's ledger id is not a member transfer.
    const adjustment = await admin.post('/admin/adjustments', {
      user_id: recipient.auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: '1.00',
      reason: 'Goodwill',
    });
    const afterAdjustment = await snapshot();
    for (const unknown of [randomUUID(), 'no-such-transfer', adjustment.body.transfer.id]) {
      const res = await decide(unknown, 'completed');
      expect(res.status, unknown).toBe(404);
      expect(res.body.message).toEqual(expect.any(String));
    }
    for (const bad of [
      { status: 'pending' },
      { status: 'approved' },
      {},
      { status: 'failed', reason: 'r'.repeat(501) },
    ]) {
      const res = await admin.put(`/transfer/${id}/status`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errors?.length).toBeGreaterThan(0);
    }
    expect(await snapshot()).toEqual(afterAdjustment);
    expect(afterAdjustment.audit).toHaveLength(before.audit.length + 1);
    expect((await pendingList()).map((t) => t.id)).toContain(id);
    expect(await balanceOf(recipient)).toEqual({ business: '1.00', working: '0.00' });
  });

  it('replays the first answer for a repeated Idempotency-Key instead of a 409', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '5000.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const id = (await send(sender, recipient, '5000.00')).body.transfer.id as string;
    const key = randomUUID();
    const first = await admin.put(
      `/transfer/${id}/status`,
      { status: 'completed' },
      { 'Idempotency-Key': key },
    );
    expect(first.status).toBe(200);
    const again = await admin.put(
      `/transfer/${id}/status`,
      { status: 'completed' },
      { 'Idempotency-Key': key },
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await admin.put(`/transfer/${id}/status`, { status: 'failed' }, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(await balanceOf(recipient)).toEqual({ business: '5000.00', working: '0.00' });
    expect(await auditsOf(id)).toHaveLength(1);
    await expectBalanced();
  });
});

describe('racing decisions', () => {
  it('lets exactly one of 10 concurrent approve/reject decisions through, each time', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '24000.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await send(sender, recipient, '6000.00');
      expect(res.body.transfer.status).toBe('pending');
      ids.push(res.body.transfer.id);
    }
    // A second admin session decides too, as two operators would.
    const other = await signedInAdminClient(server.baseUrl);

    let approvedCents = 0;
    let rejectedCents = 0;
    for (const id of ids) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          decide(id, i % 2 ? 'completed' : 'failed', { reason: `Operator ${i}` }, i < 5 ? admin : other),
        ),
      );
      const ok = answers.filter((r) => r.status === 200);
      expect(ok, JSON.stringify(answers.map((r) => r.status))).toHaveLength(1);
      for (const res of answers.filter((r) => r.status !== 200)) {
        expect(res.status, res.text).toBe(409);
        expect(res.body.message).toEqual(expect.any(String));
      }
      const winner = ok[0]?.body.transfer.status;
      expect(['completed', 'failed']).toContain(winner);
      if (winner === 'completed') approvedCents += 600_000;
      else rejectedCents += 600_000;

      // The transfer shows the winner's decision, one audit row records it, the books hold.
      const history = await admin.get(`/transfer/byid/${sender.auth.id}`);
      expect(history.body.transfers.outgoing.find((t: { id: string }) => t.id === id).status).toBe(winner);
      const audits = await auditsOf(id);
      expect(audits).toHaveLength(1);
      expect(audits[0]?.action).toBe(winner === 'completed' ? 'transfer.approve' : 'transfer.reject');
      const settlements = await server.db
        .selectFrom('ledger_transfers')
        .select('phase')
        .where('pending_id', '=', id)
        .execute();
      expect(settlements).toEqual([{ phase: winner === 'completed' ? 'post' : 'void' }]);
      await expectBalanced();
    }
    const cents = (n: number) => (n / 100).toFixed(2);
    expect(await balanceOf(sender)).toEqual({ business: cents(rejectedCents), working: '0.00' });
    expect(await balanceOf(recipient)).toEqual({ business: cents(approvedCents), working: '0.00' });
    expect(await accountRow(`${sender.auth.id}:business`)).toEqual({
      balance_cents: 2_400_000 - approvedCents,
      held_cents: 0,
    });
    // Rejections free the daily limit once each, approvals keep counting.
    const daily = await server.db
      .selectFrom('transfer_daily_totals')
      .select('amount_cents')
      .where('user_id', '=', sender.auth.id)
      .execute();
    expect(daily.map((d) => Number(d.amount_cents))).toEqual([approvedCents]);
  });
});
