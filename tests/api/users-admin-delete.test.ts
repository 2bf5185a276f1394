import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { MEMBER_ADMIN_MESSAGES, USER_MESSAGES } from '../../src/shared/users.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// DELETE /users/{id} (spec 7) and GET /users/{id}/deletion: a member with money, ledger rows, payments
// or referrals is deactivated (blocked, inactive, signed out), never erased, so no ledger row ever loses
// its owner; a member with no history at all is erased. The preview says which before the admin confirms.
// Members in this file: 12.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer({ PAYMENT_SWEEP_MS: '0' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const preview = async (id: string) => {
  const res = await admin.get(`/users/${id}/deletion`);
  expect(res.status, res.text).toBe(200);
  return res.body as { outcome: string; reasons: string[] };
};
const remove = (id: string) => admin.request('DELETE', `/users/${id}`);
const auditOf = (id: string) =>
  server.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).orderBy('created_at').execute();
const ownedAccounts = (id: string) =>
  server.db.selectFrom('ledger_accounts').select(['id', 'balance_cents']).where('user_id', '=', id).execute();
const reconciled = async () => (await admin.get('/ledger/reconciliation')).body.balanced as boolean;

/** After a deactivation: blocked, inactive, signed out, unable to sign in, everything they own still theirs. */
async function expectDeactivated(
  member: Awaited<ReturnType<typeof signedInMember>>,
  accountsBefore: Awaited<ReturnType<typeof ownedAccounts>>,
) {
  const res = await admin.get(`/users/${member.auth.id}`);
  expect(res.status).toBe(200);
  expect(res.body.singleuser).toMatchObject({ status: 'block', is_active: 'inactive' });
  expect((await member.client.get('/wallet/balance')).status).toBe(401);
  const attempt = await new ApiClient(server.baseUrl).post('/auth/signin', {
    email: member.member.email,
    password: member.member.password,
  });
  expect(attempt.status).toBe(403);
  expect(attempt.body.message).toBe(AUTH.blocked);
  expect(await ownedAccounts(member.auth.id)).toEqual(accountsBefore);
  expect(await reconciled()).toBe(true);
}

