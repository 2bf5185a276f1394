import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/shared/constants.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { ApiClient, signedInMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// POST /admin/adjustments (API.md "Admin money adjustments"): support staff credit or debit a member's
// wallet with a reason. Every adjustment is a balanced ledger transfer and an audit-log row; a debit
// can never take a wallet below zero; bad input, the wrong caller or a missing CSRF token moves nothing.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.baseUrl);
  const res = await admin.signIn(ADMIN, '/auth/adminsignin');
  adminId = res.body.admin.id;
  expect(adminId).toEqual(expect.any(String));
});
afterAll(async () => server?.stop());

type Body = Record<string, unknown>;
const adjust = (body: Body, client: ApiClient = admin) => client.post('/admin/adjustments', body);

const balanceOf = async (client: ApiClient) => {
  const res = await client.get('/wallet/balance');
  expect(res.status).toBe(200);
  const { business, working } = res.body as { business: string; working: string };
  return { business, working };
};

/** Everything an adjustment could change: rows in the ledger and the audit log, and every account's balance. */
const snapshot = async () => ({
  transfers: await server.db.selectFrom('ledger_transfers').selectAll().orderBy('id').execute(),
  accounts: await server.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents', 'held_cents'])
    .orderBy('id')
    .execute(),
  audit: await server.db.selectFrom('audit_log').selectAll().orderBy('id').execute(),
});

const reconciliation = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  return res.body;
};

