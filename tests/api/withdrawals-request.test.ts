import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../../src/shared/account.ts';
import { PROFILE } from '../../src/shared/profile.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { expectBooksBalanced } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import {
  accountCents,
  PAYOUT_BEP20,
  type Payee,
  payee,
  pendingCount,
  withdrawalCode,
} from '../helpers/withdrawals.ts';

// POST /withdrawalrequest/add and GET /withdrawalrequest/options, list, by/{id} (issue 16, RULES.md
// "Withdrawals", API.md "Withdrawals"): a request holds its whole amount at once; every refusal (the
// minimum, verified e-mail, a saved address, an address saved less than 24 hours ago, one open request,
// the balance, the code) holds nothing. The e-mailed code is checked and used up with the hold.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50', TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const working = (p: Payee) => accountCents(server.db, `${p.id}:working`);
const ask = (p: Payee, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  p.client.post('/withdrawalrequest/add', body, { ...p.from, ...headers });

/** Nothing held and no request: what every refusal must leave. */
async function expectNothingHeld(p: Payee, balanceCents: number) {
  expect(await working(p)).toEqual({ balance: balanceCents, held: 0, available: balanceCents });
  expect(await pendingCount(server.db, p.id)).toBe(0);
}

describe('GET /withdrawalrequest/options', () => {
  it('shows what the member can withdraw, the limits, e-mail and address state', async () => {
    const p = await payee(server, admin, smtp, { working: '120.50' });
    const res = await p.client.get('/withdrawalrequest/options');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      working_available: '120.50',
      minimum: '10.00',
      fee_percent: '5.00',
      email_verified: true,
      open_request: null,
      investments: [],
    });
    expect(res.body.addresses).toEqual([
      { network: 'bep20', address: PAYOUT_BEP20, usable_from: expect.any(String) },
    ]);
    expect(Date.parse(res.body.addresses[0].usable_from)).toBeLessThanOrEqual(Date.now());
    expect((await admin.get('/withdrawalrequest/options')).status).toBe(403);
  });
});

