import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_NOTIFICATIONS } from '../../src/shared/notifications.ts';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { type FakePushService, startFakePushService } from '../helpers/fake-push-service.ts';
import { expectBooksBalanced } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { accountCents, type Payee, payee, TX_HASH, withdrawalCode } from '../helpers/withdrawals.ts';

// PUT /withdrawalrequest/{id}, DELETE /withdrawalrequest/{id} and POST /withdrawalrequest/debit
// (issue 16, RULES.md "Withdrawals"): approve posts the holds (net to withdrawals paid, fee to fees),
// reject and cancel void them, each exactly once even when they race; the decision names the
// request's own amount and member (409 otherwise); the member is told in the app.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
let pushService: FakePushService;
beforeAll(async () => {
  smtp = await startSmtp();
  pushService = await startFakePushService();
  server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    TRUST_PROXY: '127.0.0.1',
    PUSH_ALLOW_LOOPBACK: 'true',
  });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await pushService?.stop();
});

const cents = (id: string) => accountCents(server.db, id);

/** A member with a pending income request of `amount` from a working balance of `funds`. */
async function pending(amount: string, funds = amount): Promise<{ p: Payee; id: string }> {
  const p = await payee(server, admin, smtp, { working: funds });
  const otp = await withdrawalCode(smtp, p);
  const res = await p.client.post('/withdrawalrequest/add', { amount, otp }, p.from);
  expect(res.status, res.text).toBe(201);
  return { p, id: res.body.withdrawal.id };
}

const decide = (id: string, body: Record<string, unknown>, url = `/withdrawalrequest/${id}`) =>
  admin.put(url, body);

