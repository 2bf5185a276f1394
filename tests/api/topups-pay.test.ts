import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPUP_MESSAGES } from '../../src/shared/topups.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { ApiClient, newMember, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// POST /topup/add, /topup/entry, /topup/addretopup, GET /topup/list and /topup/by/{id} (API.md "Plans,
// top-ups and income"; RULES.md "Plans, top-ups and activation"): the amount leaves the payer's Active
// Wallet and sits in the beneficiary's invested account; the first top-up makes the beneficiary active.
// Activation income is off here (an empty list), so only the purchase moves money; see
// topups-activation-income.test.ts for the uplines.

let server: TestServer;
let admin: ApiClient;
let plan: { id: string; name: string };
beforeAll(async () => {
  // Each member registers from an address of its own (through the trusted loopback proxy), so the
  // per-address registration limit is not what these tests meet.
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  expect((await admin.post('/plans/addactivelevel', { percents: [] })).status).toBe(200);
  const res = await admin.post('/plans/add', {
    name: 'Silver',
    min_amount: '10',
    max_amount: '500',
    roi_percent: '1.5',
    duration_days: 100,
  });
  expect(res.status).toBe(201);
  plan = res.body.plan;
});
afterAll(async () => server?.stop());

let addresses = 0;
/** A registered, signed-in member (not activated) whose Active Wallet an admin credited. */
async function memberWith(business: string) {
  addresses += 1;
  const from = { 'x-forwarded-for': `198.51.100.${addresses}` };
  const body = newMember();
  const client = new ApiClient(server.baseUrl);
  expect((await client.post('/auth/register', body, from)).status).toBe(201);
  const signedIn = await client.post('/auth/signin', { email: body.email, password: body.password }, from);
  expect(signedIn.status).toBe(200);
  const member = { client, auth: signedIn.body.auth };
  if (business !== '0') {
    const res = await admin.post('/admin/adjustments', {
      user_id: member.auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: business,
      reason: 'Test funding',
    });
    expect(res.status).toBe(201);
  }
  return member;
}

const balanceOf = async (client: ApiClient) => {
  const { business, working } = (await client.get('/wallet/balance')).body as Record<string, string>;
  return { business, working };
};
const investedOf = async (userId: string) => {
  const row = await server.db
    .selectFrom('ledger_accounts')
    .select('balance_cents')
    .where('id', '=', `${userId}:invested`)
    .executeTakeFirst();
  return row ? Number(row.balance_cents) : 0;
};
const reconciliation = async () => (await admin.get('/ledger/reconciliation')).body;
const snapshot = async () => ({
  transfers: await server.db.selectFrom('ledger_transfers').select(['id']).orderBy('id').execute(),
  accounts: await server.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents'])
    .orderBy('id')
    .execute(),
  topups: await server.db.selectFrom('topups').select(['id']).orderBy('id').execute(),
  users: await server.db
    .selectFrom('users')
    .select(['id', 'is_active', 'activation_date'])
    .orderBy('id')
    .execute(),
});

