import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOf, type LiveStream, openStream, sleep } from '../fixtures/live-stream.ts';
import { ApiClient, signedInMember } from '../helpers/client.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { startServerProcess } from '../helpers/server-process.ts';

// DESIGN.md "Scaling out": two real server processes on one PostgreSQL database. A notification
// created through one instance reaches the member's tabs open on the other (LISTEN/NOTIFY), and a
// member's tabs spread over both instances all get it. This suite always runs on PostgreSQL (in a
// schema of its own): live delivery between instances is a PostgreSQL feature by design.

const ADMIN = { email: 'two-instances-admin@example.com', password: 'Two-Instances-Pass-2026' };
const schema = `t_live_${randomBytes(5).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'platform-two-'));
const children: ChildProcess[] = [];
const streams: LiveStream[] = [];
let urls: string[] = [];

async function startInstance(name: string): Promise<string> {
  const instance = await startServerProcess(
    {
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    join(dataDir, name),
  );
  children.push(instance.child);
  return instance.url;
}

beforeAll(async () => {
  await adminQuery(`create schema ${schema}`);
  // One after the other: the first migrates the schema and creates the admin.
  urls = [await startInstance('one'), await startInstance('two')];
}, 120_000);

afterAll(async () => {
  for (const s of streams) s.close();
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await adminQuery(`drop schema ${schema} cascade`);
  rmSync(dataDir, { recursive: true, force: true });
});

const open = async (baseUrl: string, client: ApiClient) => {
  const stream = await openStream(baseUrl, client.cookieHeader());
  expect(stream.status).toBe(200);
  streams.push(stream);
  await stream.waitFor((m) => m.some((x) => x.topic === 'ready'));
  return stream;
};
const notifications = (s: LiveStream) => countOf(s.messages, 'notifications');

describe('live delivery across two server instances on one PostgreSQL', () => {
  it('delivers a notification made on one instance to tabs open on both', async () => {
    const [one = '', two = ''] = urls;
    const admin = new ApiClient(one);
    await admin.signIn(ADMIN, '/auth/adminsignin');
    const a = await signedInMember(one);
    const b = await signedInMember(two);
    const bystander = await signedInMember(one);

    // A's session (made on instance one) works on instance two: sessions live in the database.
    const aOnOne = await open(one, a.client);
    const aOnTwo = await open(two, a.client);
    const bOnTwo = await open(two, b.client);
    const bystanderOnTwo = await open(two, bystander.client);

    const created = await admin.post('/notifications', {
      title: 'Across instances',
      message: 'Hello from instance one',
      users: false,
      recipients: [a.auth.id, b.auth.id],
    });
    expect(created.status).toBe(201);
    for (const s of [aOnOne, aOnTwo, bOnTwo]) await s.waitFor(() => notifications(s) === 1);

    // The other way round: an admin on instance two, a tab on instance one.
    const adminOnTwo = new ApiClient(two);
    await adminOnTwo.signIn(ADMIN, '/auth/adminsignin');
    const all = await adminOnTwo.post('/notifications', { title: 'Everyone', message: 'From two' });
    expect(all.status).toBe(201);
    for (const s of [aOnOne, aOnTwo, bOnTwo]) await s.waitFor(() => notifications(s) === 2);
    await bystanderOnTwo.waitFor(() => notifications(bystanderOnTwo) === 1);
    await sleep(300);
    // Exactly once per tab, and nothing for a member a notification was not for.
    expect([aOnOne, aOnTwo, bOnTwo, bystanderOnTwo].map(notifications)).toEqual([2, 2, 2, 1]);

    // Both instances read the same notifications.
    const listOnTwo = await new ApiClient(two).request('GET', `/notifications/user/${a.auth.id}`, {
      headers: { cookie: a.client.cookieHeader() },
    });
    expect(listOnTwo.body.notifications.map((n: { title: string }) => n.title)).toEqual([
      'Everyone',
      'Across instances',
    ]);
  });

  it('keeps delivering after the database drops the listening connections (each tab is told to refetch)', async () => {
    const [one = '', two = ''] = urls;
    const admin = new ApiClient(one);
    await admin.signIn(ADMIN, '/auth/adminsignin');
    const a = await signedInMember(two);
    const tab = await open(two, a.client);

    await adminQuery(
      `select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN "live_${schema}"'`,
    );
    // The listener reconnects and, having perhaps missed something, asks every tab to refetch.
    await tab.waitFor((m) => m.some((x) => x.topic === '*'), 15_000);

    const created = await admin.post('/notifications', {
      title: 'After the drop',
      message: 'Still live',
      users: false,
      recipients: [a.auth.id],
    });
    expect(created.status).toBe(201);
    await tab.waitFor(() => notifications(tab) === 1);
  }, 30_000);
});
