import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/http/tokens.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { MEMBER_ADMIN_MESSAGES, USER_MESSAGES } from '../../src/shared/users.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /users/{id}/detail and DELETE /users/{id}/sessions: one member for support staff (details,
// balances, sponsor and direct team, recent ledger transfers, live sessions) and the one button that
// signs them out everywhere. Admins only: a member gets 403 whatever id they try.
// Members in this file: 7.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (await admin.get('/auth/session')).body.admin.id;
});
afterAll(async () => server?.stop());

const detailOf = async (id: string) => {
  const res = await admin.get(`/users/${id}/detail`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('who may read a member’s detail or end their sessions', () => {
  it('answers 401 signed out and 403 to members, on their own id, another’s and a guessed one', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.get(`/users/${b.auth.id}/detail`)).status).toBe(401);
    expect((await anonymous.request('DELETE', `/users/${b.auth.id}/sessions`)).status).toBe(401);
    for (const id of [a.auth.id, b.auth.id, adminId, 'guessed-id']) {
      for (const [method, path] of [
        ['GET', `/users/${id}/detail`],
        ['GET', `/users/${id}/deletion`],
        ['DELETE', `/users/${id}/sessions`],
        ['DELETE', `/users/${id}`],
      ] as const) {
        const res = await a.client.request(method, path);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toEqual({ message: GENERIC.forbidden });
      }
    }
    // b is still signed in and still there.
    expect((await b.client.get('/wallet/balance')).status).toBe(200);
  });

  it('answers 404 to an admin for an unknown id and for an admin account', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', adminId]) {
      const res = await admin.get(`/users/${id}/detail`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(USER_MESSAGES.noMember);
      expect((await admin.request('DELETE', `/users/${id}/sessions`)).status).toBe(404);
    }
  });
});

describe('GET /users/{id}/detail', () => {
  it('shows the member, balances, sponsor, direct team and recent ledger transfers with both sides named', async () => {
    const sponsor = await fundedMember(server.baseUrl, admin, { business: '10.00' });
    const member = await fundedMember(
      server.baseUrl,
      admin,
      { business: '100.00' },
      { reffer_by: sponsor.auth.refferal_code },
    );
    const sent = await member.client.post('/transfer/touser', {
      userto_id: sponsor.auth.id,
      amount: '12.50',
      from: 'business',
      to: 'working',
      desc: 'Lunch money',
    });
    expect(sent.status).toBe(201);
    const moved = await member.client.post('/transfer/touser', {
      userto_id: member.auth.id,
      amount: '5.00',
      from: 'business',
      to: 'working',
    });
    expect(moved.status).toBe(201);

    const detail = await detailOf(member.auth.id);
    expect(detail.singleuser).toMatchObject({
      id: member.auth.id,
      email: member.member.email,
      is_active: 'active',
      reffer_by: sponsor.auth.refferal_code,
      balance: { business: '82.50', working: '5.00' },
    });
    expect(detail.singleuser).not.toHaveProperty('password');
    expect(detail.singleuser).not.toHaveProperty('password_hash');
    expect(detail.sponsor).toEqual({
      id: sponsor.auth.id,
      fullname: sponsor.member.fullname,
      username: sponsor.member.username,
      email: sponsor.member.email,
    });
    expect(detail.direct_team).toBe(0);
    expect((await detailOf(sponsor.auth.id)).direct_team).toBe(1);

    expect(detail.transfers).toHaveLength(3);
    const byAmount = (amount: string) =>
      detail.transfers.find((t: { amount: string }) => t.amount === amount);
    // Newest first.
    expect(detail.transfers.map((t: { created_at: string }) => t.created_at)).toEqual(
      detail.transfers
        .map((t: { created_at: string }) => t.created_at)
        .sort()
        .reverse(),
    );
    const [own, out, funding] = [byAmount('5.00'), byAmount('12.50'), byAmount('100.00')];
    expect(own).toMatchObject({
      kind: 'transfer',
      phase: 'single',
      amount: '5.00',
      direction: 'own',
      from_account: 'Active Wallet',
      to_account: 'Income Working',
    });
    expect(out).toMatchObject({
      kind: 'transfer',
      amount: '12.50',
      direction: 'out',
      from_account: 'Active Wallet',
      to_account: `${sponsor.member.fullname} (${sponsor.member.email}), Income Working`,
      description: 'Lunch money',
    });
    expect(funding).toMatchObject({
      kind: 'adjustment',
      amount: '100.00',
      direction: 'in',
      from_account: 'Platform adjustments',
      to_account: 'Active Wallet',
      description: 'Test funding',
    });
    const sponsorSide = (await detailOf(sponsor.auth.id)).transfers[0];
    expect(sponsorSide).toMatchObject({
      amount: '12.50',
      direction: 'in',
      from_account: `${member.member.fullname} (${member.member.email}), Active Wallet`,
      to_account: 'Income Working',
    });
  });

  it('lists live sessions with when, until when, address and device, never a token or its hash', async () => {
    const { member, auth, client } = await signedInMember(server.baseUrl);
    const phone = new ApiClient(server.baseUrl);
    const signIn = await phone.post(
      '/auth/signin',
      { email: member.email, password: member.password },
      { 'user-agent': 'TestPhone/2.0 (Member detail test)' },
    );
    expect(signIn.status).toBe(200);

    const res = await admin.get(`/users/${auth.id}/detail`);
    const { sessions } = res.body;
    expect(sessions).toHaveLength(2);
    for (const s of sessions) {
      expect(Object.keys(s).sort()).toEqual(['created_at', 'device', 'expires_at', 'ip', 'user_agent']);
      expect(Date.parse(s.expires_at)).toBeGreaterThan(Date.now());
      expect(s.ip).toBe('127.0.0.1');
    }
    expect(sessions.map((s: { user_agent: string }) => s.user_agent)).toContain(
      'TestPhone/2.0 (Member detail test)',
    );
    // The device by the name its user agent gives; Node's own fetch ("node") names none.
    expect(sessions.map((s: { device: string }) => s.device).sort()).toEqual(['TestPhone', 'Unknown device']);
    for (const token of [client.sid, phone.sid]) {
      expect(token).toBeTruthy();
      expect(res.text).not.toContain(token);
      expect(res.text).not.toContain(hashToken(token as string));
    }
  });
});

describe('DELETE /users/{id}/sessions', () => {
  it('ends every session of the member at once, audited; they may sign in again', async () => {
    const { member, auth, client } = await signedInMember(server.baseUrl);
    const other = new ApiClient(server.baseUrl);
    await other.signIn(member);

    const res = await admin.request('DELETE', `/users/${auth.id}/sessions`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MEMBER_ADMIN_MESSAGES.sessionsEnded, ended: 2 });
    expect((await client.get('/wallet/balance')).status).toBe(401);
    expect((await other.get('/wallet/balance')).status).toBe(401);
    expect((await detailOf(auth.id)).sessions).toEqual([]);

    const [entry] = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', auth.id)
      .execute();
    expect(entry).toMatchObject({ action: 'user.sessions_end', actor_id: adminId, target_type: 'user' });
    expect(JSON.parse(entry?.after_json ?? '{}')).toEqual({ sessions_ended: 2 });

    // Not a block: the member signs in again.
    const again = new ApiClient(server.baseUrl);
    await again.signIn(member);
    expect((await again.get('/wallet/balance')).status).toBe(200);
    // The admin's own session is untouched.
    expect((await admin.get('/auth/session')).status).toBe(200);
  });
});