describe('POST /topup/add', () => {
  it('moves exactly the amount from business to invested, and the first top-up makes the member active', async () => {
    const { client, auth } = await memberWith('100');
    expect(auth.is_active).toBe('inactive');
    const res = await client.post('/topup/add', { plan_id: plan.id, amount: '40.25' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: TOPUP_MESSAGES.created,
      topup: {
        id: expect.any(String),
        user_id: auth.id,
        userby_id: auth.id,
        plan_id: plan.id,
        amount: '40.25',
        roi_paid: '0.00',
        status: 'active',
        created_at: expect.any(String),
        type: 'topup',
        plan_name: 'Silver',
        roi_percent: '1.50',
        duration_days: 100,
        user_name: auth.fullname,
        user_username: auth.username,
        userby_name: auth.fullname,
        userby_username: auth.username,
      },
    });
    expect(await balanceOf(client)).toEqual({ business: '59.75', working: '0.00' });
    expect(await investedOf(auth.id)).toBe(4025);

    const session = (await client.get('/auth/session')).body.auth;
    expect(session.is_active).toBe('active');
    expect(session.activation_date).toEqual(expect.any(String));
    expect(session.paid_member).toBe(true);

    const ledger = await server.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('reference', '=', `topup:${res.body.topup.id}`)
      .execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      kind: 'plan_purchase',
      debit_account_id: `${auth.id}:business`,
      credit_account_id: `${auth.id}:invested`,
      amount_cents: 4025,
    });
    // The investment keeps what the daily income run needs.
    const row = await server.db
      .selectFrom('topups')
      .selectAll()
      .where('id', '=', res.body.topup.id)
      .executeTakeFirst();
    expect(row).toMatchObject({
      roi_bp: 150,
      duration_days: 100,
      roi_paid_cents: 0,
      roi_days_paid: 0,
      amount_cents: 4025,
    });

    // A second top-up keeps the first activation date.
    const again = await client.post('/topup/add', { plan_id: plan.id, amount: 10 });
    expect(again.status).toBe(201);
    expect((await client.get('/auth/session')).body.auth.activation_date).toBe(session.activation_date);
    expect(await balanceOf(client)).toEqual({ business: '49.75', working: '0.00' });
    expect(await investedOf(auth.id)).toBe(5025);
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });

  it('refuses an amount outside the plan, an unknown or inactive plan and a short balance, moving nothing', async () => {
    const { client, auth } = await memberWith('20');
    const inactive = (
      await admin.post('/plans/add', {
        name: 'Closed',
        min_amount: 1,
        max_amount: 10,
        roi_percent: 1,
        duration_days: 5,
        status: 'inactive',
      })
    ).body.plan;
    const before = await snapshot();

    const low = await client.post('/topup/add', { plan_id: plan.id, amount: '9.99' });
    expect(low.status).toBe(400);
    expect(low.body.errors).toEqual([
      { field: 'amount', message: TOPUP_MESSAGES.amountRange('10.00', '500.00') },
    ]);
    const high = await client.post('/topup/add', { plan_id: plan.id, amount: '500.01' });
    expect(high.status).toBe(400);
    expect(high.body.message).toBe(TOPUP_MESSAGES.amountRange('10.00', '500.00'));

    const unknown = await client.post('/topup/add', { plan_id: 'no-such-plan', amount: '10' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: TOPUP_MESSAGES.planNotFound });
    const closed = await client.post('/topup/add', { plan_id: inactive.id, amount: '5' });
    expect(closed.status).toBe(422);
    expect(closed.body).toEqual({ message: TOPUP_MESSAGES.planInactive });

    const short = await client.post('/topup/add', { plan_id: plan.id, amount: '20.01' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ message: WALLET_MESSAGES.insufficient });

    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: '10' }, 'plan_id', TOPUP_MESSAGES.planRequired],
      [{ plan_id: '  ', amount: '10' }, 'plan_id', TOPUP_MESSAGES.planRequired],
      [{ plan_id: plan.id }, 'amount', WALLET_MESSAGES.amountRequired],
      [{ plan_id: plan.id, amount: '0' }, 'amount', WALLET_MESSAGES.amountPositive],
      [{ plan_id: plan.id, amount: '10.001' }, 'amount', WALLET_MESSAGES.amountFormat],
      [{ plan_id: plan.id, amount: 'ten' }, 'amount', WALLET_MESSAGES.amountInvalid],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.post('/topup/add', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0], JSON.stringify(body)).toEqual({ field, message });
    }
    expect(await snapshot()).toEqual(before);
    expect((await client.get('/auth/session')).body.auth.is_active).toBe('inactive');
    expect(await investedOf(auth.id)).toBe(0);
  });

  it('is for members only: an admin gets 403, a stranger 401', async () => {
    const asAdmin = await admin.post('/topup/add', { plan_id: plan.id, amount: '10' });
    expect(asAdmin.status).toBe(403);
    expect(
      (await new ApiClient(server.baseUrl).post('/topup/add', { plan_id: plan.id, amount: '10' })).status,
    ).toBe(401);
    expect((await new ApiClient(server.baseUrl).get('/topup/list')).status).toBe(401);
  });

  it('repeats under the same Idempotency-Key answer the first result and move nothing; another body is a 409', async () => {
    const { client, auth } = await memberWith('100');
    const key = { 'Idempotency-Key': `topup-${auth.id}` };
    const first = await client.post('/topup/add', { plan_id: plan.id, amount: '30' }, key);
    expect(first.status).toBe(201);
    const repeat = await client.post('/topup/add', { plan_id: plan.id, amount: '30' }, key);
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    const other = await client.post('/topup/add', { plan_id: plan.id, amount: '31' }, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ message: WALLET_MESSAGES.idempotencyReused });
    // The same key on another top-up call is another request too.
    expect((await client.post('/topup/addretopup', { plan_id: plan.id, amount: '30' }, key)).status).toBe(
      409,
    );
    expect(await balanceOf(client)).toEqual({ business: '70.00', working: '0.00' });
    expect(await investedOf(auth.id)).toBe(3000);
    expect((await client.get('/topup/list')).body.total).toBe(1);
  });

  it('ten concurrent top-ups with money for three: three succeed, the rest are 422, and nothing goes negative', async () => {
    const { client, auth } = await memberWith('100');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.post('/topup/add', { plan_id: plan.id, amount: '30' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422))
      expect(r.body).toEqual({ message: WALLET_MESSAGES.insufficient });
    expect(await balanceOf(client)).toEqual({ business: '10.00', working: '0.00' });
    expect(await investedOf(auth.id)).toBe(9000);
    expect((await client.get('/topup/list')).body.total).toBe(3);
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });
});

