import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '../../src/shared/constants.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// POST /transfer/touser and /transfer/friend (spec 2 "Transfer form", spec 5, RULES.md "Internal
// transfers", API.md "Wallets and transfers"): one member sends money from one of their wallets to a
// wallet of another member (or between their own two). Every refusal leaves every wallet as it was.
// Members in this file: 18 (the server allows 20 registrations per 10 minutes per address).

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  const session = await admin.get('/auth/session');
  adminId = session.body.admin.id;
  expect(adminId).toEqual(expect.any(String));
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof fundedMember>>;
type Body = Record<string, unknown>;

/** Posts a transfer as a member (or any client). */
const send = (who: ApiClient | Member, body: Body, path = '/transfer/touser') =>
  (who instanceof ApiClient ? who : who.client).post(path, body);

const balanceOf = async (client: ApiClient) => {
  const res = await client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

/** Everything a transfer could change: ledger rows, account balances and holds, daily totals. */
const snapshot = async () => ({
  transfers: await server.db.selectFrom('ledger_transfers').select(['id']).orderBy('id').execute(),
  accounts: await server.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents', 'held_cents'])
    .orderBy('id')
    .execute(),
  daily: await server.db.selectFrom('transfer_daily_totals').selectAll().orderBy('user_id').execute(),
});

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

const block = async (userId: string) => {
  const res = await admin.put(`/users/${userId}`, { status: 'block' });
  expect(res.status).toBe(200);
};

/** A transfer body from `from` to `to` with the given amount and wallets. */
const body = (from: Member, to: Member | string, amount: unknown, wallets = {}): Body => ({
  userto_id: typeof to === 'string' ? to : to.auth.id,
  user_id: from.auth.id,
  amount,
  from: 'business',
  to: 'business',
  ...wallets,
});

describe('a transfer to another member', () => {
  let alice: Member;
  let bob: Member;
  beforeAll(async () => {
    alice = await fundedMember(server.baseUrl, admin, { business: '1000.00', working: '50.00' });
    bob = await fundedMember(server.baseUrl, admin);
  });

  it('answers 201 with the Transfer object (amount "x.xx", status completed) and moves both wallets', async () => {
    const res = await send(alice, {
      ...body(alice, bob, '125.5', { to: 'working' }),
      desc: '  Rent share for March  ',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: TRANSFER_MESSAGES.sent,
      transfer: {
        id: expect.any(String),
        amount: '125.50',
        description: 'Rent share for March',
        created_at: expect.any(String),
        status: 'completed',
        sender_name: alice.member.fullname,
        sender_email: alice.member.email,
        recipient_name: bob.member.fullname,
        recipient_email: bob.member.email,
        from: 'business',
        to: 'working',
      },
    });
    // created_at is an ISO 8601 time in UTC, about now.
    const created = Date.parse(res.body.transfer.created_at);
    expect(res.body.transfer.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Math.abs(Date.now() - created)).toBeLessThan(60_000);

    expect(await balanceOf(alice.client)).toEqual({ business: '874.50', working: '50.00' });
    expect(await balanceOf(bob.client)).toEqual({ business: '0.00', working: '125.50' });
    // The ledger row is the one the answer names, between exactly these two wallets.
    const row = await server.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('id', '=', res.body.transfer.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      debit_account_id: `${alice.auth.id}:business`,
      credit_account_id: `${bob.auth.id}:working`,
      amount_cents: 12550,
      phase: 'single',
      kind: 'transfer',
    });
    await expectBalanced();
  });

  it('takes the amount as a number too, allows any wallet pair, and needs no user_id or desc', async () => {
    const res = await send(alice, {
      userto_id: bob.auth.id,
      amount: 20.25,
      from: 'working',
      to: 'business',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.transfer).toMatchObject({
      amount: '20.25',
      description: null,
      from: 'working',
      to: 'business',
      status: 'completed',
    });
    expect(await balanceOf(alice.client)).toEqual({ business: '874.50', working: '29.75' });
    expect(await balanceOf(bob.client)).toEqual({ business: '20.25', working: '125.50' });
    await expectBalanced();
  });

  it('works the same at /transfer/friend', async () => {
    const res = await send(alice, { ...body(alice, bob, '4.50'), desc: 'Coffee' }, '/transfer/friend');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      message: TRANSFER_MESSAGES.sent,
      transfer: {
        amount: '4.50',
        description: 'Coffee',
        status: 'completed',
        sender_email: alice.member.email,
        recipient_email: bob.member.email,
      },
    });
    expect(await balanceOf(alice.client)).toEqual({ business: '870.00', working: '29.75' });
    expect(await balanceOf(bob.client)).toEqual({ business: '24.75', working: '125.50' });

    // ... including its refusals.
    const before = await snapshot();
    const refused = await send(alice, body(alice, bob, '870.01'), '/transfer/friend');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: WALLET_MESSAGES.insufficient });
    const invalid = await send(alice, body(alice, bob, ''), '/transfer/friend');
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(WALLET_MESSAGES.amountRequired);
    expect(invalid.body.errors[0]).toEqual({ field: 'amount', message: WALLET_MESSAGES.amountRequired });
    expect(await snapshot()).toEqual(before);
    await expectBalanced();
  });

  it('refuses more than the chosen source wallet holds with 422, changing nothing', async () => {
    const before = await snapshot();
    const balances = await balanceOf(alice.client);
    expect(balances).toEqual({ business: '870.00', working: '29.75' });
    for (const attempt of [
      body(alice, bob, '870.01'),
      body(alice, bob, '29.76', { from: 'working' }),
      // Enough across both wallets, not in the chosen one.
      body(alice, bob, '899.00'),
      // A self-transfer too.
      body(alice, alice, '29.76', { from: 'working', to: 'business' }),
    ]) {
      const res = await send(alice, attempt);
      expect(res.status, JSON.stringify(attempt)).toBe(422);
      expect(res.body).toEqual({ message: WALLET_MESSAGES.insufficient });
    }
    expect(await snapshot()).toEqual(before);
    expect(await balanceOf(alice.client)).toEqual(balances);

    // Exactly the balance is enough (the control).
    const all = await send(alice, body(alice, bob, '29.75', { from: 'working' }));
    expect(all.status).toBe(201);
    expect(await balanceOf(alice.client)).toEqual({ business: '870.00', working: '0.00' });
    expect(await balanceOf(bob.client)).toEqual({ business: '54.50', working: '125.50' });
    await expectBalanced();
  });

  it("refuses a user_id that is not the signed-in member's with 403, moving nothing", async () => {
    const before = await snapshot();
    for (const userId of [bob.auth.id, adminId, 'someone-else']) {
      const res = await send(alice, { ...body(alice, bob, '1.00'), user_id: userId });
      expect(res.status, userId).toBe(403);
      expect(res.body).toEqual({ message: TRANSFER_MESSAGES.notYourAccount });
    }
    // Bob cannot spend Alice's money by naming her either: the sender is the session's member.
    const asBob = await send(bob, { ...body(alice, bob, '1.00'), userto_id: bob.auth.id });
    expect(asBob.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a malformed Idempotency-Key with 400, moving nothing and telling nobody', async () => {
    const noticesOfBob = async () =>
      (
        await server.db
          .selectFrom('notification_recipients')
          .select('notification_id')
          .where('user_id', '=', bob.auth.id)
          .execute()
      ).length;
    const before = { ...(await snapshot()), notices: await noticesOfBob() };
    for (const key of ['k'.repeat(201), 'has space', '']) {
      const res = await alice.client.post('/transfer/touser', body(alice, bob, '1.00'), {
        'Idempotency-Key': key,
      });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
    expect({ ...(await snapshot()), notices: await noticesOfBob() }).toEqual(before);

    // The longest allowed key works, once: its repeat is the stored answer.
    const key = 'k'.repeat(200);
    const first = await alice.client.post('/transfer/touser', body(alice, bob, '1.00'), {
      'Idempotency-Key': key,
    });
    expect(first.status, first.text).toBe(201);
    const again = await alice.client.post('/transfer/touser', body(alice, bob, '1.00'), {
      'Idempotency-Key': key,
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await noticesOfBob()).toBe(before.notices + 1);
    expect((await snapshot()).transfers).toHaveLength(before.transfers.length + 1);
    await expectBalanced();
  });
});

describe('the validation messages of spec 5', () => {
  let sender: Member;
  let recipient: Member;
  beforeAll(async () => {
    sender = await fundedMember(server.baseUrl, admin, { business: '20000.00', working: '100.00' });
    recipient = await fundedMember(server.baseUrl, admin);
  });

  const cases: [string, Body, string, string][] = [
    ['amount missing', { amount: undefined }, 'amount', WALLET_MESSAGES.amountRequired],
    ['amount empty', { amount: '' }, 'amount', WALLET_MESSAGES.amountRequired],
    ['amount blank', { amount: '   ' }, 'amount', WALLET_MESSAGES.amountRequired],
    ['amount null', { amount: null }, 'amount', WALLET_MESSAGES.amountRequired],
    ['amount text', { amount: 'ten' }, 'amount', WALLET_MESSAGES.amountInvalid],
    ['amount with letters', { amount: '12abc' }, 'amount', WALLET_MESSAGES.amountInvalid],
    ['amount zero', { amount: '0' }, 'amount', WALLET_MESSAGES.amountPositive],
    ['amount zero number', { amount: 0 }, 'amount', WALLET_MESSAGES.amountPositive],
    ['amount 0.00', { amount: '0.00' }, 'amount', WALLET_MESSAGES.amountPositive],
    ['amount negative', { amount: '-5' }, 'amount', WALLET_MESSAGES.amountPositive],
    ['amount negative number', { amount: -0.01 }, 'amount', WALLET_MESSAGES.amountPositive],
    ['amount 10,000.01', { amount: '10000.01' }, 'amount', TRANSFER_MESSAGES.amountMax],
    ['amount 10,000.01 number', { amount: 10000.01 }, 'amount', TRANSFER_MESSAGES.amountMax],
    ['amount 15,000', { amount: '15000' }, 'amount', TRANSFER_MESSAGES.amountMax],
    ['amount with 3 decimals', { amount: '1.234' }, 'amount', WALLET_MESSAGES.amountFormat],
    ['amount number with 3 decimals', { amount: 0.005 }, 'amount', WALLET_MESSAGES.amountFormat],
    ['from missing', { from: undefined }, 'from', TRANSFER_MESSAGES.fromRequired],
    ['from empty', { from: '' }, 'from', TRANSFER_MESSAGES.fromRequired],
    ['from unknown', { from: 'savings' }, 'from', TRANSFER_MESSAGES.fromRequired],
    ['to missing', { to: undefined }, 'to', TRANSFER_MESSAGES.toRequired],
    ['to empty', { to: '' }, 'to', TRANSFER_MESSAGES.toRequired],
    ['to unknown', { to: 'Active Wallet' }, 'to', TRANSFER_MESSAGES.toRequired],
    ['desc of 201 characters', { desc: 'd'.repeat(201) }, 'desc', TRANSFER_MESSAGES.descriptionMax],
    ['recipient missing', { userto_id: undefined }, 'userto_id', TRANSFER_MESSAGES.recipientRequired],
    ['recipient empty', { userto_id: ' ' }, 'userto_id', TRANSFER_MESSAGES.recipientRequired],
  ];

  it.each(cases)('%s: 400 with the field error, moving nothing', async (_name, change, field, message) => {
    const before = await snapshot();
    const attempt = { ...body(sender, recipient, '10.00'), desc: 'ok', ...change };
    const res = await send(sender.client, JSON.parse(JSON.stringify(attempt)));
    expect(res.status, res.text).toBe(400);
    // The spec's message leads, for the top-level message and the field's first error; every error
    // names this field (the amount's later checks may add their own message after it).
    expect(res.body.message).toBe(message);
    const errors = res.body.errors as { field: string; message: string }[];
    expect(errors[0]).toEqual({ field, message });
    expect(errors.every((e) => e.field === field)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it('lists every field error at once for an empty body', async () => {
    const res = await send(sender.client, {});
    expect(res.status).toBe(400);
    const errors = res.body.errors as { field: string; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'userto_id', message: TRANSFER_MESSAGES.recipientRequired },
        { field: 'amount', message: WALLET_MESSAGES.amountRequired },
        { field: 'from', message: TRANSFER_MESSAGES.fromRequired },
        { field: 'to', message: TRANSFER_MESSAGES.toRequired },
      ]),
    );
    expect(errors).toHaveLength(4);
  });

  it('allows exactly 10,000.00 and a description of exactly 200 characters', async () => {
    const desc = 'x'.repeat(200);
    const res = await send(sender.client, { ...body(sender, recipient, '10000.00'), desc });
    expect(res.status, res.text).toBe(201);
    expect(res.body.transfer).toMatchObject({ amount: '10000.00', description: desc });
    // 10,000 is at or above the review threshold: it is held for an admin.
    expect(res.body.transfer.status).toBe('pending');
    expect(await balanceOf(sender.client)).toEqual({ business: '10000.00', working: '100.00' });
    const number = await send(sender.client, body(sender, recipient, 10000, { from: 'business' }));
    expect(number.status, number.text).toBe(201);
    expect(number.body.transfer.amount).toBe('10000.00');
    expect(await balanceOf(sender.client)).toEqual({ business: '0.00', working: '100.00' });
    await expectBalanced();
  });
});

describe('transfers to oneself', () => {
  it('refuses the same wallet with 400 and moves between the two own wallets', async () => {
    const me = await fundedMember(server.baseUrl, admin, { business: '300.00' });
    const before = await snapshot();
    for (const wallet of ['business', 'working']) {
      const res = await send(me, body(me, me, '10.00', { from: wallet, to: wallet }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: TRANSFER_MESSAGES.sameWallet,
        errors: [{ field: 'to', message: TRANSFER_MESSAGES.sameWallet }],
      });
    }
    expect(await snapshot()).toEqual(before);

    const res = await send(me, { ...body(me, me, '120.00', { to: 'working' }), desc: 'Move to income' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.transfer).toMatchObject({
      amount: '120.00',
      status: 'completed',
      sender_email: me.member.email,
      recipient_email: me.member.email,
      from: 'business',
      to: 'working',
    });
    expect(await balanceOf(me.client)).toEqual({ business: '180.00', working: '120.00' });
    const back = await send(me, body(me, me, '20.00', { from: 'working', to: 'business' }));
    expect(back.status).toBe(201);
    expect(await balanceOf(me.client)).toEqual({ business: '200.00', working: '100.00' });
    await expectBalanced();
  });
});

describe('who may receive', () => {
  let sender: Member;
  beforeAll(async () => {
    sender = await fundedMember(server.baseUrl, admin, { business: '100.00' });
  });

  it('answers an unknown recipient with 404, moving nothing', async () => {
    const before = await snapshot();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nobody']) {
      const res = await send(sender, body(sender, id, '1.00'));
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: TRANSFER_MESSAGES.recipientNotFound });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers an admin as recipient with 404, moving nothing', async () => {
    const before = await snapshot();
    const res = await send(sender, body(sender, adminId, '1.00'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: TRANSFER_MESSAGES.recipientNotFound });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a blocked recipient with 422, moving nothing, and pays them once unblocked', async () => {
    const recipient = await fundedMember(server.baseUrl, admin);
    await block(recipient.auth.id);
    const before = await snapshot();
    const res = await send(sender, body(sender, recipient, '1.00'));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: TRANSFER_MESSAGES.recipientBlocked });
    expect(await snapshot()).toEqual(before);

    expect((await admin.put(`/users/${recipient.auth.id}`, { status: 'unblock' })).status).toBe(200);
    const again = await send(sender, body(sender, recipient, '1.00'));
    expect(again.status).toBe(201);
    expect(await balanceOf(sender.client)).toEqual({ business: '99.00', working: '0.00' });
  });

  it('pays an inactive member (only the sender must be active)', async () => {
    const { auth, client } = await signedInMember(server.baseUrl);
    const res = await send(sender, body(sender, auth.id, '2.00', { to: 'working' }));
    expect(res.status, res.text).toBe(201);
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '2.00' });
    await expectBalanced();
  });
});

