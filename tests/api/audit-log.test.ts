import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/server/modules/users/admins.service.ts';
import { AUDIT_PAGE_SIZE } from '../../src/shared/audit.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /audit (RULES.md "Accounts"): every admin change to a member, money or settings, with who, what,
// before, after and when; newest first, paged, filterable by member (id, e-mail or username) and admin.
// Admins only. Members in this file: 7.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
let second: ApiClient;
let secondId: string;
const SECOND = { email: 'second-admin@example.com', password: 'Second-Admin-Pass-2026' };

beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (await admin.get('/auth/session')).body.admin.id;
  const created = await createAdmin(server.db, {
    ...SECOND,
    username: 'second_admin',
    fullname: 'Second Admin',
  });
  secondId = created.admin.id;
  second = new ApiClient(server.baseUrl);
  await second.signIn(SECOND, '/auth/adminsignin');
});
afterAll(async () => server?.stop());

type Entry = {
  id: string;
  created_at: string;
  action: string;
  admin: { id: string; fullname: string; email: string };
  target_type: string;
  target_id: string;
  member: { id: string; fullname: string; email: string; erased: boolean } | null;
  before: unknown;
  after: unknown;
  reason: string | null;
};
const log = async (query = '') => {
  const res = await admin.get(`/audit${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    entries: Entry[];
    total: number;
    page: number;
    limit: number;
    total_pages: number;
    admins: unknown[];
  };
};

describe('who may read the audit log', () => {
  it('answers 401 signed out and 403 to a member, whatever the filter', async () => {
    expect((await new ApiClient(server.baseUrl).get('/audit')).status).toBe(401);
    const { client, auth } = await signedInMember(server.baseUrl);
    for (const path of ['/audit', `/audit?member=${auth.id}`, `/audit?admin=${adminId}`]) {
      const res = await client.get(path);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: GENERIC.forbidden });
    }
  });
});

describe('GET /audit', () => {
  it('records member edits, money adjustments, transfer decisions, session ends and deletions with who, what, before, after and when', async () => {
    const started = new Date().toISOString();
    const sender = await fundedMember(server.baseUrl, admin, { business: '6000.00' });
    const recipient = await signedInMember(server.baseUrl);
    const sent = await sender.client.post('/transfer/touser', {
      userto_id: recipient.auth.id,
      amount: '5000.00',
      from: 'business',
      to: 'business',
    });
    expect(sent.status).toBe(201);
    const decided = await second.put(`/transfer/${sent.body.transfer.id}/status`, {
      status: 'failed',
      reason: 'Looks like a mistake',
    });
    expect(decided.status).toBe(200);
    expect(
      (await admin.put(`/users/${sender.auth.id}`, { fullname: 'Renamed Sender', roi_status: 'close' }))
        .status,
    ).toBe(200);
    expect((await second.request('DELETE', `/users/${recipient.auth.id}/sessions`)).status).toBe(200);

    const { entries } = await log(`member=${sender.auth.id}`);
    expect(entries.map((e) => e.action).sort()).toEqual(
      ['transfer.reject', 'user.update', 'user.update', 'wallet.credit'].sort(),
    );
    expect(entries.map((e) => e.created_at)).toEqual(
      entries
        .map((e) => e.created_at)
        .sort()
        .reverse(),
    );
    for (const e of entries) expect(e.created_at >= started).toBe(true);
    const find = (action: string, key?: string) =>
      entries.find((e) => e.action === action && (!key || Object.hasOwn(e.after as object, key))) as Entry;
    const [edit, reject, credit, activate] = [
      find('user.update', 'fullname'),
      find('transfer.reject'),
      find('wallet.credit'),
      find('user.update', 'is_active'),
    ];
    expect(edit).toMatchObject({
      admin: { id: adminId, email: 'root-admin@example.com' },
      target_type: 'user',
      target_id: sender.auth.id,
      member: { id: sender.auth.id, fullname: 'Renamed Sender', email: sender.member.email, erased: false },
      before: { fullname: sender.member.fullname, roi_status: 'open' },
      after: { fullname: 'Renamed Sender', roi_status: 'close' },
      reason: null,
    });
    expect(reject).toMatchObject({
      admin: { id: secondId, fullname: 'Second Admin', email: SECOND.email },
      target_type: 'transfer',
      target_id: sent.body.transfer.id,
      member: null,
      before: { status: 'pending', amount: '5000.00' },
      after: { status: 'failed' },
      reason: 'Looks like a mistake',
    });
    expect(credit).toMatchObject({
      action: 'wallet.credit',
      before: { business: '0.00', working: '0.00' },
      after: { business: '6000.00', working: '0.00' },
      reason: 'Test funding',
    });
    expect(activate).toMatchObject({ before: { is_active: 'inactive' }, after: { is_active: 'active' } });

    // The recipient's entries: the same transfer decision (it touched their wallet) and the session end.
    const theirs = await log(`member=${recipient.auth.id}`);
    expect(theirs.entries.map((e) => e.action).sort()).toEqual(['transfer.reject', 'user.sessions_end']);
    expect(theirs.entries.find((e) => e.action === 'user.sessions_end')).toMatchObject({
      admin: { id: secondId },
      after: { sessions_ended: 1 },
    });
  });

  it('finds a member by id, e-mail or username (any case), and an admin’s changes by the admin', async () => {
    const member = await fundedMember(server.baseUrl, admin, { working: '1.00' });
    expect((await second.put(`/users/${member.auth.id}`, { level_status: 'close' })).status).toBe(200);
    const byId = await log(`member=${member.auth.id}`);
    expect(byId.total).toBe(3);
    for (const key of [member.member.email.toUpperCase(), member.member.username.toUpperCase()]) {
      const found = await log(`member=${encodeURIComponent(key)}`);
      expect(found.entries.map((e) => e.id)).toEqual(byId.entries.map((e) => e.id));
    }
    const bySecond = await log(`member=${member.auth.id}&admin=${secondId}`);
    expect(bySecond.entries.map((e) => [e.action, e.after])).toEqual([
      ['user.update', { level_status: 'close' }],
    ]);
    const everythingBySecond = await log(`admin=${secondId}`);
    expect(everythingBySecond.entries.length).toBeGreaterThan(0);
    expect(everythingBySecond.entries.every((e) => e.admin.id === secondId)).toBe(true);
    const byRoot = await log(`admin=${adminId}`);
    expect(byRoot.entries.every((e) => e.admin.id === adminId)).toBe(true);
    expect(byRoot.total + everythingBySecond.total).toBe((await log()).total);
    expect((await log('member=nobody-at-all@example.com')).entries).toEqual([]);
  });

  it('keeps an erased member’s entries, named as they were', async () => {
    const member = await signedInMember(server.baseUrl);
    expect((await admin.put(`/users/${member.auth.id}`, { address: 'Old street 1' })).status).toBe(200);
    expect((await admin.request('DELETE', `/users/${member.auth.id}`)).body.outcome).toBe('erased');
    const { entries } = await log(`member=${member.auth.id}`);
    expect(entries.map((e) => e.action).sort()).toEqual(['user.delete', 'user.update']);
    expect(entries.find((e) => e.action === 'user.delete')).toMatchObject({
      member: {
        id: member.auth.id,
        fullname: member.member.fullname,
        email: member.member.email,
        erased: true,
      },
      before: { email: member.member.email, username: member.member.username },
      after: null,
    });
  });

  it('pages newest first and lists the admins for the filter', async () => {
    const member = await signedInMember(server.baseUrl);
    for (let i = 0; i < AUDIT_PAGE_SIZE + 3; i++) {
      const res = await admin.put(`/users/${member.auth.id}`, { address: `Street ${i}` });
      expect(res.status).toBe(200);
      // Entries of the same millisecond have no order between them; these are a few apart.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await log(`member=${member.auth.id}`);
    expect(first).toMatchObject({
      total: AUDIT_PAGE_SIZE + 3,
      page: 1,
      limit: AUDIT_PAGE_SIZE,
      total_pages: 2,
    });
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries[0]?.after).toEqual({ address: `Street ${AUDIT_PAGE_SIZE + 2}` });
    const times = first.entries.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const page2 = await log(`member=${member.auth.id}&page=2`);
    expect(page2.entries.map((e) => e.after)).toEqual([
      { address: 'Street 2' },
      { address: 'Street 1' },
      { address: 'Street 0' },
    ]);
    expect(first.admins).toEqual(
      expect.arrayContaining([
        { id: adminId, fullname: 'Administrator', email: 'root-admin@example.com' },
        { id: secondId, fullname: 'Second Admin', email: SECOND.email },
      ]),
    );
  });

  it.each(['page=0', 'page=x', 'page=-2', `member=${'m'.repeat(300)}`])('%s is a 400', async (query) => {
    const res = await admin.get(`/audit?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });
});