describe('POST /admin/adjustments', () => {
  it('credits and debits a member wallet, shown by /wallet/balance and /auth/session, each audited', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const reason = 'Manual deposit confirmed by support';

    const credit = await adjust({
      user_id: auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: '125.50',
      reason,
    });
    expect(credit.status).toBe(201);
    expect(credit.body).toEqual({
      message: WALLET_MESSAGES.adjusted,
      transfer: {
        id: expect.any(String),
        kind: 'adjustment',
        amount: '125.50',
        debit_account: 'platform:adjustments',
        credit_account: `${auth.id}:business`,
        description: reason,
        created_at: expect.any(String),
      },
    });
    expect(await balanceOf(client)).toEqual({ business: '125.50', working: '0.00' });
    const session = await client.get('/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.auth.balance).toEqual({ business: '125.50', working: '0.00' });

    const debit = await adjust({
      user_id: auth.id,
      wallet: 'business',
      direction: 'debit',
      amount: '25.50',
      reason: 'Duplicate credit reversed',
    });
    expect(debit.status).toBe(201);
    expect(debit.body.transfer).toMatchObject({
      amount: '25.50',
      kind: 'adjustment',
      debit_account: `${auth.id}:business`,
      credit_account: 'platform:adjustments',
    });
    expect(debit.body.transfer.id).not.toBe(credit.body.transfer.id);
    expect(await balanceOf(client)).toEqual({ business: '100.00', working: '0.00' });
    expect((await client.get('/auth/session')).body.auth.balance).toEqual({
      business: '100.00',
      working: '0.00',
    });

    const rows = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', auth.id)
      .execute();
    expect(rows).toHaveLength(2);
    const first = rows.find((r) => r.action === 'wallet.credit');
    const second = rows.find((r) => r.action === 'wallet.debit');
    expect(first).toMatchObject({
      actor_id: adminId,
      target_id: auth.id,
      target_type: 'user',
      action: 'wallet.credit',
      reason,
    });
    expect(JSON.parse(String(first?.before_json))).toEqual({ business: '0.00', working: '0.00' });
    expect(JSON.parse(String(first?.after_json))).toEqual({ business: '125.50', working: '0.00' });
    expect(second).toMatchObject({
      actor_id: adminId,
      target_id: auth.id,
      action: 'wallet.debit',
      reason: 'Duplicate credit reversed',
    });
    expect(JSON.parse(String(second?.before_json))).toEqual({ business: '125.50', working: '0.00' });
    expect(JSON.parse(String(second?.after_json))).toEqual({ business: '100.00', working: '0.00' });

    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });

  it('refuses a debit beyond the balance with 422 and changes nothing', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const base = { user_id: auth.id, wallet: 'working', reason: 'Support correction' };
    expect((await adjust({ ...base, direction: 'credit', amount: '40.00' })).status).toBe(201);
    const before = await snapshot();

    const over = await adjust({ ...base, direction: 'debit', amount: '40.01' });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ message: WALLET_MESSAGES.insufficient });
    // Nor may the other wallet's money cover it.
    const other = await adjust({ ...base, wallet: 'business', direction: 'debit', amount: '0.01' });
    expect(other.status).toBe(422);

    expect(await snapshot()).toEqual(before);
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '40.00' });

    // Exactly the whole balance is allowed, and leaves zero.
    expect((await adjust({ ...base, direction: 'debit', amount: '40' })).status).toBe(201);
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '0.00' });
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00' });
  });

  it('accepts the amount as a number or a decimal string', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const base = { user_id: auth.id, wallet: 'business', direction: 'credit', reason: 'Top-up by hand' };
    const asNumber = await adjust({ ...base, amount: 10 });
    expect(asNumber.status).toBe(201);
    expect(asNumber.body.transfer.amount).toBe('10.00');
    const asString = await adjust({ ...base, amount: '10.5' });
    expect(asString.status).toBe(201);
    expect(asString.body.transfer.amount).toBe('10.50');
    const asDecimalNumber = await adjust({ ...base, amount: 0.07 });
    expect(asDecimalNumber.status).toBe(201);
    expect(asDecimalNumber.body.transfer.amount).toBe('0.07');
    expect(await balanceOf(client)).toEqual({ business: '20.57', working: '0.00' });
  });

  it('answers bad input with 400 naming the field, and changes nothing', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const valid = {
      user_id: auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: '5.00',
      reason: 'Valid reason',
    };
    const cases: [Body, string, string | undefined][] = [
      [{ ...valid, amount: '' }, 'amount', WALLET_MESSAGES.amountRequired],
      [{ ...valid, amount: '   ' }, 'amount', WALLET_MESSAGES.amountRequired],
      [{ ...valid, amount: 'abc' }, 'amount', WALLET_MESSAGES.amountInvalid],
      [{ ...valid, amount: '0' }, 'amount', WALLET_MESSAGES.amountPositive],
      [{ ...valid, amount: 0 }, 'amount', WALLET_MESSAGES.amountPositive],
      [{ ...valid, amount: '-5' }, 'amount', WALLET_MESSAGES.amountPositive],
      [{ ...valid, amount: -5 }, 'amount', WALLET_MESSAGES.amountPositive],
      [{ ...valid, amount: '1.234' }, 'amount', undefined],
      [{ ...valid, amount: 1.234 }, 'amount', undefined],
      [{ ...valid, amount: '1e3' }, 'amount', undefined],
      [{ ...valid, amount: 'Infinity' }, 'amount', undefined],
      [{ ...valid, amount: null }, 'amount', undefined],
      [{ ...valid, amount: undefined }, 'amount', undefined],
      [{ ...valid, wallet: 'savings' }, 'wallet', WALLET_MESSAGES.walletInvalid],
      [{ ...valid, wallet: undefined }, 'wallet', undefined],
      [{ ...valid, direction: 'steal' }, 'direction', WALLET_MESSAGES.directionInvalid],
      [{ ...valid, reason: 'ab' }, 'reason', WALLET_MESSAGES.reasonLength],
      [{ ...valid, reason: '   ab   ' }, 'reason', WALLET_MESSAGES.reasonLength],
      [{ ...valid, reason: 'x'.repeat(501) }, 'reason', WALLET_MESSAGES.reasonLength],
      [{ ...valid, reason: undefined }, 'reason', WALLET_MESSAGES.reasonLength],
      [{ ...valid, user_id: undefined }, 'user_id', undefined],
      [{ ...valid, user_id: '' }, 'user_id', undefined],
    ];
    const before = await snapshot();
    for (const [body, field, message] of cases) {
      const res = await adjust(body);
      const label = JSON.stringify(body);
      expect(res.status, label).toBe(400);
      expect(res.body.message, label).toEqual(expect.any(String));
      const errors = res.body.errors as { field: string; message: string }[];
      expect(
        errors.map((e) => e.field),
        label,
      ).toContain(field);
      if (message) expect(errors.find((e) => e.field === field)?.message, label).toBe(message);
    }
    expect(await snapshot()).toEqual(before);
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '0.00' });

    // The limits themselves are allowed: a 3- and a 500-character reason.
    expect((await adjust({ ...valid, reason: 'abc' })).status).toBe(201);
    expect((await adjust({ ...valid, reason: 'y'.repeat(500) })).status).toBe(201);
    expect(await balanceOf(client)).toEqual({ business: '10.00', working: '0.00' });
  });

  it('answers 404 for an unknown user and for an admin (only members have wallets)', async () => {
    const before = await snapshot();
    const body = { wallet: 'business', direction: 'credit', amount: '5.00', reason: 'Who is this' };
    const unknown = await adjust({ ...body, user_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toEqual(expect.any(String));
    const self = await adjust({ ...body, user_id: adminId });
    expect(self.status).toBe(404);
    const platform = await adjust({ ...body, user_id: 'platform:adjustments' });
    expect(platform.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses members (403), the signed-out (401) and a call without CSRF token (403), moving nothing', async () => {
    const { client, auth } = await signedInMember(server.baseUrl);
    const body = {
      user_id: auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: '1000.00',
      reason: 'Give me money',
    };
    const before = await snapshot();

    const asMember = await adjust(body, client);
    expect(asMember.status).toBe(403);
    expect(asMember.body).toEqual({ message: GENERIC.forbidden });

    const signedOut = await adjust(body, new ApiClient(server.baseUrl));
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toEqual({ message: GENERIC.notSignedIn });

    const noCsrf = await admin.request('POST', '/admin/adjustments', { body, csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ message: GENERIC.csrf, error: 'csrf' });
    const wrongCsrf = await admin.request('POST', '/admin/adjustments', {
      body,
      csrf: false,
      headers: { [CSRF_HEADER]: 'forged-token' },
    });
    expect(wrongCsrf.status).toBe(403);

    expect(await snapshot()).toEqual(before);
    expect(await balanceOf(client)).toEqual({ business: '0.00', working: '0.00' });
    // The admin's session still works: the refusals above were about the token, not the session.
    expect((await adjust({ ...body, amount: '1.00', reason: 'Control' })).status).toBe(201);
  });
});