describe('who may send', () => {
  it('refuses an inactive sender with 422 "Only active accounts can send transfers", moving nothing', async () => {
    const recipient = await fundedMember(server.baseUrl, admin);
    const inactive = await signedInMember(server.baseUrl);
    const credit = await admin.post('/admin/adjustments', {
      user_id: inactive.auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: '50.00',
      reason: 'Funds of an inactive member',
    });
    expect(credit.status).toBe(201);
    const before = await snapshot();
    const res = await send(inactive.client, body(inactive, recipient, '5.00'));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: TRANSFER_MESSAGES.senderInactive });
    // A move between their own wallets is a transfer too.
    const self = await send(inactive.client, body(inactive, inactive, '5.00', { to: 'working' }));
    expect(self.status).toBe(422);
    expect(self.body).toEqual({ message: TRANSFER_MESSAGES.senderInactive });
    expect(await snapshot()).toEqual(before);

    // Activated, the same request goes through; deactivated again, it stops again.
    expect((await admin.put(`/users/${inactive.auth.id}`, { is_active: 'active' })).status).toBe(200);
    expect((await send(inactive.client, body(inactive, recipient, '5.00'))).status).toBe(201);
    expect((await admin.put(`/users/${inactive.auth.id}`, { is_active: 'inactive' })).status).toBe(200);
    const after = await send(inactive.client, body(inactive, recipient, '5.00'));
    expect(after.status).toBe(422);
    expect(after.body).toEqual({ message: TRANSFER_MESSAGES.senderInactive });
    expect(await balanceOf(inactive.client)).toEqual({ business: '45.00', working: '0.00' });
    expect(await balanceOf(recipient.client)).toEqual({ business: '5.00', working: '0.00' });
  });

  it('refuses an admin as sender with 403', async () => {
    const recipient = await fundedMember(server.baseUrl, admin);
    const before = await snapshot();
    const res = await admin.post('/transfer/touser', {
      userto_id: recipient.auth.id,
      amount: '1.00',
      from: 'business',
      to: 'business',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: GENERIC.forbidden });
    const friend = await admin.post('/transfer/friend', {
      userto_id: recipient.auth.id,
      amount: '1.00',
      from: 'working',
      to: 'business',
    });
    expect(friend.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a visitor who is not signed in with 401, and a call without the CSRF header with 403', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '10.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const before = await snapshot();

    const visitor = new ApiClient(server.baseUrl);
    const anonymous = await send(visitor, body(sender, recipient, '1.00'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: GENERIC.notSignedIn });

    const noCsrf = await sender.client.request('POST', '/transfer/touser', {
      body: body(sender, recipient, '1.00'),
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ message: GENERIC.csrf, error: 'csrf' });
    const wrongCsrf = await sender.client.request('POST', '/transfer/friend', {
      body: body(sender, recipient, '1.00'),
      csrf: false,
      headers: { 'x-xsrf-token': 'forged-token' },
    });
    expect(wrongCsrf.status).toBe(403);

    // A blocked member's session is gone: its CSRF token no longer matches (403), and with a fresh
    // token the call is a plain 401.
    await block(sender.auth.id);
    const stale = await send(sender, body(sender, recipient, '1.00'));
    expect(stale.status).toBe(403);
    sender.client.cookies.delete(CSRF_COOKIE);
    const blocked = await send(sender, body(sender, recipient, '1.00'));
    expect(blocked.status).toBe(401);
    expect(blocked.body).toEqual({ message: GENERIC.notSignedIn });
    expect(await snapshot()).toEqual(before);
  });
});

