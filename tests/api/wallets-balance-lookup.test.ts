import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  holdTransfer,
  PLATFORM,
  settlePending,
  walletAccountId,
} from '../../src/server/modules/wallets/ledger.service.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import {
  ApiClient,
  fundedMember,
  registerMember,
  signedInAdminClient,
  signedInMember,
} from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// GET /wallet/balance (the signed-in member's available money) and GET /users?email= (the transfer
// recipient lookup: exact, case-insensitive, members only, four fields, at most 60 a minute).

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const lookup = (client: ApiClient, email: string) => client.get(`/users?email=${encodeURIComponent(email)}`);

describe('GET /wallet/balance', () => {
  it('answers 401 when signed out and 403 to an admin', async () => {
    const out = await new ApiClient(server.baseUrl).get('/wallet/balance');
    expect(out.status).toBe(401);
    expect(out.body).toEqual({ message: GENERIC.notSignedIn });
    const asAdmin = await admin.get('/wallet/balance');
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body).toEqual({ message: GENERIC.forbidden });
  });

  it('shows a new member two empty wallets, the same as the sign-in and session answers', async () => {
    const member = await registerMember(server.baseUrl);
    const client = new ApiClient(server.baseUrl);
    const signIn = await client.signIn(member);
    const res = await client.get('/wallet/balance');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ business: '0.00', working: '0.00', money_added: false });
    expect(signIn.body.auth.balance).toEqual({ business: '0.00', working: '0.00' });
    expect((await client.get('/auth/session')).body.auth.balance).toEqual(signIn.body.auth.balance);
  });

  it('shows each member only their own money, and available = posted - held', async () => {
    const rich = await signedInMember(server.baseUrl);
    const poor = await signedInMember(server.baseUrl);
    const res = await admin.post('/admin/adjustments', {
      user_id: rich.auth.id,
      wallet: 'working',
      direction: 'credit',
      amount: '1234.56',
      reason: 'Funding for the test',
    });
    expect(res.status).toBe(201);
    expect((await rich.client.get('/wallet/balance')).body).toMatchObject({
      business: '0.00',
      working: '1234.56',
    });
    expect((await poor.client.get('/wallet/balance')).body).toMatchObject({
      business: '0.00',
      working: '0.00',
    });

    // A hold (e.g. an open withdrawal) leaves the available balance at once; voided, it returns.
    const hold = await server.db.transaction().execute((trx) =>
      holdTransfer(trx, {
        debitAccountId: walletAccountId(rich.auth.id, 'working'),
        creditAccountId: PLATFORM.withdrawals,
        amountCents: 23456,
        kind: 'withdrawal',
      }),
    );
    expect((await rich.client.get('/wallet/balance')).body).toMatchObject({
      business: '0.00',
      working: '1000.00',
    });
    expect((await rich.client.get('/auth/session')).body.auth.balance).toEqual({
      business: '0.00',
      working: '1000.00',
    });
    await server.db.transaction().execute((trx) => settlePending(trx, hold.id, 'void'));
    expect((await rich.client.get('/wallet/balance')).body).toMatchObject({
      business: '0.00',
      working: '1234.56',
    });
  });

  it('says money was added once money reaches the Active Wallet from outside the member, and keeps saying so', async () => {
    const added = async (who: { client: ApiClient }) => {
      const res = await who.client.get('/wallet/balance');
      expect(res.status).toBe(200);
      return res.body.money_added as boolean;
    };
    const credit = (userId: string, wallet: 'business' | 'working', amount: string) =>
      admin.post('/admin/adjustments', {
        user_id: userId,
        wallet,
        direction: 'credit',
        amount,
        reason: 'Test',
      });
    const send = (from: { client: ApiClient; auth: { id: string } }, toId: string, body: object) =>
      from.client.post('/transfer/touser', {
        userto_id: toId,
        user_id: from.auth.id,
        amount: '5.00',
        ...body,
      });

    // Income in Income Working, moved by the member into their own Active Wallet: no money was added.
    const earner = await fundedMember(server.baseUrl, admin, { working: '20.00' });
    expect(await added(earner)).toBe(false);
    const own = await send(earner, earner.auth.id, { from: 'working', to: 'business' });
    expect(own.status, own.text).toBe(201);
    expect((await earner.client.get('/wallet/balance')).body.business).toBe('5.00');
    expect(await added(earner)).toBe(false);

    // Another member's transfer into the Active Wallet is money added.
    const friend = await signedInMember(server.baseUrl);
    const sent = await send(earner, friend.auth.id, { from: 'business', to: 'business' });
    expect(sent.status, sent.text).toBe(201);
    expect(await added(friend)).toBe(true);

    // A credit by staff too, and it stays added once the money is spent.
    const funded = await fundedMember(server.baseUrl, admin);
    expect(await added(funded)).toBe(false);
    expect((await credit(funded.auth.id, 'business', '5.00')).status).toBe(201);
    expect(await added(funded)).toBe(true);
    const spent = await send(funded, earner.auth.id, { from: 'business', to: 'business' });
    expect(spent.status, spent.text).toBe(201);
    expect((await funded.client.get('/wallet/balance')).body).toEqual({
      business: '0.00',
      working: '0.00',
      money_added: true,
    });
  });
});

