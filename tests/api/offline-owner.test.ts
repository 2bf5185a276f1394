import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOfflineCopyPath, OFFLINE_COPY_PATHS, OFFLINE_OWNER_HEADER } from '../../src/shared/offline.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Offline copies (issue 6): the service worker keeps an answer only when the server marks it with the
// member it belongs to. Only the member's own transfers, balances and notifications are marked, only
// for that member, and never an admin's answer, an error, or any other call.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof signedInMember>>;
const ownCalls = (m: Member) => [
  `/transfer/byid/${m.auth.id}`,
  '/wallet/balance',
  '/notifications/home',
  `/notifications/user/${m.auth.id}`,
];

describe('X-Offline-Owner', () => {
  it("marks a member's own transfers, balances and notifications with that member's id", async () => {
    const member = await signedInMember(server.baseUrl);
    // The worker's list and the server's marks name the same calls, one each.
    const calls = ownCalls(member);
    expect(calls.every((path) => isOfflineCopyPath(`/api/v1${path}`))).toBe(true);
    for (const pattern of OFFLINE_COPY_PATHS)
      expect(
        calls.filter((path) => pattern.test(`/api/v1${path}`)),
        String(pattern),
      ).toHaveLength(1);
    for (const path of calls) {
      const res = await member.client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get(OFFLINE_OWNER_HEADER), path).toBe(member.auth.id);
    }
  });

  it("never marks an admin's reading of a member's data, nor a refused read of another member's", async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    for (const path of [`/transfer/byid/${a.auth.id}`, `/notifications/user/${a.auth.id}`]) {
      const byAdmin = await admin.get(path);
      expect(byAdmin.status, path).toBe(200);
      expect(byAdmin.headers.get(OFFLINE_OWNER_HEADER), path).toBeNull();
      const byOther = await b.client.get(path);
      expect(byOther.status, path).toBeGreaterThanOrEqual(400);
      expect(byOther.headers.get(OFFLINE_OWNER_HEADER), path).toBeNull();
    }
  });

  it('marks no other call, and nothing without a session', async () => {
    const member = await signedInMember(server.baseUrl);
    for (const path of [
      '/auth/session',
      `/users/${member.auth.id}`,
      '/notifications',
      `/tickets/${member.auth.id}`,
    ]) {
      const res = await member.client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get(OFFLINE_OWNER_HEADER), path).toBeNull();
    }
    const visitor = await fetch(`${server.baseUrl}/api/v1/wallet/balance`);
    expect(visitor.status).toBe(401);
    expect(visitor.headers.get(OFFLINE_OWNER_HEADER)).toBeNull();
  });
});