describe('PUT /withdrawalrequest/{id}', () => {
  it('approves with the payout hash: net to withdrawals paid, fee to fees, once', async () => {
    const paidBefore = await cents('platform:withdrawals');
    const feesBefore = await cents('platform:fees');
    const { p, id } = await pending('200', '250');
    const body = {
      status: 'approved',
      amount: '200.00',
      user_id: p.id,
      tx_hash: TX_HASH.toUpperCase().replace('0X', '0x'),
    };

    const noHash = await decide(id, { ...body, tx_hash: undefined });
    expect(noHash.status).toBe(400);
    expect(noHash.body.errors).toEqual([{ field: 'tx_hash', message: M.txHashRequired }]);
    const badHash = await decide(id, { ...body, tx_hash: '0x1234' });
    expect(badHash.status).toBe(400);
    expect(badHash.body.errors).toEqual([{ field: 'tx_hash', message: M.txHashInvalid }]);
    const wrongAmount = await decide(id, { ...body, amount: '199.99' });
    expect(wrongAmount.status).toBe(409);
    expect(wrongAmount.body.message).toBe(M.mismatch);
    const other = await signedInMember(server.baseUrl);
    const wrongMember = await decide(id, { ...body, user_id: other.auth.id });
    expect(wrongMember.status).toBe(409);
    expect(wrongMember.body.message).toBe(M.mismatch);
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 25_000, held: 20_000, available: 5_000 });

    const ok = await decide(id, body);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.message).toBe(M.approved);
    expect(ok.body.withdrawal).toMatchObject({
      status: 'approved',
      tx_hash: TX_HASH,
      amount: '200.00',
      fee: '10.00',
      net_amount: '190.00',
    });
    expect(ok.body.withdrawal.decided_at).toEqual(expect.any(String));
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 5_000, held: 0, available: 5_000 });
    expect((await cents('platform:withdrawals')).balance - paidBefore.balance).toBe(19_000);
    expect((await cents('platform:fees')).balance - feesBefore.balance).toBe(1_000);

    const again = await decide(id, body);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.notPending);
    const reject = await decide(id, { ...body, status: 'rejected', reason: 'Too late' });
    expect(reject.status).toBe(409);
    expect((await p.client.request('DELETE', `/withdrawalrequest/${id}`)).status).toBe(409);
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 5_000, held: 0, available: 5_000 });

    // The member is told, in the app, with the amount sent and the transaction.
    const notes = (await p.client.get(`/notifications/user/${p.id}`)).body;
    const list = Array.isArray(notes) ? notes : (notes.notifications ?? notes.data ?? []);
    expect(list[0]).toMatchObject({
      title: MONEY_NOTIFICATIONS.withdrawalApprovedTitle,
      message: MONEY_NOTIFICATIONS.withdrawalApproved({ amount: '200.00', net: '190.00', txHash: TX_HASH }),
      link: '/user/withdrawal',
    });
    // The member's transactions show the paid withdrawal and its fee.
    const tx = await p.client.get(`/tr/user/${p.id}?transaction_type=withdrawal`);
    expect(tx.body.transactions).toEqual([
      expect.objectContaining({ transaction_type: 'withdrawal', amount: '190.00', status: 'completed' }),
    ]);
    // Written to the audit log, before and after.
    const audit = await admin.get('/audit?action=withdrawal.approve');
    expect(JSON.stringify(audit.body)).toContain(id);
    await expectBooksBalanced(admin);
  });

  it('rejects with a reason: the whole amount is available again', async () => {
    const { p, id } = await pending('50');
    const noReason = await decide(id, { status: 'rejected', amount: '50', user_id: p.id });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([{ field: 'reason', message: M.reasonRequired }]);
    const res = await decide(id, {
      status: 'rejected',
      amount: '50',
      user_id: p.id,
      reason: 'Address is wrong',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(M.rejected);
    expect(res.body.withdrawal).toMatchObject({
      status: 'rejected',
      reason: 'Address is wrong',
      tx_hash: null,
    });
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 5_000, held: 0, available: 5_000 });
    const notes = (await p.client.get(`/notifications/user/${p.id}`)).body;
    expect(JSON.stringify(notes)).toContain('Reason: Address is wrong');
    // No longer open: the member may ask again.
    const otp = await withdrawalCode(smtp, p);
    expect((await p.client.post('/withdrawalrequest/add', { amount: '50', otp }, p.from)).status).toBe(201);
  });

  it('pushes the decision to the member’s devices', async () => {
    const { p, id } = await pending('25');
    const device = pushService.subscription(`/send/withdrawal-${id}`);
    const subscribed = await p.client.post('/push/subscriptions', {
      endpoint: device.endpoint,
      keys: device.keys,
    });
    expect(subscribed.status, subscribed.text).toBe(201);
    const res = await decide(id, {
      status: 'rejected',
      amount: '25',
      user_id: p.id,
      reason: 'Please use BEP20',
    });
    expect(res.status).toBe(200);
    const message = await pushService.waitFor(`/send/withdrawal-${id}`);
    expect(JSON.parse(device.decrypt(message.body))).toMatchObject({
      title: MONEY_NOTIFICATIONS.withdrawalRejectedTitle,
      body: MONEY_NOTIFICATIONS.withdrawalRejected({ amount: '25.00', reason: 'Please use BEP20' }),
      url: '/user/withdrawal',
    });
  });

  it('lets the member cancel their own pending request, once', async () => {
    const { p, id } = await pending('30');
    const key = { 'Idempotency-Key': `cancel-${id}` };
    const res = await p.client.request('DELETE', `/withdrawalrequest/${id}`, { headers: key });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(M.cancelled);
    expect(res.body.withdrawal.status).toBe('cancelled');
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 3_000, held: 0, available: 3_000 });
    // A retry of the same cancel (its answer lost) gets the first answer; a new one is a 409.
    const retry = await p.client.request('DELETE', `/withdrawalrequest/${id}`, { headers: key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(res.body);
    expect((await p.client.request('DELETE', `/withdrawalrequest/${id}`)).status).toBe(409);
    const approve = await decide(id, { status: 'approved', amount: '30', user_id: p.id, tx_hash: TX_HASH });
    expect(approve.status).toBe(409);
    expect((await admin.request('DELETE', `/withdrawalrequest/${id}`)).status).toBe(403);
  });

  it('settles exactly once when approve, reject and cancel race', async () => {
    const paidBefore = (await cents('platform:withdrawals')).balance;
    let approvedNet = 0;
    for (let round = 0; round < 6; round++) {
      const { p, id } = await pending('100');
      const answers = await Promise.all([
        decide(id, { status: 'approved', amount: '100', user_id: p.id, tx_hash: TX_HASH }),
        decide(id, { status: 'rejected', amount: '100', user_id: p.id, reason: 'Racing reject' }),
        p.client.request('DELETE', `/withdrawalrequest/${id}`),
        decide(id, { status: 'approved', amount: '100', user_id: p.id, tx_hash: TX_HASH }),
      ]);
      const winners = answers.filter((a) => a.status === 200);
      expect(winners, answers.map((a) => `${a.status} ${a.text}`).join('\n')).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
      const status = (await p.client.get(`/withdrawalrequest/by/${id}`)).body.withdrawal.status;
      const working = await cents(`${p.id}:working`);
      if (status === 'approved') {
        approvedNet += 9_500;
        expect(working).toEqual({ balance: 0, held: 0, available: 0 });
      } else {
        expect(working).toEqual({ balance: 10_000, held: 0, available: 10_000 });
      }
    }
    expect((await cents('platform:withdrawals')).balance - paidBefore).toBe(approvedNet);
    await expectBooksBalanced(admin);
  });

  it('is for admins only, and answers a repeat under the same key from the stored result', async () => {
    const { p, id } = await pending('40');
    const body = { status: 'approved', amount: '40', user_id: p.id, tx_hash: TX_HASH };
    expect((await p.client.put(`/withdrawalrequest/${id}`, body)).status).toBe(403);
    expect((await p.client.get('/withdrawalrequest/list')).body.withdrawals).toHaveLength(1);
    expect((await decide('no-such-request', body)).status).toBe(404);
    // The kind-specific calls decide only their kind.
    expect((await decide(id, body, `/withdrawalrequest/update/roi/${id}`)).status).toBe(404);
    expect((await decide(id, body, `/withdrawalrequest/compound/${id}`)).status).toBe(404);
    const key = { 'Idempotency-Key': `decide-${id}` };
    const first = await admin.put(`/withdrawalrequest/${id}`, body, key);
    expect(first.status).toBe(200);
    const again = await admin.put(`/withdrawalrequest/${id}`, body, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const list = await admin.get('/withdrawalrequest/list?status=approved&kind=income');
    expect(list.body.withdrawals.some((w: { id: string }) => w.id === id)).toBe(true);
    expect(list.body.withdrawals.every((w: { status: string }) => w.status === 'approved')).toBe(true);
  });
});