describe('POST /withdrawalrequest/add', () => {
  it('holds the whole amount at once and answers the request with its fee and net amount', async () => {
    const p = await payee(server, admin, smtp, { working: '150.00' });
    const otp = await withdrawalCode(smtp, p);
    const res = await ask(p, { amount: '100', otp });
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe(M.requested);
    expect(res.body.withdrawal).toMatchObject({
      user_id: p.id,
      kind: 'income',
      amount: '100.00',
      fee: '5.00',
      net_amount: '95.00',
      address: PAYOUT_BEP20,
      network: 'bep20',
      status: 'pending',
      tx_hash: null,
      decided_at: null,
      email_verified: true,
    });
    expect(await working(p)).toEqual({ balance: 15_000, held: 10_000, available: 5_000 });
    expect((await p.client.get('/wallet/balance')).body.working).toBe('50.00');

    // Held money cannot be spent elsewhere: a debit of the rest plus one cent is refused.
    const debit = await admin.post('/admin/adjustments', {
      user_id: p.id,
      wallet: 'working',
      direction: 'debit',
      amount: '50.01',
      reason: 'Spend held money',
    });
    expect(debit.status).toBe(422);
    expect(debit.body.message).toBe(WALLET_MESSAGES.insufficient);

    // One open request per member, refused before the code is even looked at.
    const second = await ask(p, { amount: '10', otp });
    expect(second.status).toBe(422);
    expect(second.body.message).toBe(M.openRequest);

    const list = await p.client.get('/withdrawalrequest/list');
    expect(list.body.withdrawals.map((w: { id: string }) => w.id)).toEqual([res.body.withdrawal.id]);
    const one = await p.client.get(`/withdrawalrequest/by/${res.body.withdrawal.id}`);
    expect(one.body).toEqual({ withdrawal: res.body.withdrawal });
    expect((await p.client.get('/withdrawalrequest/options')).body.open_request).toBe(res.body.withdrawal.id);
    await expectBooksBalanced(admin);
  });

  it('refuses each rule with a clear message and holds nothing', async () => {
    const p = await payee(server, admin, smtp, { working: '50.00' });
    const otp = await withdrawalCode(smtp, p);

    const under = await ask(p, { amount: '9.99', otp });
    expect(under.status).toBe(400);
    expect(under.body.errors).toEqual([{ field: 'amount', message: M.minimum('10.00') }]);
    const over = await ask(p, { amount: '50.01', otp });
    expect(over.status).toBe(422);
    expect(over.body.message).toBe(M.insufficient);
    const bad = await ask(p, { amount: 'ten', otp });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ field: 'amount', message: WALLET_MESSAGES.amountInvalid });
    const noCode = await ask(p, { amount: '20' });
    expect(noCode.status).toBe(400);
    expect(noCode.body.errors[0].field).toBe('otp');
    await expectNothingHeld(p, 5_000);

    // The refused requests did not use the code up: it still works.
    expect((await ask(p, { amount: '50', otp })).status).toBe(201);
  });

  it('needs a verified e-mail and a saved payout address', async () => {
    const unverified = await payee(server, admin, smtp, { working: '50.00', verified: false });
    const r1 = await ask(unverified, { amount: '20', otp: '123456' });
    expect(r1.status).toBe(422);
    expect(r1.body.message).toBe(M.emailUnverified);
    await expectNothingHeld(unverified, 5_000);

    const noAddress = await payee(server, admin, smtp, { working: '50.00', address: false });
    const otp = await withdrawalCode(smtp, noAddress);
    const r2 = await ask(noAddress, { amount: '20', otp });
    expect(r2.status).toBe(422);
    expect(r2.body.message).toBe(M.noAddress);
    const r3 = await ask(noAddress, { amount: '20', otp, network: 'trc20' });
    expect(r3.status).toBe(422);
    expect(r3.body.message).toBe(M.networkNotSet);
    await expectNothingHeld(noAddress, 5_000);
  });

  it('refuses an address the member saved less than 24 hours ago', async () => {
    const p = await payee(server, admin, smtp, { working: '50.00', address: false });
    const addressCode = await withdrawalCode(smtp, p, 'address');
    const saved = await p.client.put('/profile', { bep20: PAYOUT_BEP20, otp: addressCode }, p.from);
    expect(saved.status, saved.text).toBe(200);
    const otp = await withdrawalCode(smtp, p);
    const res = await ask(p, { amount: '20', otp });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(
      /^Your payout address was changed recently: withdrawals can use it from \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    await expectNothingHeld(p, 5_000);
    const options = (await p.client.get('/withdrawalrequest/options')).body;
    expect(Date.parse(options.addresses[0].usable_from)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  });

  it('counts a wrong code against its tries, refuses an address code, and uses a right code once', async () => {
    const p = await payee(server, admin, smtp, { working: '80.00' });
    const addressCode = await withdrawalCode(smtp, p, 'address');
    const otp = await withdrawalCode(smtp, p);
    // A code for changing an address is not a withdrawal code (unless by chance they are equal).
    if (addressCode !== otp) {
      const wrongPurpose = await ask(p, { amount: '20', otp: addressCode });
      expect(wrongPurpose.status).toBe(400);
      expect(wrongPurpose.body.errors).toEqual([{ field: 'otp', message: ACCOUNT.codeWrong }]);
    }
    const wrong = otp === '000000' ? '000001' : '000000';
    const tries = addressCode !== otp ? 4 : 5;
    for (let i = 0; i < tries; i += 1) {
      const res = await ask(p, { amount: '20', otp: wrong });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'otp', message: ACCOUNT.codeWrong }]);
    }
    // Five wrong tries: even the right code is refused now; a new code works.
    const locked = await ask(p, { amount: '20', otp });
    expect(locked.status).toBe(400);
    expect(locked.body.errors).toEqual([{ field: 'otp', message: ACCOUNT.codeTooManyTries }]);
    await expectNothingHeld(p, 8_000);

    const fresh = await withdrawalCode(smtp, p);
    const ok = await ask(p, { amount: '20', otp: fresh });
    expect(ok.status, ok.text).toBe(201);
    // Cancelled, so the next request is not refused for the open one: the code is used up.
    expect((await p.client.request('DELETE', `/withdrawalrequest/${ok.body.withdrawal.id}`)).status).toBe(
      200,
    );
    const reuse = await ask(p, { amount: '20', otp: fresh });
    expect(reuse.status).toBe(400);
    expect(reuse.body.errors).toEqual([{ field: 'otp', message: PROFILE.codeUsed }]);
    await expectNothingHeld(p, 8_000);
  });

  it('answers a repeat under the same Idempotency-Key from the stored result, once', async () => {
    const p = await payee(server, admin, smtp, { working: '100.00' });
    const otp = await withdrawalCode(smtp, p);
    const key = { 'Idempotency-Key': `withdraw-${p.id}` };
    const first = await ask(p, { amount: '40', otp }, key);
    expect(first.status, first.text).toBe(201);
    const again = await ask(p, { amount: '40', otp }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await working(p)).toEqual({ balance: 10_000, held: 4_000, available: 6_000 });
    const other = await ask(p, { amount: '41', otp }, key);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(WALLET_MESSAGES.idempotencyReused);
  });

  it('takes exactly one of 10 parallel requests of 100 from a balance of 100', async () => {
    const p = await payee(server, admin, smtp, { working: '100.00' });
    const otp = await withdrawalCode(smtp, p);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ask(p, { amount: '100', otp }, { 'Idempotency-Key': `par-${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // The others: the code already used, or the open request, or the money already held.
    expect(statuses.every((s) => s === 201 || s === 400 || s === 422)).toBe(true);
    expect(await pendingCount(server.db, p.id)).toBe(1);
    expect(await working(p)).toEqual({ balance: 10_000, held: 10_000, available: 0 });
    expect((await p.client.get('/wallet/balance')).body.working).toBe('0.00');
    await expectBooksBalanced(admin);
  });

  it('keeps members apart: another member’s request is a 404, admins do not request', async () => {
    const p = await payee(server, admin, smtp, { working: '30.00' });
    const other = await payee(server, admin, smtp);
    const otp = await withdrawalCode(smtp, p);
    const res = await ask(p, { amount: '30', otp });
    expect(res.status).toBe(201);
    const id = res.body.withdrawal.id;
    expect((await other.client.get(`/withdrawalrequest/by/${id}`)).status).toBe(404);
    expect((await other.client.get('/withdrawalrequest/list')).body.withdrawals).toEqual([]);
    expect((await other.client.request('DELETE', `/withdrawalrequest/${id}`)).status).toBe(404);
    expect((await admin.post('/withdrawalrequest/add', { amount: '30', otp })).status).toBe(403);
    expect((await p.client.get('/withdrawalrequest/by/no-such-id')).status).toBe(404);
    const adminView = await admin.get(`/withdrawalrequest/by/${id}`);
    expect(adminView.status).toBe(200);
    expect(adminView.body.member).toMatchObject({ income_total: '0.00', withdrawn_total: '0.00' });
  });
});