describe('who may delete', () => {
  it('answers 401 signed out and 403 to members, for another member and for themself; nothing changes', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    expect((await new ApiClient(server.baseUrl).request('DELETE', `/users/${b.auth.id}`)).status).toBe(401);
    for (const id of [b.auth.id, a.auth.id]) {
      const res = await a.client.request('DELETE', `/users/${id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: GENERIC.forbidden });
    }
    for (const m of [a, b]) {
      expect((await admin.get(`/users/${m.auth.id}`)).body.singleuser).toMatchObject({
        status: 'unblock',
      });
      expect((await m.client.get('/wallet/balance')).status).toBe(200);
    }
  });

  it('answers 404 for an unknown id and for an admin account', async () => {
    const adminId = (await admin.get('/auth/session')).body.admin.id;
    for (const id of ['00000000-0000-0000-0000-000000000000', adminId]) {
      const res = await remove(id);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(USER_MESSAGES.noMember);
      expect((await admin.get(`/users/${id}/deletion`)).status).toBe(404);
    }
    expect((await admin.get('/auth/session')).status).toBe(200);
  });
});

describe('a member with no history', () => {
  it('is erased: gone from every list, signed out, audited with who they were', async () => {
    const member = await signedInMember(server.baseUrl);
    expect(await preview(member.auth.id)).toEqual({ outcome: 'erase', reasons: [] });

    const res = await remove(member.auth.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MEMBER_ADMIN_MESSAGES.erased, outcome: 'erased' });

    expect((await admin.get(`/users/${member.auth.id}`)).status).toBe(404);
    const listed = await admin.get(`/users/list?search=${encodeURIComponent(member.member.email)}`);
    expect(listed.body.total).toBe(0);
    expect(await ownedAccounts(member.auth.id)).toEqual([]);
    expect((await member.client.get('/wallet/balance')).status).toBe(401);
    const attempt = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: member.member.email,
      password: member.member.password,
    });
    expect(attempt.status).toBe(401);

    const [entry] = await auditOf(member.auth.id);
    expect(entry?.action).toBe('user.delete');
    expect(JSON.parse(entry?.before_json ?? '{}')).toMatchObject({
      id: member.auth.id,
      email: member.member.email,
      fullname: member.member.fullname,
    });
    expect(entry?.before_json).not.toMatch(/password|argon/);
    // Deleting again: there is nothing left to delete.
    expect((await remove(member.auth.id)).status).toBe(404);
    expect(await reconciled()).toBe(true);
  });
});

describe('a member with money or history is deactivated, never erased', () => {
  it('money in a wallet', async () => {
    const member = await fundedMember(server.baseUrl, admin, { business: '25.00', working: '0.40' });
    expect(await preview(member.auth.id)).toEqual({
      outcome: 'deactivate',
      reasons: expect.arrayContaining([
        'Active Wallet holds $25.00',
        'Income Working holds $0.40',
        '2 ledger transfers',
      ]),
    });
    const accounts = await ownedAccounts(member.auth.id);
    const res = await remove(member.auth.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MEMBER_ADMIN_MESSAGES.deactivated, outcome: 'deactivated' });
    await expectDeactivated(member, accounts);
    const entries = await auditOf(member.auth.id);
    const last = entries.at(-1);
    expect(last?.action).toBe('user.deactivate');
    expect(JSON.parse(last?.before_json ?? '{}')).toEqual({ status: 'unblock', is_active: 'active' });
    expect(JSON.parse(last?.after_json ?? '{}')).toEqual({
      status: 'block',
      is_active: 'inactive',
      sessions_ended: 1,
    });
    expect(last?.reason).toContain('Active Wallet holds $25.00');
  });

  it('an empty wallet with ledger rows', async () => {
    const member = await fundedMember(server.baseUrl, admin, { working: '5.00' });
    const debit = await admin.post('/admin/adjustments', {
      user_id: member.auth.id,
      wallet: 'working',
      direction: 'debit',
      amount: '5.00',
      reason: 'Taking it back',
    });
    expect(debit.status).toBe(201);
    expect(await preview(member.auth.id)).toEqual({ outcome: 'deactivate', reasons: ['2 ledger transfers'] });
    const accounts = await ownedAccounts(member.auth.id);
    expect((await remove(member.auth.id)).body.outcome).toBe('deactivated');
    await expectDeactivated(member, accounts);
  });

  it('money on hold in a transfer waiting for review', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '5000.00' });
    const recipient = await signedInMember(server.baseUrl);
    const sent = await sender.client.post('/transfer/touser', {
      userto_id: recipient.auth.id,
      amount: '5000.00',
      from: 'business',
      to: 'business',
    });
    expect(sent.status).toBe(201);
    expect(sent.body.transfer.status).toBe('pending');
    const { reasons } = await preview(sender.auth.id);
    expect(reasons).toEqual(
      expect.arrayContaining(['Active Wallet holds $5,000.00', 'Active Wallet has $5,000.00 on hold']),
    );
    // The recipient has a ledger row waiting for them, so they are kept too.
    expect(await preview(recipient.auth.id)).toEqual({
      outcome: 'deactivate',
      reasons: ['1 ledger transfer'],
    });
    const accounts = await ownedAccounts(sender.auth.id);
    expect((await remove(sender.auth.id)).body.outcome).toBe('deactivated');
    await expectDeactivated(sender, accounts);
  });

  it('a sponsor of other members', async () => {
    const sponsor = await signedInMember(server.baseUrl);
    await signedInMember(server.baseUrl, { reffer_by: sponsor.auth.refferal_code });
    expect(await preview(sponsor.auth.id)).toEqual({ outcome: 'deactivate', reasons: ['sponsors 1 member'] });
    const accounts = await ownedAccounts(sponsor.auth.id);
    expect((await remove(sponsor.auth.id)).body.outcome).toBe('deactivated');
    await expectDeactivated(sponsor, accounts);
  });

  it('a crypto payment', async () => {
    const payer = await signedInMember(server.baseUrl);
    const created = await payer.client.post('/payments/create-payment', {
      price_amount: '25.00',
      price_currency: 'usd',
      pay_currency: 'usdtbsc',
    });
    expect(created.status, created.text).toBe(201);
    expect(await preview(payer.auth.id)).toEqual({ outcome: 'deactivate', reasons: ['1 crypto payment'] });
    const accounts = await ownedAccounts(payer.auth.id);
    expect((await remove(payer.auth.id)).body.outcome).toBe('deactivated');
    await expectDeactivated(payer, accounts);
    const payments = await server.db
      .selectFrom('crypto_payments')
      .select('id')
      .where('user_id', '=', payer.auth.id)
      .execute();
    expect(payments).toHaveLength(1);
  });

  it('any other record that still names the member (a foreign key) turns the erase into a deactivation', async () => {
    const member = await signedInMember(server.baseUrl);
    await sql`create table member_admin_probe (user_id text not null references users (id))`.execute(
      server.db,
    );
    try {
      await sql`insert into member_admin_probe (user_id) values (${member.auth.id})`.execute(server.db);
      // Nothing the preview knows of: it expects an erase.
      expect((await preview(member.auth.id)).outcome).toBe('erase');
      const accounts = await ownedAccounts(member.auth.id);
      const res = await remove(member.auth.id);
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('deactivated');
      await expectDeactivated(member, accounts);
      const last = (await auditOf(member.auth.id)).at(-1);
      expect(last?.action).toBe('user.deactivate');
      expect(last?.reason).toContain('other records');
    } finally {
      await sql`drop table member_admin_probe`.execute(server.db);
    }
  });

  it('deleting a deactivated member again keeps them deactivated', async () => {
    const member = await fundedMember(server.baseUrl, admin, { business: '1.00' });
    expect((await remove(member.auth.id)).body.outcome).toBe('deactivated');
    const again = await remove(member.auth.id);
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe('deactivated');
    expect((await admin.get(`/users/${member.auth.id}`)).body.singleuser.status).toBe('block');
  });
});