describe('POST /withdrawalrequest/debit', () => {
  it('records a payout made outside a request, with its fee, for admins only', async () => {
    const p = await payee(server, admin, smtp, { working: '60.00' });
    const body = { user_id: p.id, amount: '40', tx_hash: TX_HASH, reason: 'Paid by support' };
    expect((await p.client.post('/withdrawalrequest/debit', body)).status).toBe(403);
    const badHash = await admin.post('/withdrawalrequest/debit', { ...body, tx_hash: '0xabc' });
    expect(badHash.status).toBe(400);
    expect(badHash.body.errors).toEqual([{ field: 'tx_hash', message: M.txHashInvalid }]);
    const noReason = await admin.post('/withdrawalrequest/debit', { ...body, reason: 'x' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([{ field: 'reason', message: M.reasonRequired }]);
    expect((await admin.get('/withdrawalrequest/list?status=paid')).status).toBe(400);
    const tooMuch = await admin.post('/withdrawalrequest/debit', { ...body, amount: '60.01' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe(M.insufficient);
    const res = await admin.post('/withdrawalrequest/debit', body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.withdrawal).toMatchObject({
      status: 'approved',
      amount: '40.00',
      fee: '2.00',
      net_amount: '38.00',
    });
    expect(await cents(`${p.id}:working`)).toEqual({ balance: 2_000, held: 0, available: 2_000 });
    await expectBooksBalanced(admin);
  });
});