describe('the daily limit of 25,000.00 sent to others', () => {
  it('lets a member send up to 25,000.00 a day to others, then answers 422; self-transfers do not count', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '30000.00', working: '100.00' });
    const one = await fundedMember(server.baseUrl, admin);
    const two = await fundedMember(server.baseUrl, admin);
    // A refused transfer (insufficient) does not count against the limit.
    const tooMuch = await send(sender, body(sender, one, '100.01', { from: 'working' }));
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toEqual({ message: WALLET_MESSAGES.insufficient });
    // Below the review threshold, so each completes: 5 x 4,999.99 = 24,999.95.
    for (let i = 0; i < 5; i++) {
      const res = await send(sender, body(sender, i % 2 ? one : two, '4999.99'));
      expect(res.status, res.text).toBe(201);
      expect(res.body.transfer.status).toBe('completed');
    }
    // Self-transfers are not sent to others.
    const self = await send(sender, body(sender, sender, '4000.00', { to: 'working' }));
    expect(self.status, self.text).toBe(201);

    // 0.05 more reaches 25,000.00 exactly.
    const last = await send(sender, body(sender, one, '0.05', { from: 'working' }));
    expect(last.status, last.text).toBe(201);

    const before = await snapshot();
    for (const [to, amount] of [
      [one, '0.01'],
      [two, '0.01'],
      [two, '100.00'],
    ] as const) {
      const res = await send(sender, body(sender, to, amount, { from: 'working' }));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(2_500_000) });
    }
    const friend = await send(sender, body(sender, two, '0.01'), '/transfer/friend');
    expect(friend.status).toBe(422);
    expect(friend.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(2_500_000) });
    expect(await snapshot()).toEqual(before);

    // Moving between one's own wallets still works after the limit.
    const selfAfter = await send(sender, body(sender, sender, '500.00', { from: 'working', to: 'business' }));
    expect(selfAfter.status, selfAfter.text).toBe(201);
    expect(await balanceOf(sender.client)).toEqual({ business: '1500.05', working: '3599.95' });
    expect(await balanceOf(one.client)).toEqual({ business: '10000.03', working: '0.00' });
    expect(await balanceOf(two.client)).toEqual({ business: '14999.97', working: '0.00' });
    await expectBalanced();
  });

  it('counts a pending transfer against the limit and frees it again when an admin rejects it', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '40000.00' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const held = await send(sender, body(sender, recipient, '5000.00'));
    expect(held.status).toBe(201);
    expect(held.body.transfer.status).toBe('pending');
    for (let i = 0; i < 4; i++)
      expect((await send(sender, body(sender, recipient, '4999.99'))).status).toBe(201);
    // 5,000.00 + 19,999.96 = 24,999.96: 0.05 more would pass 25,000.
    const over = await send(sender, body(sender, recipient, '0.05'));
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(2_500_000) });
    expect((await send(sender, body(sender, recipient, '0.04'))).status).toBe(201);
    expect((await send(sender, body(sender, recipient, '0.01'))).status).toBe(422);

    const rejected = await admin.put(`/transfer/${held.body.transfer.id}/status`, {
      status: 'failed',
      reason: 'Not recognised by the sender',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.transfer.status).toBe('failed');

    // 20,000.00 counted now: 5,000.00 fits again, and not a cent more.
    expect((await send(sender, body(sender, recipient, '4999.99'))).status).toBe(201);
    expect((await send(sender, body(sender, recipient, '0.01'))).status).toBe(201);
    const full = await send(sender, body(sender, recipient, '0.01'));
    expect(full.status).toBe(422);
    expect(full.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(2_500_000) });

    expect(await balanceOf(sender.client)).toEqual({ business: '15000.00', working: '0.00' });
    expect(await balanceOf(recipient.client)).toEqual({ business: '25000.00', working: '0.00' });
    await expectBalanced();
  });
});
