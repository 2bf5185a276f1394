import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.ts';
import type { NeedsAction } from '../../src/shared/needs-action.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { backdate, buy, createPlan, member, runDate, today } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { credit, payee, TX_HASH, withdrawalCode } from '../helpers/withdrawals.ts';

// The admin dashboard's "Needs action" (GET /admin/needs-action, docs/rules.md "Admin dashboard"):
// each kind of waiting item is made through the real API, its count (and money) goes up, an admin
// decides it through the API and the count comes down. One server for the file, so every check is
// against the figures read just before. Runs on SQLite and on PostgreSQL.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    // Slow enough that a mail waiting for its retry can be seen, fast enough to fail in a few seconds.
    MAIL_RETRY_BASE_MS: '300',
    TRUST_PROXY: '127.0.0.1',
  });
  admin = await signedInAdminClient(server.baseUrl);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function figures(): Promise<NeedsAction> {
  const res = await admin.get('/admin/needs-action');
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Adds dollars given as API decimal strings, in cents. */
const plus = (a: string, b: string) => {
  const cents = Math.round(Number(a) * 100) + Math.round(Number(b) * 100);
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
};

describe('GET /admin/needs-action', () => {
  it('answers 401 signed out and 403 to a member', async () => {
    expect((await new ApiClient(server.baseUrl).get('/admin/needs-action')).status).toBe(401);
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.get('/admin/needs-action');
    expect(res.status).toBe(403);
    expect(res.body.withdrawals).toBeUndefined();
  });

  it('says nothing waits on a new platform: zero counts, "0.00", no oldest item', async () => {
    const now = Date.now();
    const body = await figures();
    const none = { count: 0, oldest_at: null };
    const noMoney = { ...none, amount: '0.00' };
    expect(body).toEqual({
      withdrawals: noMoney,
      roi_withdrawals: noMoney,
      manual_deposits: noMoney,
      web3_deposits: noMoney,
      transfers_on_hold: noMoney,
      tickets_open: none,
      tickets_in_progress: none,
      mails_failed: none,
      mails_retrying: none,
      income_runs: { count: 0, oldest_date: null },
      salary_runs: { count: 0, oldest_month: null },
      as_of: expect.any(String),
    });
    expect(Math.abs(Date.parse(body.as_of) - now)).toBeLessThan(60_000);
  });
});

describe('counts what waits and drops it once decided', () => {
  it('an income withdrawal request: pending until an admin rejects it', async () => {
    const before = await figures();
    const p = await payee(server, admin, smtp, { working: '250' });
    const otp = await withdrawalCode(smtp, p);
    const res = await p.client.post('/withdrawalrequest/add', { amount: '200.50', otp }, p.from);
    expect(res.status, res.text).toBe(201);
    const waiting = await figures();
    expect(waiting.withdrawals).toEqual({
      count: before.withdrawals.count + 1,
      amount: plus(before.withdrawals.amount, '200.50'),
      oldest_at: before.withdrawals.oldest_at ?? res.body.withdrawal.created_at,
    });
    expect(waiting.roi_withdrawals).toEqual(before.roi_withdrawals);

    const decided = await admin.put(`/withdrawalrequest/${res.body.withdrawal.id}`, {
      status: 'rejected',
      amount: '200.50',
      user_id: p.id,
      reason: 'Address does not match our records',
    });
    expect(decided.status, decided.text).toBe(200);
    expect((await figures()).withdrawals).toEqual(before.withdrawals);
  });

  it('an ROI withdrawal request, counted apart from income ones, until an admin approves it', async () => {
    const p = await payee(server, admin, smtp);
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    await credit(admin, p.id, '1000', 'business');
    const bought = await p.client.post('/topup/add', { plan_id: planId, amount: '1000' });
    expect(bought.status, bought.text).toBe(201);
    const topupId = bought.body.topup.id;
    const first = await backdate(server, topupId, 2);
    for (let date = first; date < today(); date = addDays(date, 1))
      expect((await runDate(admin, date)).status).toBe(200);

    const before = await figures();
    const otp = await withdrawalCode(smtp, p);
    const res = await p.client.post(
      '/withdrawalrequest/add/roiwithdrawal',
      { amount: '15', otp, topup_id: topupId },
      p.from,
    );
    expect(res.status, res.text).toBe(201);
    const waiting = await figures();
    expect(waiting.roi_withdrawals.count).toBe(before.roi_withdrawals.count + 1);
    expect(waiting.roi_withdrawals.amount).toBe(plus(before.roi_withdrawals.amount, '15.00'));
    expect(waiting.withdrawals).toEqual(before.withdrawals);

    const approved = await admin.put(`/withdrawalrequest/update/roi/${res.body.withdrawal.id}`, {
      status: 'approved',
      amount: '15',
      user_id: p.id,
      tx_hash: TX_HASH,
    });
    expect(approved.status, approved.text).toBe(200);
    expect((await figures()).roi_withdrawals).toEqual(before.roi_withdrawals);
  });

  it('a manual deposit pending review, until an admin rejects it', async () => {
    const before = await figures();
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.post('/deposite/add', {
      amount: '125.50',
      tx_hash: `0x${randomBytes(32).toString('hex')}`,
    });
    expect(res.status, res.text).toBe(201);
    const deposit = res.body.deposit;
    const waiting = await figures();
    expect(waiting.manual_deposits).toEqual({
      count: before.manual_deposits.count + 1,
      amount: plus(before.manual_deposits.amount, '125.50'),
      oldest_at: before.manual_deposits.oldest_at ?? deposit.created_at,
    });

    const decided = await admin.put(`/deposite/${deposit.id}`, {
      status: 'rejected',
      amount: deposit.amount,
      user_id: deposit.user_id,
      reason: 'Not received on chain',
    });
    expect(decided.status, decided.text).toBe(200);
    expect((await figures()).manual_deposits).toEqual(before.manual_deposits);
  });

  it('an on-chain deposit awaiting an admin (no RPC here), until an admin approves it', async () => {
    const before = await figures();
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.post('/web3/deposits', {
      chain_id: 56,
      tx_hash: `0x${randomBytes(32).toString('hex')}`,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.deposit).toMatchObject({ status: 'awaiting_admin', amount: null });
    const waiting = await figures();
    expect(waiting.web3_deposits.count).toBe(before.web3_deposits.count + 1);
    // The chain showed no amount, so no money is counted as waiting for it.
    expect(waiting.web3_deposits.amount).toBe(before.web3_deposits.amount);
    expect(waiting.web3_deposits.oldest_at).toBe(
      before.web3_deposits.oldest_at ?? res.body.deposit.created_at,
    );

    const approved = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '25.50' });
    expect(approved.status, approved.text).toBe(200);
    expect((await figures()).web3_deposits).toEqual(before.web3_deposits);
  });

  it('a transfer held for review, until an admin rejects it', async () => {
    const before = await figures();
    const sender = await fundedMember(server.baseUrl, admin, { business: '6000' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const res = await sender.client.post('/transfer/touser', {
      userto_id: recipient.auth.id,
      user_id: sender.auth.id,
      amount: '5000',
      from: 'business',
      to: 'business',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.transfer.status).toBe('pending');
    const waiting = await figures();
    expect(waiting.transfers_on_hold).toEqual({
      count: before.transfers_on_hold.count + 1,
      amount: plus(before.transfers_on_hold.amount, '5000.00'),
      oldest_at: before.transfers_on_hold.oldest_at ?? res.body.transfer.created_at,
    });

    const decided = await admin.put(`/transfer/${res.body.transfer.id}/status`, { status: 'failed' });
    expect(decided.status, decided.text).toBe(200);
    expect((await figures()).transfers_on_hold).toEqual(before.transfers_on_hold);
  });

  it('a ticket: open, in progress once support answers, neither once resolved', async () => {
    const before = await figures();
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.post('/tickets', {
      subject: 'My deposit has not arrived',
      category: 'deposit',
      message: 'I paid 100 USDT an hour ago and my Active Wallet still shows 0.',
    });
    expect(res.status, res.text).toBe(201);
    const ticketId = res.body.ticket.ticket_id;
    const opened = await figures();
    expect(opened.tickets_open.count).toBe(before.tickets_open.count + 1);
    expect(opened.tickets_in_progress).toEqual(before.tickets_in_progress);

    const answer = await admin.post(`/tickets/${ticketId}/responses`, { message: 'We are looking into it.' });
    expect(answer.status, answer.text).toBe(201);
    const answered = await figures();
    expect(answered.tickets_open).toEqual(before.tickets_open);
    expect(answered.tickets_in_progress.count).toBe(before.tickets_in_progress.count + 1);

    const resolved = await admin.put(`/tickets/${ticketId}/status`, { status: 'resolved' });
    expect(resolved.status, resolved.text).toBe(200);
    const after = await figures();
    expect(after.tickets_open).toEqual(before.tickets_open);
    expect(after.tickets_in_progress).toEqual(before.tickets_in_progress);
  });

  it('a mail the relay refused is counted as retrying until it goes out', async () => {
    const before = await figures();
    const { member: m } = await signedInMember(server.baseUrl);
    smtp.refuse(1);
    try {
      expect((await new ApiClient(server.baseUrl).post('/pass/forget', { email: m.email })).status).toBe(200);
      await expect
        .poll(async () => (await figures()).mails_retrying.count)
        .toBe(before.mails_retrying.count + 1);
      await smtp.waitFor(m.email);
    } finally {
      smtp.refuse(0);
    }
    await expect.poll(async () => (await figures()).mails_retrying).toEqual(before.mails_retrying);
    expect((await figures()).mails_failed).toEqual(before.mails_failed);
  });

  it('a mail refused on every try is counted as failed until an admin sends it again', async () => {
    const before = await figures();
    const { member: m } = await signedInMember(server.baseUrl);
    smtp.refuse(Number.POSITIVE_INFINITY);
    try {
      expect((await new ApiClient(server.baseUrl).post('/pass/forget', { email: m.email })).status).toBe(200);
      await expect
        .poll(async () => (await figures()).mails_failed.count, { timeout: 15_000 })
        .toBe(before.mails_failed.count + 1);
    } finally {
      smtp.refuse(0);
    }
    const failed = await figures();
    expect(failed.mails_retrying).toEqual(before.mails_retrying);
    expect(failed.mails_failed.oldest_at).toEqual(expect.any(String));

    const [mail] = (await admin.get(`/admin/mail/outbox?status=failed&to=${encodeURIComponent(m.email)}`))
      .body.mails;
    const resent = await admin.post(`/admin/mail/${mail.id}/resend`);
    expect(resent.status, resent.text).toBe(200);
    // Out of the failed count at once (pending again, tries afresh).
    expect((await figures()).mails_failed).toEqual(before.mails_failed);
    await smtp.waitFor(m.email);
    // The relay has it as soon as the worker sent it; the worker marks it sent a moment later (until
    // then the claimed mail, pending with a try and the old error, counts as being retried).
    await expect
      .poll(async () => {
        const { mails_failed, mails_retrying } = await figures();
        return { mails_failed, mails_retrying };
      })
      .toEqual({ mails_failed: before.mails_failed, mails_retrying: before.mails_retrying });
  });

  it('a failed income run for a date, until the date is run again and completes', async () => {
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    const owner = await member(server, admin, undefined, { business: '100' });
    await buy(owner, planId, '100');
    // A fault in the database while the run pays ROI (as tests/api/income-run.test.ts does).
    const postgres = process.env.TEST_DIALECT === 'postgres';
    if (postgres) {
      await sql
        .raw(`create function fail_roi() returns trigger language plpgsql as $$ begin
          raise exception 'simulated disk fault'; end $$`)
        .execute(server.db);
      await sql`create trigger fail_roi before insert on roi_payments for each row execute function fail_roi()`.execute(
        server.db,
      );
    } else {
      await sql
        .raw(`create trigger fail_roi before insert on roi_payments
          begin select raise(abort, 'simulated disk fault'); end`)
        .execute(server.db);
    }
    const before = await figures();
    try {
      expect((await runDate(admin, today())).status).toBe(500);
    } finally {
      await sql`drop trigger fail_roi ${sql.raw(postgres ? 'on roi_payments' : '')}`.execute(server.db);
    }
    const failed = await figures();
    expect(failed.income_runs).toEqual({ count: before.income_runs.count + 1, oldest_date: today() });

    expect((await runDate(admin, today())).status).toBe(200);
    expect((await figures()).income_runs).toEqual(before.income_runs);
  });
});
