import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { CODE_MESSAGES, TOPUP_MESSAGES } from '../../src/shared/topups.ts';
import { ApiClient, newMember, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Activation codes (spec 7 "Codes": POST /codes, GET /codes, GET /codes/{id}; RULES.md "Plans, top-ups
// and activation"): an admin creates a batch, each code one investment in a plan and amount paid by the
// platform; a member redeems a code once (POST /codes/redeem), even when others try at the same moment.

let server: TestServer;
let admin: ApiClient;
let plan: { id: string; name: string };
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  plan = (
    await admin.post('/plans/add', {
      name: 'Code plan',
      min_amount: '10',
      max_amount: '100',
      roi_percent: '1',
      duration_days: 50,
    })
  ).body.plan;
});
afterAll(async () => server?.stop());

let addresses = 0;
async function member(sponsorCode?: string) {
  addresses += 1;
  const from = { 'x-forwarded-for': `198.51.100.${addresses}` };
  const body = newMember(sponsorCode ? { reffer_by: sponsorCode } : {});
  const client = new ApiClient(server.baseUrl);
  expect((await client.post('/auth/register', body, from)).status).toBe(201);
  const res = await client.post('/auth/signin', { email: body.email, password: body.password }, from);
  expect(res.status).toBe(200);
  return { client, auth: res.body.auth };
}

const balanceOf = async (id: string) =>
  Number(
    (
      await server.db
        .selectFrom('ledger_accounts')
        .select('balance_cents')
        .where('id', '=', id)
        .executeTakeFirst()
    )?.balance_cents ?? 0,
  );
const batch = async (count: number, amount = '25') => {
  const res = await admin.post('/codes', { plan_id: plan.id, amount, count });
  expect(res.status).toBe(201);
  return res.body.codes as { id: string; code: string }[];
};

describe('POST /codes, GET /codes and /codes/{id}', () => {
  it('creates a batch of distinct unused codes, audited, and lists them', async () => {
    const res = await admin.post('/codes', { plan_id: plan.id, amount: '25.5', count: 3 });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(CODE_MESSAGES.created);
    expect(res.body.codes).toHaveLength(3);
    const [first] = res.body.codes;
    expect(first).toEqual({
      id: expect.any(String),
      code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{12}$/),
      batch_id: expect.any(String),
      plan_id: plan.id,
      plan_name: 'Code plan',
      amount: '25.50',
      funding: 'promotional',
      status: 'unused',
      created_at: expect.any(String),
      used_by: null,
      used_by_name: null,
      used_by_email: null,
      used_at: null,
      topup_id: null,
    });
    expect(new Set(res.body.codes.map((c: { code: string }) => c.code)).size).toBe(3);
    expect(new Set(res.body.codes.map((c: { batch_id: string }) => c.batch_id)).size).toBe(1);
    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', first.batch_id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.action).toBe('codes.create');

    expect((await admin.get(`/codes/${first.id}`)).body).toEqual(first);
    const list = await admin.get('/codes?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.codes).toHaveLength(2);
    expect(list.body.total).toBeGreaterThanOrEqual(3);
    expect((await admin.get('/codes/no-such-code')).body).toEqual({ message: CODE_MESSAGES.codeNotFound });
  });

  it('refuses bad batches: count, amount outside the plan, unknown or inactive plan; and members', async () => {
    const closed = (
      await admin.post('/plans/add', {
        name: 'Closed',
        min_amount: 1,
        max_amount: 5,
        roi_percent: 1,
        duration_days: 5,
        status: 'inactive',
      })
    ).body.plan;
    const before = await server.db.selectFrom('activation_codes').select('id').execute();
    for (const count of [0, 101, 1.5, '2']) {
      const res = await admin.post('/codes', { plan_id: plan.id, amount: '20', count });
      expect(res.status, String(count)).toBe(400);
      expect(res.body.errors[0]).toEqual({ field: 'count', message: CODE_MESSAGES.countInvalid });
    }
    const funding = await admin.post('/codes', { plan_id: plan.id, amount: '20', count: 1, funding: 'free' });
    expect(funding.status).toBe(400);
    expect(funding.body.errors[0]).toEqual({ field: 'funding', message: CODE_MESSAGES.fundingInvalid });
    const outside = await admin.post('/codes', { plan_id: plan.id, amount: '100.01', count: 1 });
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toEqual([
      { field: 'amount', message: TOPUP_MESSAGES.amountRange('10.00', '100.00') },
    ]);
    expect((await admin.post('/codes', { plan_id: 'nope', amount: '20', count: 1 })).status).toBe(404);
    expect((await admin.post('/codes', { plan_id: closed.id, amount: '2', count: 1 })).body).toEqual({
      message: TOPUP_MESSAGES.planInactive,
    });
    const m = await member();
    expect((await m.client.post('/codes', { plan_id: plan.id, amount: '20', count: 1 })).status).toBe(403);
    expect((await m.client.get('/codes')).body).toEqual({ message: GENERIC.forbidden });
    expect((await m.client.get(`/codes/${before[0]?.id}`)).status).toBe(403);
    expect(await server.db.selectFrom('activation_codes').select('id').execute()).toEqual(before);
  });
});

