import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { TRADE_MESSAGES } from '../../src/shared/trade.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// PUT /referral/self-trade/{userId}?pair= (spec 7 "Referral", docs/rules.md "Self-trade"): the member
// saves the market pair they trade themselves, no body; it is read back on their `auth` object. Only
// their own id (another member's is a 404); an admin may set any member's, audited. A pair outside the
// list is a 400 that changes nothing. Members in this file: 6.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof signedInMember>>;

const setPair = (client: ApiClient, id: string, pair: string, csrf = true) =>
  client.request('PUT', `/referral/self-trade/${id}?pair=${encodeURIComponent(pair)}`, { csrf });

/** The pair as the member reads it about themselves (GET /auth/session). */
const pairOf = async (m: Member) => {
  const res = await m.client.get('/auth/session');
  expect(res.status).toBe(200);
  return { pair: res.body.auth.self_trade_pair, at: res.body.auth.self_trade_updated_at };
};
const auditOf = async (id: string) => {
  const res = await admin.get(`/audit?member=${id}`);
  expect(res.status).toBe(200);
  return res.body.entries as { action: string; admin: { email: string }; before: unknown; after: unknown }[];
};

describe('PUT /referral/self-trade/{userId}', () => {
  it('saves the member’s own pair (any case in, upper-case stored), changes it later and reads it back', async () => {
    const m = await signedInMember(server.baseUrl);
    expect(m.auth.self_trade_pair).toBeNull();
    expect(await pairOf(m)).toEqual({ pair: null, at: null });

    const first = await setPair(m.client, m.auth.id, 'btcusdt');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: TRADE_MESSAGES.saved,
      pair: 'BTCUSDT',
      updated_at: expect.any(String),
    });
    expect(await pairOf(m)).toEqual({ pair: 'BTCUSDT', at: first.body.updated_at });

    const second = await setPair(m.client, m.auth.id, 'ETHUSDT');
    expect(second.status).toBe(200);
    expect(second.body.pair).toBe('ETHUSDT');
    expect(Date.parse(second.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.body.updated_at));
    expect((await pairOf(m)).pair).toBe('ETHUSDT');

    // A fresh sign-in carries it too, and the admin's member detail shows it.
    const again = await new ApiClient(server.baseUrl).signIn(m.member);
    expect(again.body.auth.self_trade_pair).toBe('ETHUSDT');
    expect((await admin.get(`/users/${m.auth.id}`)).body.singleuser.self_trade_pair).toBe('ETHUSDT');
    // The member's own choice is not an admin change: nothing in the audit log.
    expect(await auditOf(m.auth.id)).toEqual([]);
  });

  it('refuses a pair outside the list, or none, with a 400 that changes nothing', async () => {
    const m = await signedInMember(server.baseUrl);
    expect((await setPair(m.client, m.auth.id, 'SOLUSDT')).status).toBe(200);
    const before = await pairOf(m);
    for (const bad of ['SHIBUSDT', 'BTC/USDT', 'BTCUSD', '', "BTCUSDT' OR '1'='1"]) {
      const res = await setPair(m.client, m.auth.id, bad);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(TRADE_MESSAGES.pairUnknown);
      expect(res.body.errors).toEqual([{ field: 'pair', message: TRADE_MESSAGES.pairUnknown }]);
    }
    const missing = await m.client.put(`/referral/self-trade/${m.auth.id}`);
    expect(missing.status).toBe(400);
    expect(await pairOf(m)).toEqual(before);
  });

  it('answers 404 for another member’s id and for an unknown id, and leaves the other member’s pair alone', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    expect((await setPair(b.client, b.auth.id, 'XRPUSDT')).status).toBe(200);
    for (const id of [b.auth.id, 'no-such-id']) {
      const res = await setPair(a.client, id, 'DOGEUSDT');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: TRADE_MESSAGES.noMember });
    }
    expect((await pairOf(b)).pair).toBe('XRPUSDT');
    expect((await pairOf(a)).pair).toBeNull();
  });

  it('refuses a call without the CSRF header (403) and a signed-out one (401)', async () => {
    const m = await signedInMember(server.baseUrl);
    const noCsrf = await setPair(m.client, m.auth.id, 'BNBUSDT', false);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.message).toBe(GENERIC.csrf);

    const anonymous = new ApiClient(server.baseUrl);
    const signedOut = await setPair(anonymous, m.auth.id, 'BNBUSDT');
    expect(signedOut.status).toBe(401);
    expect((await pairOf(m)).pair).toBeNull();
  });

  it('lets an admin set a member’s pair, audited with before and after; not an admin’s own, which has none', async () => {
    const m = await signedInMember(server.baseUrl);
    expect((await setPair(m.client, m.auth.id, 'ADAUSDT')).status).toBe(200);

    const res = await setPair(admin, m.auth.id, 'trxusdt');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: TRADE_MESSAGES.saved, pair: 'TRXUSDT' });
    expect((await pairOf(m)).pair).toBe('TRXUSDT');
    const [entry, ...more] = await auditOf(m.auth.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'user.self_trade',
      before: { self_trade_pair: 'ADAUSDT' },
      after: { self_trade_pair: 'TRXUSDT' },
    });

    // The same pair again changes nothing and adds no entry.
    expect((await setPair(admin, m.auth.id, 'TRXUSDT')).status).toBe(200);
    expect(await auditOf(m.auth.id)).toHaveLength(1);

    // Admins trade nothing here: an admin's id is not a member's.
    const session = await admin.get('/auth/session');
    const own = await setPair(admin, session.body.admin.id, 'BTCUSDT');
    expect(own.status).toBe(404);
  });
});
