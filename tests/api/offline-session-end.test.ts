import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/http/tokens.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { OFFLINE_EXPIRES_HEADER, OFFLINE_OWNER_HEADER } from '../../src/shared/offline.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The offline copies never outlive the session: each copyable answer says when the session ends (its
// lifetime, or sooner its idle timeout), which the service worker keeps with the copy; sign-out and a 401
// for a session that has ended tell the browser to drop this site's storage and HTTP cache
// (Clear-Site-Data: "cache", "storage"; docs/rules.md "Offline copies").

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const sessionRow = (client: ApiClient) =>
  server.db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', hashToken(client.sid as string))
    .executeTakeFirstOrThrow();

const moveSession = (client: ApiClient, values: { expires_at?: string; last_seen_at?: string }) =>
  server.db
    .updateTable('sessions')
    .set(values)
    .where('id', '=', hashToken(client.sid as string))
    .execute();

describe('X-Offline-Expires', () => {
  it("says when the session ends: its idle end, or its lifetime's end when that comes first", async () => {
    const { client } = await signedInMember(server.baseUrl);
    const balance = await client.get('/wallet/balance');
    expect(balance.headers.get(OFFLINE_OWNER_HEADER)).toBeTruthy();
    const row = await sessionRow(client);
    const idleEnd = new Date(Date.parse(row.last_seen_at) + row.idle_seconds * 1000).toISOString();
    expect(balance.headers.get(OFFLINE_EXPIRES_HEADER)).toBe(idleEnd);

    const soon = new Date(Date.parse(row.last_seen_at) + 60_000).toISOString();
    await moveSession(client, { expires_at: soon });
    const again = await client.get('/notifications/home');
    expect(again.status).toBe(200);
    expect(again.headers.get(OFFLINE_EXPIRES_HEADER)).toBe(soon);
  });

  it('is on the copied answers only, never on an admin answer', async () => {
    const { client } = await signedInMember(server.baseUrl);
    expect((await client.get('/auth/session')).headers.get(OFFLINE_EXPIRES_HEADER)).toBeNull();
    const admin = await signedInAdminClient(server.baseUrl);
    expect((await admin.get('/notifications/home')).headers.get(OFFLINE_EXPIRES_HEADER)).toBeNull();
  });
});

describe('Clear-Site-Data', () => {
  it('sign-out answers "cache", "storage"', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const res = await client.post('/auth/signout');
    expect(res.status).toBe(200);
    expect(res.headers.get('clear-site-data')).toBe('"cache", "storage"');
  });

  it('a 401 for a session that has ended answers "cache", "storage" and expires the cookie; a call that sent none gets neither', async () => {
    const { client } = await signedInMember(server.baseUrl);
    await moveSession(client, { expires_at: new Date(Date.now() - 1000).toISOString() });
    const ended = await client.get('/wallet/balance');
    expect(ended.status).toBe(401);
    expect(ended.headers.get('clear-site-data')).toBe('"cache", "storage"');
    const cleared = ended.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cleared).toMatch(/expires=Thu, 01 Jan 1970/i);
    expect(client.sid).toBeUndefined();

    const stranger = await new ApiClient(server.baseUrl).get('/wallet/balance');
    expect(stranger.status).toBe(401);
    expect(stranger.headers.get('clear-site-data')).toBeNull();
    expect(stranger.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });
});
