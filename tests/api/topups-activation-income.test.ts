import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/server/db/errors.ts';
import { ApiClient, newMember, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Activation income (RULES.md "Plans, top-ups and activation" and "Daily income"): on every top-up the
// beneficiary's uplines, level 1 (the sponsor) upward, earn the activation percents of the amount,
// rounded down to the cent, from the platform's income account into `working`, in the top-up's
// transaction. An upline earns at level L only when they are an unblocked, active member with level
// income open and at least L active direct members; one who does not is skipped and the money is not
// passed up. Admins never earn. One payment per (top-up, earner, level), enforced by a unique index.

let server: TestServer;
let admin: ApiClient;
let planId: string;
beforeAll(async () => {
  // Many members register here: each from an address of its own (through the trusted loopback proxy),
  // so the per-address registration limit is not what the test meets.
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  expect((await admin.post('/plans/addactivelevel', { percents: ['5', '3', '2'] })).status).toBe(200);
  const res = await admin.post('/plans/add', {
    name: 'Income test',
    min_amount: '10',
    max_amount: '1000',
    roi_percent: '1',
    duration_days: 30,
  });
  planId = res.body.plan.id;
});
afterAll(async () => server?.stop());

let addresses = 0;
/** Registers and signs in a member, optionally under a sponsor's referral code. */
async function signedInMember(overrides: Record<string, unknown>) {
  addresses += 1;
  const from = { 'x-forwarded-for': `198.51.100.${addresses}` };
  const body = newMember(overrides);
  const client = new ApiClient(server.baseUrl);
  const registered = await client.post('/auth/register', body, from);
  expect(registered.status, registered.text).toBe(201);
  const signedIn = await client.post('/auth/signin', { email: body.email, password: body.password }, from);
  expect(signedIn.status, signedIn.text).toBe(200);
  return { client, auth: signedIn.body.auth };
}
type Member = Awaited<ReturnType<typeof signedInMember>>;

/** A member under `sponsor` (or the root admin), made active by an admin unless told otherwise. */
async function member(
  sponsor: Member | undefined,
  { active = true, business }: { active?: boolean; business?: string } = {},
): Promise<Member> {
  const m = await signedInMember(sponsor ? { reffer_by: sponsor.auth.refferal_code } : {});
  if (active) expect((await admin.put(`/users/${m.auth.id}`, { is_active: 'active' })).status).toBe(200);
  if (business) {
    const res = await admin.post('/admin/adjustments', {
      user_id: m.auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: business,
      reason: 'Test funding',
    });
    expect(res.status).toBe(201);
  }
  return m;
}

const workingOf = async (m: Member) => (await m.client.get('/wallet/balance')).body.working as string;
const incomeAccount = async () =>
  Number(
    (
      await server.db
        .selectFrom('ledger_accounts')
        .select('balance_cents')
        .where('id', '=', 'platform:income')
        .executeTakeFirstOrThrow()
    ).balance_cents,
  );
const incomesOf = (topupId: string) =>
  server.db
    .selectFrom('activation_incomes')
    .select(['user_id', 'level', 'percent_bp', 'amount_cents'])
    .where('topup_id', '=', topupId)
    .orderBy('level')
    .execute();
const reconciliation = async () => (await admin.get('/ledger/reconciliation')).body;

describe('activation income on a top-up', () => {
  it('pays qualifying uplines their level percent, rounded down, and skips one without enough active directs', async () => {
    // A has three active direct members (B, X, Y): qualifies up to level 3. B has one (C): only level 1.
    // C has none until D's first top-up makes D active: D counts, so C qualifies at level 1.
    const a = await member(undefined);
    const b = await member(a);
    await member(a);
    await member(a);
    const c = await member(b);
    const d = await member(c, { active: false, business: '200' });
    const incomeBefore = await incomeAccount();

    const key = { 'Idempotency-Key': `activation-${d.auth.id}` };
    const res = await d.client.post('/topup/add', { plan_id: planId, amount: '101.99' }, key);
    expect(res.status).toBe(201);
    const topupId = res.body.topup.id;

    // 5 % of 101.99 = 5.0995 -> 5.09 (level 1, C); B skipped at level 2 (one active direct, needs two),
    // its 3 % not passed up; 2 % = 2.0398 -> 2.03 (level 3, A).
    expect(await workingOf(c)).toBe('5.09');
    expect(await workingOf(b)).toBe('0.00');
    expect(await workingOf(a)).toBe('2.03');
    expect(await workingOf(d)).toBe('0.00');
    expect(await incomesOf(topupId)).toEqual([
      { user_id: c.auth.id, level: 1, percent_bp: 500, amount_cents: 509 },
      { user_id: a.auth.id, level: 3, percent_bp: 200, amount_cents: 203 },
    ]);
    expect(await incomeAccount()).toBe(incomeBefore - 712);
    const rows = await server.db
      .selectFrom('ledger_transfers')
      .select(['kind', 'debit_account_id', 'credit_account_id', 'amount_cents'])
      .where('reference', '=', `topup:${topupId}`)
      .orderBy('amount_cents', 'desc')
      .execute();
    expect(rows).toEqual([
      {
        kind: 'plan_purchase',
        debit_account_id: `${d.auth.id}:business`,
        credit_account_id: `${d.auth.id}:invested`,
        amount_cents: 10199,
      },
      {
        kind: 'activation_income',
        debit_account_id: 'platform:income',
        credit_account_id: `${c.auth.id}:working`,
        amount_cents: 509,
      },
      {
        kind: 'activation_income',
        debit_account_id: 'platform:income',
        credit_account_id: `${a.auth.id}:working`,
        amount_cents: 203,
      },
    ]);

    // A repeat under the same key pays nobody again.
    const repeat = await d.client.post('/topup/add', { plan_id: planId, amount: '101.99' }, key);
    expect(repeat.body).toEqual(res.body);
    expect(await workingOf(c)).toBe('5.09');
    expect(await incomeAccount()).toBe(incomeBefore - 712);

    // Once B has a second active direct, B earns at level 2 on the next top-up.
    await member(b);
    expect((await d.client.post('/topup/add', { plan_id: planId, amount: '10' })).status).toBe(201);
    expect(await workingOf(c)).toBe('5.59');
    expect(await workingOf(b)).toBe('0.30');
    expect(await workingOf(a)).toBe('2.23');
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });

  it('skips a sponsor who is inactive, blocked or has level income closed, and passes nothing up', async () => {
    // G qualifies at levels 1 and 2 (two active directs besides S); S, between G and the payer, does not.
    for (const change of [
      { is_active: 'inactive' },
      { status: 'block' },
      { level_status: 'close' },
    ] as const) {
      const g = await member(undefined);
      await member(g);
      await member(g);
      const s = await member(g);
      const n = await member(s, { active: false, business: '100' });
      expect((await admin.put(`/users/${s.auth.id}`, change)).status).toBe(200);
      const res = await n.client.post('/topup/add', { plan_id: planId, amount: '100' });
      expect(res.status, JSON.stringify(change)).toBe(201);
      // G earns its own level-2 share (3 %), never S's 5 %.
      expect(await incomesOf(res.body.topup.id)).toEqual([
        { user_id: g.auth.id, level: 2, percent_bp: 300, amount_cents: 300 },
      ]);
      expect(await workingOf(g)).toBe('3.00');
      const sWorking = await server.db
        .selectFrom('ledger_accounts')
        .select('balance_cents')
        .where('id', '=', `${s.auth.id}:working`)
        .executeTakeFirstOrThrow();
      expect(Number(sWorking.balance_cents)).toBe(0);
    }
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00' });
  });

  it('pays no admin: a member who joined under the root admin earns the platform nothing', async () => {
    const m = await member(undefined, { active: false, business: '50' });
    const before = await incomeAccount();
    const res = await m.client.post('/topup/add', { plan_id: planId, amount: '50' });
    expect(res.status).toBe(201);
    expect(await incomesOf(res.body.topup.id)).toEqual([]);
    expect(await incomeAccount()).toBe(before);
  });

  it('pays on a top-up another member paid too, to the beneficiary’s uplines (not the payer’s)', async () => {
    const sponsor = await member(undefined);
    const beneficiary = await member(sponsor, { active: false });
    const payerSponsor = await member(undefined);
    const payer = await member(payerSponsor, { business: '40' });
    const res = await payer.client.post('/topup/entry', {
      id: beneficiary.auth.id,
      userby_id: payer.auth.id,
      plan_id: planId,
      amount: '40',
    });
    expect(res.status).toBe(201);
    expect(await workingOf(sponsor)).toBe('2.00');
    expect(await workingOf(payerSponsor)).toBe('0.00');
  });

  it('lets the database refuse a second payment for the same top-up, earner and level', async () => {
    const sponsor = await member(undefined);
    const m = await member(sponsor, { active: false, business: '20' });
    const res = await m.client.post('/topup/add', { plan_id: planId, amount: '20' });
    const topup = await server.db
      .selectFrom('topups')
      .select(['id', 'ledger_transfer_id'])
      .where('id', '=', res.body.topup.id)
      .executeTakeFirstOrThrow();
    expect(await incomesOf(topup.id)).toHaveLength(1);
    const duplicate = server.db
      .insertInto('activation_incomes')
      .values({
        id: 'duplicate-payment',
        topup_id: topup.id,
        user_id: sponsor.auth.id,
        level: 1,
        percent_bp: 500,
        amount_cents: 100,
        ledger_transfer_id: topup.ledger_transfer_id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const error = await duplicate.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
    expect(await incomesOf(topup.id)).toHaveLength(1);
  });

  it('pays every one of many concurrent top-ups under shared uplines exactly, alongside transfers, and the books balance', async () => {
    // Top-ups under the sponsor pay the sponsor, then the top; top-ups right under the top pay the top
    // first. Taken as each payment comes, two such top-ups would wait for each other's accounts
    // (a deadlock on PostgreSQL); every top-up takes its accounts in one order, so all are paid.
    const top = await member(undefined);
    const sponsor = await member(top);
    const underSponsor = [];
    const underTop = [];
    for (let i = 0; i < 6; i += 1) underSponsor.push(await member(sponsor, { business: '30' }));
    for (let i = 0; i < 6; i += 1) underTop.push(await member(top, { business: '30' }));
    const payers = [...underSponsor, ...underTop];
    const results = await Promise.all(
      payers.flatMap((p, i) => [
        p.client.post('/topup/add', { plan_id: planId, amount: '20' }),
        // Money moving between the same members' wallets at the same time.
        p.client.post('/transfer/touser', {
          userto_id: (payers[(i + 1) % payers.length] as Member).auth.id,
          amount: '5',
          from: 'business',
          to: 'business',
        }),
      ]),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 24 }, () => 201));
    // The sponsor: 6 x 5 % of 20.00. The top: 6 x 5 % as level 1 and 6 x 3 % as level 2 (it has 7 active directs).
    expect(await workingOf(sponsor)).toBe('6.00');
    expect(await workingOf(top)).toBe('9.60');
    for (const p of payers) expect((await p.client.get('/wallet/balance')).body.business).toBe('10.00');
    expect(await reconciliation()).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
  });
});
