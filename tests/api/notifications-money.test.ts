import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_NOTIFICATIONS, NOTIFICATION_LINKS } from '../../src/shared/notifications.ts';
import { TICKET_MESSAGES } from '../../src/shared/tickets.ts';
import { type ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 22 item 9: the app tells a member about the money events they care about, each notification
// linking to the screen it is about, written in the money movement's own transaction: exactly one per
// event, none for a refusal, a rollback, an Idempotency-Key replay or a rejected held transfer.
// A member reads only their own. Members in this file: 19.

const STEP_MS = 50;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer({ SANDBOX_STEP_MS: String(STEP_MS), PAYMENT_SWEEP_MS: '0' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof signedInMember>>;
type Note = { id: string; title: string; message: string; link: string | null; seen: boolean };

const notesOf = async (who: Member): Promise<Note[]> => {
  const res = await who.client.get(`/notifications/user/${who.auth.id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.notifications;
};
const titled = async (who: Member, title: string) => (await notesOf(who)).filter((n) => n.title === title);

/** Every notification row addressed to this member, straight from the database. */
const rowsFor = (userId: string) =>
  server.db
    .selectFrom('notifications as n')
    .innerJoin('notification_recipients as r', 'r.notification_id', 'n.id')
    .select(['n.id', 'n.title', 'n.link', 'n.origin', 'n.users'])
    .where('r.user_id', '=', userId)
    .execute();

const send = (from: Member, to: Member, amount: string, extra: Record<string, unknown> = {}, key?: string) =>
  from.client.post(
    '/transfer/touser',
    { userto_id: to.auth.id, user_id: from.auth.id, amount, from: 'business', to: 'business', ...extra },
    key ? { 'Idempotency-Key': key } : undefined,
  );

const RECEIVED = MONEY_NOTIFICATIONS.moneyReceivedTitle;

describe('money received by a transfer', () => {
  let alice: Member;
  let bob: Member;
  beforeAll(async () => {
    alice = await fundedMember(server.baseUrl, admin, { business: '100.00' }, { fullname: 'Alice Walker' });
    bob = await fundedMember(server.baseUrl, admin, {}, { fullname: 'Bob Stone' });
  });

  it('tells the recipient once, with the amount, sender, wallet and note, linking to received transfers', async () => {
    const res = await send(alice, bob, '25.50', { to: 'working', desc: 'Lunch on Friday' });
    expect(res.status, res.text).toBe(201);
    const notes = await titled(bob, RECEIVED);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ link: '/user/transfer?tab=received', seen: false });
    expect(notes[0]?.message).toBe(
      'Alice Walker sent you $25.50 to your Income Working wallet. Note: "Lunch on Friday"',
    );
    expect((await bob.client.get('/notifications/home')).body.unread).toBe(1);
    // The sender is not told that money arrived.
    expect(await titled(alice, RECEIVED)).toHaveLength(0);
    const rows = (await rowsFor(bob.auth.id)).filter((r) => r.title === RECEIVED);
    expect(rows).toEqual([expect.objectContaining({ origin: 'system', users: 0 })]);
  });

  it('writes none for a refused transfer, and the next one still works', async () => {
    const before = (await rowsFor(bob.auth.id)).length;
    const refused = await send(alice, bob, '4000.00');
    expect(refused.status).toBe(422);
    expect((await rowsFor(bob.auth.id)).length).toBe(before);
    const ok = await send(alice, bob, '1.00');
    expect(ok.status).toBe(201);
    expect((await rowsFor(bob.auth.id)).length).toBe(before + 1);
  });

  it('writes one for a transfer replayed with its Idempotency-Key, even when the repeats race', async () => {
    const before = (await titled(bob, RECEIVED)).length;
    const key = `notify-${Date.now()}`;
    const answers = await Promise.all([1, 2, 3].map(() => send(alice, bob, '2.00', {}, key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const again = await send(alice, bob, '2.00', {}, key);
    expect(again.status).toBe(201);
    expect(again.body.transfer.id).toBe(answers[0]?.body.transfer.id);
    expect((await titled(bob, RECEIVED)).length).toBe(before + 1);
    expect((await alice.client.get('/wallet/balance')).body.business).toBe('71.50');
  });

  it('writes none for a move between the member’s own wallets', async () => {
    const before = (await rowsFor(alice.auth.id)).length;
    const res = await send(alice, alice, '1.00', { to: 'working' });
    expect(res.status, res.text).toBe(201);
    expect((await rowsFor(alice.auth.id)).length).toBe(before);
  });
});

describe('a held transfer (at or above 5,000.00)', () => {
  let rich: Member;
  let carol: Member;
  let dan: Member;
  beforeAll(async () => {
    rich = await fundedMember(server.baseUrl, admin, { business: '12000.00' }, { fullname: 'Rita Rich' });
    carol = await fundedMember(server.baseUrl, admin, {}, { fullname: 'Carol King' });
    dan = await fundedMember(server.baseUrl, admin, {}, { fullname: 'Dan Brown' });
  });

  it('tells the recipient when an admin approves it, not before, and only once', async () => {
    const sent = await send(rich, carol, '5000.00');
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.transfer.status).toBe('pending');
    expect(await titled(carol, RECEIVED)).toHaveLength(0);

    const approved = await admin.put(
      `/transfer/${sent.body.transfer.id}/status`,
      { status: 'completed' },
      { 'Idempotency-Key': `approve-${sent.body.transfer.id}` },
    );
    expect(approved.status, approved.text).toBe(200);
    const replay = await admin.put(
      `/transfer/${sent.body.transfer.id}/status`,
      { status: 'completed' },
      { 'Idempotency-Key': `approve-${sent.body.transfer.id}` },
    );
    expect(replay.status).toBe(200);
    const second = await admin.put(`/transfer/${sent.body.transfer.id}/status`, { status: 'completed' });
    expect(second.status).toBe(409);

    const notes = await titled(carol, RECEIVED);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      link: NOTIFICATION_LINKS.moneyReceived,
      message: 'Rita Rich sent you $5,000.00 to your Active Wallet.',
    });
  });

  it('tells nobody when an admin rejects it', async () => {
    const sent = await send(rich, dan, '5000.00');
    expect(sent.status, sent.text).toBe(201);
    const rejected = await admin.put(`/transfer/${sent.body.transfer.id}/status`, {
      status: 'failed',
      reason: 'Looks like fraud',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(await titled(dan, RECEIVED)).toHaveLength(0);
    expect(await titled(rich, RECEIVED)).toHaveLength(0);
  });
});

describe('balance adjusted by support', () => {
  it('tells the member the amount and wallet of a credit and a debit, never the reason', async () => {
    const member = await signedInMember(server.baseUrl);
    const adjust = (body: Record<string, unknown>, key?: string) =>
      admin.post(
        '/admin/adjustments',
        { user_id: member.auth.id, reason: 'Internal: chargeback case 7741', ...body },
        key ? { 'Idempotency-Key': key } : undefined,
      );
    const key = `adjust-${member.auth.id}`;
    expect((await adjust({ wallet: 'business', direction: 'credit', amount: '1250.00' }, key)).status).toBe(
      201,
    );
    expect((await adjust({ wallet: 'business', direction: 'credit', amount: '1250.00' }, key)).status).toBe(
      201,
    );
    expect((await adjust({ wallet: 'business', direction: 'debit', amount: '5000.00' })).status).toBe(422);
    expect((await adjust({ wallet: 'business', direction: 'debit', amount: '50.00' })).status).toBe(201);

    const notes = await titled(member, MONEY_NOTIFICATIONS.balanceAdjustedTitle);
    expect(notes.map((n) => n.message)).toEqual([
      'Support deducted $50.00 from your Active Wallet. Questions? Open a support ticket.',
      'Support added $1,250.00 to your Active Wallet. Questions? Open a support ticket.',
    ]);
    for (const note of notes) {
      expect(note.link).toBe('/user/dashboard');
      expect(note.message).not.toContain('chargeback');
    }
  });
});

describe('deposit credited', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function pollUntil(who: Member, id: string, status: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await who.client.get(`/payments/payment-status/${id}`);
      expect(res.status, res.text).toBe(200);
      if (res.body.payment_status === status) return;
      if (Date.now() > deadline) throw new Error(`payment ${id} stayed ${res.body.payment_status}`);
      await sleep(10);
    }
  }
  const createPayment = async (who: Member, amount: string) => {
    const res = await who.client.post('/payments/create-payment', {
      price_amount: amount,
      price_currency: 'usd',
      pay_currency: 'usdtbsc',
    });
    expect(res.status, res.text).toBe(201);
    return res.body.payment_id as string;
  };

  it('tells the member once when a crypto payment is credited, however often it is polled', async () => {
    const member = await signedInMember(server.baseUrl);
    const id = await createPayment(member, '25.00');
    expect((await member.client.post(`/payments/sandbox/${id}/pay`, {})).status).toBe(200);
    await pollUntil(member, id, 'finished');
    await Promise.all([1, 2, 3].map(() => member.client.get(`/payments/payment-status/${id}`)));
    expect((await member.client.get('/payments/mine')).status).toBe(200);

    const notes = await titled(member, MONEY_NOTIFICATIONS.depositCreditedTitle);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      link: '/user/deposit-history',
      message: `$25.00 from your crypto payment ${id} was added to your Active Wallet.`,
    });
  });

  it('tells the member once when an admin credits a partial payment by hand', async () => {
    const member = await signedInMember(server.baseUrl);
    const id = await createPayment(member, '50.00');
    expect((await member.client.post(`/payments/sandbox/${id}/pay`, { amount: '20' })).status).toBe(200);
    await pollUntil(member, id, 'partially_paid');
    expect(await titled(member, MONEY_NOTIFICATIONS.depositCreditedTitle)).toHaveLength(0);

    const body = { amount: '20.00', reason: 'Payer sent 20 of 50; ops ticket 12' };
    const headers = { 'Idempotency-Key': `manual-${id}` };
    expect((await admin.post(`/payments/${id}/manual-credit`, body, headers)).status).toBe(201);
    expect((await admin.post(`/payments/${id}/manual-credit`, body, headers)).status).toBe(201);
    expect((await admin.post(`/payments/${id}/manual-credit`, body)).status).toBe(409);

    const notes = await titled(member, MONEY_NOTIFICATIONS.depositCreditedTitle);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      link: NOTIFICATION_LINKS.depositCredited,
      message: `Support credited $20.00 for your partially paid crypto payment ${id} to your Active Wallet.`,
    });
  });
});

describe('a ticket answer', () => {
  it('links to the ticket', async () => {
    const member = await signedInMember(server.baseUrl);
    const opened = await member.client.post('/tickets', {
      subject: 'Where is my deposit?',
      category: 'deposit',
      message: 'I paid an hour ago.',
    });
    expect(opened.status, opened.text).toBe(201);
    const ticketId = opened.body.ticket.ticket_id as string;
    const answered = await admin.post(`/tickets/${ticketId}/responses`, { message: 'It is credited now.' });
    expect(answered.status, answered.text).toBe(201);
    const notes = await titled(member, TICKET_MESSAGES.notifyAnswerTitle);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.link).toBe(`/user/queries/${ticketId}`);
  });
});

describe('privacy', () => {
  it("a member cannot list, open or mark another member's money notification", async () => {
    const payer = await fundedMember(server.baseUrl, admin, { business: '10.00' });
    const payee = await fundedMember(server.baseUrl, admin, {});
    const nosy = await signedInMember(server.baseUrl);
    expect((await send(payer, payee, '3.00')).status).toBe(201);
    const [note] = await titled(payee, RECEIVED);
    expect(note).toBeDefined();

    const peek = await nosy.client.get(`/notifications/user/${payee.auth.id}`);
    expect(peek.status).toBe(404);
    expect(peek.text).not.toContain(RECEIVED);
    expect((await notesOf(nosy)).map((n) => n.id)).not.toContain(note?.id);
    expect((await nosy.client.get('/notifications')).text).not.toContain(note?.id ?? '-');
    const mark = await nosy.client.put(`/notifications/${note?.id}/seen`, {});
    expect(mark.status).toBe(404);
    expect((await titled(payee, RECEIVED))[0]?.seen).toBe(false);
  });
});

describe('the admin list', () => {
  it('tells system notifications from broadcasts and names their recipients', async () => {
    const member = await signedInMember(server.baseUrl, { fullname: 'Nina Notified' });
    const adjusted = await admin.post('/admin/adjustments', {
      user_id: member.auth.id,
      wallet: 'working',
      direction: 'credit',
      amount: '5.00',
      reason: 'Goodwill',
    });
    expect(adjusted.status).toBe(201);
    const chosen = await admin.post('/notifications', {
      title: 'Chosen ones',
      message: 'Hello',
      users: false,
      recipients: [member.auth.id],
    });
    expect(chosen.status).toBe(201);
    expect(chosen.body.notification).toMatchObject({
      origin: 'broadcast',
      link: null,
      recipient_preview: [{ id: member.auth.id, fullname: 'Nina Notified', email: member.member.email }],
    });

    const list = await admin.get('/notifications');
    expect(list.status).toBe(200);
    type AdminNote = Note & { origin: string; recipients: string[]; recipient_preview: { id: string }[] };
    const mine = (list.body.notifications as AdminNote[]).filter((n) =>
      n.recipients.includes(member.auth.id),
    );
    expect(mine.map((n) => [n.title, n.origin, n.link])).toEqual([
      ['Chosen ones', 'broadcast', null],
      [MONEY_NOTIFICATIONS.balanceAdjustedTitle, 'system', '/user/dashboard'],
    ]);
    expect(mine[1]?.recipient_preview.map((r) => r.id)).toEqual([member.auth.id]);
  });
});