describe('POST /topup/addretopup', () => {
  it('needs an earlier top-up, then adds another investment', async () => {
    const { client } = await memberWith('50');
    const early = await client.post('/topup/addretopup', { plan_id: plan.id, amount: '10' });
    expect(early.status).toBe(422);
    expect(early.body).toEqual({ message: TOPUP_MESSAGES.noFirstTopup });
    expect((await client.get('/auth/session')).body.auth.is_active).toBe('inactive');
    expect((await client.post('/topup/add', { plan_id: plan.id, amount: '10' })).status).toBe(201);
    const re = await client.post('/topup/addretopup', { plan_id: plan.id, amount: '15' });
    expect(re.status).toBe(201);
    expect(re.body.topup).toMatchObject({ type: 'retopup', amount: '15.00' });
    expect(await balanceOf(client)).toEqual({ business: '25.00', working: '0.00' });
  });
});

describe('POST /topup/entry', () => {
  it('tops up another member from the payer’s Active Wallet and activates them', async () => {
    const payer = await memberWith('80');
    const friend = await memberWith('0');
    const res = await payer.client.post('/topup/entry', {
      id: friend.auth.id,
      userby_id: payer.auth.id,
      plan_id: plan.id,
      amount: '45',
    });
    expect(res.status).toBe(201);
    expect(res.body.topup).toMatchObject({
      user_id: friend.auth.id,
      userby_id: payer.auth.id,
      type: 'entry',
      amount: '45.00',
      user_name: friend.auth.fullname,
      userby_name: payer.auth.fullname,
    });
    expect(await balanceOf(payer.client)).toEqual({ business: '35.00', working: '0.00' });
    expect(await balanceOf(friend.client)).toEqual({ business: '0.00', working: '0.00' });
    expect(await investedOf(friend.auth.id)).toBe(4500);
    expect(await investedOf(payer.auth.id)).toBe(0);
    expect((await friend.client.get('/auth/session')).body.auth.is_active).toBe('active');
    expect((await payer.client.get('/auth/session')).body.auth.is_active).toBe('inactive');
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00' });
  });

  it('refuses a payer other than the signed-in member (403), an unknown member (404), a blocked one (422)', async () => {
    const payer = await memberWith('80');
    const victim = await memberWith('80');
    const friend = await memberWith('0');
    const blocked = await memberWith('0');
    expect((await admin.put(`/users/${blocked.auth.id}`, { status: 'block' })).status).toBe(200);
    const before = await snapshot();

    // A third party cannot make someone else pay.
    const theft = await payer.client.post('/topup/entry', {
      id: friend.auth.id,
      userby_id: victim.auth.id,
      plan_id: plan.id,
      amount: '20',
    });
    expect(theft.status).toBe(403);
    expect(theft.body).toEqual({ message: TOPUP_MESSAGES.notYourAccount });

    const unknown = await payer.client.post('/topup/entry', {
      id: 'no-such-member',
      userby_id: payer.auth.id,
      plan_id: plan.id,
      amount: '20',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: TOPUP_MESSAGES.memberNotFound });
    const adminId = (await admin.get('/auth/session')).body.admin.id;
    const toAdmin = await payer.client.post('/topup/entry', {
      id: adminId,
      userby_id: payer.auth.id,
      plan_id: plan.id,
      amount: '20',
    });
    expect(toAdmin.status).toBe(404);

    const toBlocked = await payer.client.post('/topup/entry', {
      id: blocked.auth.id,
      userby_id: payer.auth.id,
      plan_id: plan.id,
      amount: '20',
    });
    expect(toBlocked.status).toBe(422);
    expect(toBlocked.body).toEqual({ message: TOPUP_MESSAGES.memberBlocked });

    const missing = await payer.client.post('/topup/entry', {
      userby_id: payer.auth.id,
      plan_id: plan.id,
      amount: '20',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toEqual({ field: 'id', message: TOPUP_MESSAGES.memberRequired });

    expect(await snapshot()).toEqual(before);
    expect(await balanceOf(victim.client)).toEqual({ business: '80.00', working: '0.00' });
  });

  it('refuses a blocked payer: their session ends at once, and nothing moves', async () => {
    const payer = await memberWith('50');
    expect((await admin.put(`/users/${payer.auth.id}`, { status: 'block' })).status).toBe(200);
    const res = await payer.client.post('/topup/add', { plan_id: plan.id, amount: '10' });
    // Its CSRF token belonged to the ended session: with a fresh one the call reaches the server and is a 401.
    expect(res.status).toBe(403);
    await payer.client.get('/auth/csrf');
    const again = await payer.client.post('/topup/add', { plan_id: plan.id, amount: '10' });
    expect(again.status).toBe(401);
    expect(await investedOf(payer.auth.id)).toBe(0);
  });
});

describe('GET /topup/list and /topup/by/{id}', () => {
  it('shows a member the top-ups they paid or received, newest first; an admin sees every one, by page', async () => {
    const payer = await memberWith('100');
    const friend = await memberWith('100');
    const stranger = await memberWith('0');
    const own = (await payer.client.post('/topup/add', { plan_id: plan.id, amount: '10' })).body.topup;
    const gift = (
      await payer.client.post('/topup/entry', {
        id: friend.auth.id,
        userby_id: payer.auth.id,
        plan_id: plan.id,
        amount: '11',
      })
    ).body.topup;
    const friends = (await friend.client.post('/topup/add', { plan_id: plan.id, amount: '12' })).body.topup;

    const payerList = await payer.client.get('/topup/list');
    expect(payerList.status).toBe(200);
    expect(payerList.body).toEqual({ topups: [gift, own], total: 2, page: 1, limit: 50 });
    expect((await friend.client.get('/topup/list')).body.topups.map((t: { id: string }) => t.id)).toEqual([
      friends.id,
      gift.id,
    ]);
    expect((await stranger.client.get('/topup/list')).body).toEqual({
      topups: [],
      total: 0,
      page: 1,
      limit: 50,
    });

    const all = await admin.get('/topup/list?limit=2');
    expect(all.status).toBe(200);
    expect(all.body.topups).toEqual([friends, gift]);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const second = await admin.get('/topup/list?limit=2&page=2');
    expect(second.body.topups[0]).toEqual(own);
    expect((await admin.get('/topup/list?limit=0')).status).toBe(400);
    expect((await admin.get('/topup/list?page=abc')).status).toBe(400);

    expect((await payer.client.get(`/topup/by/${payer.auth.id}`)).body.topups).toEqual([gift, own]);
    const other = await stranger.client.get(`/topup/by/${payer.auth.id}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: TOPUP_MESSAGES.notFound });
    expect((await admin.get(`/topup/by/${friend.auth.id}`)).body.topups).toEqual([friends, gift]);
    expect((await admin.get('/topup/by/no-such-member')).status).toBe(404);
    expect((await new ApiClient(server.baseUrl).get(`/topup/by/${payer.auth.id}`)).status).toBe(401);
  });
});

describe('GET /topup/member', () => {
  it('finds the member to top up by e-mail or username in any case, answering no e-mail', async () => {
    const payer = await memberWith('0');
    const friend = await memberWith('0');
    const expected = {
      member: { id: friend.auth.id, fullname: friend.auth.fullname, username: friend.auth.username },
    };
    const byEmail = await payer.client.get(
      `/topup/member?q=${encodeURIComponent(friend.auth.email.toUpperCase())}`,
    );
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual(expected);
    const byUsername = await payer.client.get(
      `/topup/member?q=${encodeURIComponent(` ${friend.auth.username.toUpperCase()} `)}`,
    );
    expect(byUsername.body).toEqual(expected);

    const unknown = await payer.client.get('/topup/member?q=nobody-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: TOPUP_MESSAGES.memberNotFound });
    expect((await payer.client.get('/topup/member?q=root-admin@example.com')).status).toBe(404);
    const empty = await payer.client.get('/topup/member?q=%20');
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toEqual({ field: 'q', message: TOPUP_MESSAGES.lookupRequired });
    expect((await admin.get(`/topup/member?q=${friend.auth.username}`)).status).toBe(403);
  });
});
