import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/http/tokens.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { DEFAULT_SETTINGS, settingRangeMessage } from '../../src/shared/settings.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The idle timeout beside the absolute lifetimes: a session unused for longer than its idle timeout
// (admins 30 minutes, members 2 hours by default; settings) ends, and the next call is a 401. Each
// signed-in call renews the session's last-seen time, written at most once a minute. Time is moved by
// moving the session's last-seen time in the database, never by waiting.

const MINUTE = 60_000;

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const sessionIdOf = (client: ApiClient) => hashToken(client.sid as string);

async function lastSeenOf(client: ApiClient): Promise<string | undefined> {
  const row = await server.db
    .selectFrom('sessions')
    .select('last_seen_at')
    .where('id', '=', sessionIdOf(client))
    .executeTakeFirst();
  return row?.last_seen_at;
}

/** The session as if its last call was `ms` ago. */
async function lastSeenAgo(client: ApiClient, ms: number): Promise<string> {
  const at = new Date(Date.now() - ms).toISOString();
  await server.db
    .updateTable('sessions')
    .set({ last_seen_at: at })
    .where('id', '=', sessionIdOf(client))
    .execute();
  return at;
}

describe('the idle timeout settings', () => {
  it('default to 30 minutes for admins and 2 hours for members, within bounds', async () => {
    expect(DEFAULT_SETTINGS.admin_idle_seconds).toBe(30 * 60);
    expect(DEFAULT_SETTINGS.member_idle_seconds).toBe(2 * 60 * 60);
    const settings = (await admin.get('/settings')).body.settings;
    expect(settings).toMatchObject({ admin_idle_seconds: 1800, member_idle_seconds: 7200 });
    for (const [name, value] of [
      ['admin_idle_seconds', 4 * 60],
      ['admin_idle_seconds', 24 * 3600 + 1],
      ['member_idle_seconds', 4 * 60],
      ['member_idle_seconds', 90 * 86_400 + 1],
    ] as const) {
      const res = await admin.put('/settings', { [name]: value });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: name, message: settingRangeMessage(name) }]);
    }
  });
});

describe('a member session left idle', () => {
  it('ends once unused for longer than the idle timeout: 401, and it stays ended', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const sid = client.sid as string;
    await lastSeenAgo(client, 2 * 60 * MINUTE + MINUTE);
    const res = await client.get('/auth/session');
    expect(res.status).toBe(401);
    const gone = await server.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', hashToken(sid))
      .executeTakeFirst();
    expect(gone).toBeUndefined();
    const replay = new ApiClient(server.baseUrl);
    replay.cookies.set(SESSION_COOKIE, sid);
    expect((await replay.get('/auth/session')).status).toBe(401);
  });

  it('goes on when used within the idle timeout, and the call renews its last-seen time', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const moved = await lastSeenAgo(client, 2 * 60 * MINUTE - 5 * MINUTE);
    expect((await client.get('/auth/session')).status).toBe(200);
    const renewed = await lastSeenOf(client);
    expect(renewed && renewed > moved).toBe(true);
    // Renewed: as long again from now.
    expect(Date.parse(renewed as string)).toBeGreaterThan(Date.now() - MINUTE);
  });

  it('is written at most about once a minute: calls close together do not write', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const seen = await lastSeenAgo(client, 10_000);
    for (let i = 0; i < 3; i += 1) expect((await client.get('/auth/session')).status).toBe(200);
    expect(await lastSeenOf(client)).toBe(seen);
    await lastSeenAgo(client, 2 * MINUTE);
    expect((await client.get('/auth/session')).status).toBe(200);
    expect(Date.parse((await lastSeenOf(client)) as string)).toBeGreaterThan(Date.now() - MINUTE);
  });

  it('leaves the signed-in devices list', async () => {
    const { member, client } = await signedInMember(server.baseUrl);
    const second = new ApiClient(server.baseUrl);
    await second.signIn(member);
    expect((await client.get('/auth/sessions')).body.sessions).toHaveLength(2);
    await lastSeenAgo(second, 3 * 60 * MINUTE);
    expect((await client.get('/auth/sessions')).body.sessions).toHaveLength(1);
  });

  it('follows a changed setting for sessions signed in after it', async () => {
    expect((await admin.put('/settings', { member_idle_seconds: 10 * 60 })).status).toBe(200);
    try {
      const { client } = await signedInMember(server.baseUrl);
      await lastSeenAgo(client, 11 * MINUTE);
      expect((await client.get('/auth/session')).status).toBe(401);
    } finally {
      expect((await admin.put('/settings', { member_idle_seconds: 7200 })).status).toBe(200);
    }
  });
});

describe('an admin session left idle', () => {
  it('ends after 30 minutes unused, and goes on within them', async () => {
    const idle = await signedInAdminClient(server.baseUrl);
    await lastSeenAgo(idle, 31 * MINUTE);
    expect((await idle.get('/settings')).status).toBe(401);

    const busy = await signedInAdminClient(server.baseUrl);
    await lastSeenAgo(busy, 29 * MINUTE);
    expect((await busy.get('/settings')).status).toBe(200);
  });
});