describe('GET /users?email=', () => {
  it('finds a member by exact e-mail, case-insensitively, with exactly id, fullname, username and email', async () => {
    const asker = await signedInMember(server.baseUrl);
    const target = await signedInMember(server.baseUrl);
    const expected = {
      emailuser: {
        id: target.auth.id,
        fullname: target.member.fullname,
        username: target.member.username,
        email: target.member.email,
      },
    };
    for (const email of [
      target.member.email,
      target.member.email.toUpperCase(),
      `  ${target.member.email} `,
    ]) {
      const res = await lookup(asker.client, email);
      expect(res.status, email).toBe(200);
      expect(res.body).toEqual(expected);
      expect(Object.keys(res.body.emailuser).sort()).toEqual(['email', 'fullname', 'id', 'username']);
    }
    // An admin may look members up too.
    const byAdmin = await lookup(admin, target.member.email);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual(expected);
  });

  it('answers 404 for an unknown e-mail, a partial one, a pattern, and an admin', async () => {
    const asker = await signedInMember(server.baseUrl);
    const target = await registerMember(server.baseUrl);
    const misses = [
      'nobody-here@example.com',
      target.email.slice(0, -1),
      target.email.slice(1),
      `${target.email.split('@')[0]}@%`,
      '%',
      '_%@example.com',
      ADMIN.email,
      ADMIN.email.toUpperCase(),
    ];
    for (const email of misses) {
      const res = await lookup(asker.client, email);
      expect(res.status, email).toBe(404);
      expect(res.body).toEqual({ message: WALLET_MESSAGES.noUserWithEmail });
    }
  });

  it('finds a member by username in any case, answering no e-mail: a username does not reveal an address', async () => {
    const asker = await signedInMember(server.baseUrl);
    const target = await signedInMember(server.baseUrl);
    for (const username of [
      target.member.username,
      target.member.username.toUpperCase(),
      ` ${target.member.username} `,
    ]) {
      const res = await asker.client.get(`/users?username=${encodeURIComponent(username)}`);
      expect(res.status, username).toBe(200);
      expect(res.body).toEqual({
        emailuser: { id: target.auth.id, fullname: target.member.fullname, username: target.member.username },
      });
    }
    // An admin has a username too, but is nobody to send money to.
    const root = await server.db
      .selectFrom('users')
      .select('username')
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    for (const username of ['nobody_here_at_all', target.member.username.slice(0, -1), '%', root.username]) {
      const res = await asker.client.get(`/users?username=${encodeURIComponent(username)}`);
      expect(res.status, username).toBe(404);
      expect(res.body).toEqual({ message: WALLET_MESSAGES.noUserWithUsername });
    }
  });

  it('answers 400 for neither e-mail nor username, or both, and looks nothing up', async () => {
    const asker = await signedInMember(server.baseUrl);
    const target = await signedInMember(server.baseUrl);
    for (const query of [
      '',
      `?email=${encodeURIComponent(target.member.email)}&username=${target.member.username}`,
    ]) {
      const res = await asker.client.get(`/users${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe(WALLET_MESSAGES.lookupOne);
    }
  });

  it('answers 401 when signed out', async () => {
    const target = await registerMember(server.baseUrl);
    const res = await lookup(new ApiClient(server.baseUrl), target.email);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: GENERIC.notSignedIn });
  });

  it('answers 429 with Retry-After after 60 lookups in a minute by one member, not to another', async () => {
    const asker = await signedInMember(server.baseUrl);
    const other = await signedInMember(server.baseUrl);
    const target = await registerMember(server.baseUrl);
    for (let i = 0; i < 60; i++) {
      const email = i % 2 === 0 ? target.email : `miss-${i}@example.com`;
      const res = await lookup(asker.client, email);
      expect(res.status, `lookup ${i + 1}`).toBe(i % 2 === 0 ? 200 : 404);
    }
    const refused = await lookup(asker.client, target.email);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await lookup(asker.client, target.email)).status).toBe(429);

    const res = await lookup(other.client, target.email);
    expect(res.status).toBe(200);
    expect(res.body.emailuser.email).toBe(target.email);
  });
});