describe('POST /codes/redeem', () => {
  it('turns a code into the member’s investment paid by the platform, activates them and pays activation income', async () => {
    const sponsor = await member();
    expect((await admin.put(`/users/${sponsor.auth.id}`, { is_active: 'active' })).status).toBe(200);
    const m = await member(sponsor.auth.refferal_code);
    const [code] = await batch(1, '40');
    const codesBefore = await balanceOf('platform:codes');

    const res = await m.client.post('/codes/redeem', { code: ` ${code?.code.toLowerCase()} ` });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(CODE_MESSAGES.redeemed);
    expect(res.body.topup).toMatchObject({
      user_id: m.auth.id,
      userby_id: null,
      userby_name: null,
      plan_id: plan.id,
      amount: '40.00',
      type: 'code',
      status: 'active',
    });
    expect(await balanceOf(`${m.auth.id}:invested`)).toBe(4000);
    expect(await balanceOf('platform:codes')).toBe(codesBefore - 4000);
    expect((await m.client.get('/wallet/balance')).body).toEqual({
      business: '0.00',
      working: '0.00',
      money_added: false,
    });
    expect((await m.client.get('/auth/session')).body.auth.is_active).toBe('active');
    // 5 % (the default) of 40.00 to the sponsor.
    expect((await sponsor.client.get('/wallet/balance')).body.working).toBe('2.00');

    const used = await admin.get(`/codes/${code?.id}`);
    expect(used.body).toMatchObject({
      status: 'used',
      used_by: m.auth.id,
      used_by_name: m.auth.fullname,
      used_by_email: m.auth.email,
      used_at: expect.any(String),
      topup_id: res.body.topup.id,
    });
    expect((await m.client.get('/topup/list')).body.topups[0]).toEqual(res.body.topup);

    const other = await member();
    const again = await other.client.post('/codes/redeem', { code: code?.code });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: CODE_MESSAGES.used });
    expect((await m.client.post('/codes/redeem', { code: code?.code })).status).toBe(422);
    expect((await other.client.post('/codes/redeem', { code: 'NOSUCHCODE22' })).body).toEqual({
      message: CODE_MESSAGES.notFound,
    });
    expect((await other.client.post('/codes/redeem', { code: '  ' })).body.errors[0]).toEqual({
      field: 'code',
      message: CODE_MESSAGES.codeRequired,
    });
    expect((await admin.post('/codes/redeem', { code: 'ANYTHING' })).status).toBe(403);
    expect((await admin.get('/ledger/reconciliation')).body).toMatchObject({
      balanced: true,
      ledger_sum: '0.00',
    });
  });

  it('lets exactly one of five members redeem a code at the same moment', async () => {
    const [code] = await batch(1, '30');
    const members = [];
    for (let i = 0; i < 5; i += 1) members.push(await member());
    const results = await Promise.all(
      members.map((m) => m.client.post('/codes/redeem', { code: code?.code })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
    const winner = results.find((r) => r.status === 201)?.body.topup.user_id;
    expect((await admin.get(`/codes/${code?.id}`)).body.used_by).toBe(winner);
    const investments = await server.db
      .selectFrom('topups')
      .select('user_id')
      .where(
        'user_id',
        'in',
        members.map((m) => m.auth.id),
      )
      .execute();
    expect(investments).toEqual([{ user_id: winner }]);
    expect((await admin.get('/ledger/reconciliation')).body).toMatchObject({
      balanced: true,
      ledger_sum: '0.00',
    });
  });

  it('answers a repeat under the same Idempotency-Key with the first result', async () => {
    const [code] = await batch(1);
    const m = await member();
    const key = { 'Idempotency-Key': `redeem-${code?.id}` };
    const first = await m.client.post('/codes/redeem', { code: code?.code }, key);
    expect(first.status).toBe(201);
    const repeat = await m.client.post('/codes/redeem', { code: code?.code }, key);
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    expect(await balanceOf(`${m.auth.id}:invested`)).toBe(2500);
  });
});
