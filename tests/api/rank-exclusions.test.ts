import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../src/server/http/session.ts';
import { ctoPreview, payCto } from '../../src/server/modules/cto/cto.service.ts';
import { CTO_MESSAGES } from '../../src/shared/cto.ts';
import { EXCLUSION_MESSAGES as M } from '../../src/shared/rank-exclusions.ts';
import type { ApiClient } from '../helpers/client.ts';
import { ctoWorld, nextMonth, thisMonth } from '../helpers/cto.ts';
import { expectBooksBalanced, type Member, workingCents } from '../helpers/income.ts';
import type { TestServer } from '../helpers/server.ts';

// The spec's DELETE /leadership/{id} and PUT /cto/{id} ("used as a delete"), RULES.md "Rewards, salary,
// CTO, leadership": an admin's exclusions of a member, audited and undone by a restore. Leadership: off
// the list, rank and rewards unchanged. CTO: out of the split of every month not yet paid, read by Pay
// inside its transaction; a paid month stays as paid. As in cto-pay.test.ts, this month's deposits are
// paid through the service as of next month (the real service on the real database, the clock moved on).

let server: TestServer;
let admin: ApiClient;
let adminId: string;
let adminSession: SessionUser;
let diamond: Member;
let gold: Member;
let silver: Member; // holds Gold too, with less business
let bronze: Member;
const del = (client: ApiClient, path: string) => client.request('DELETE', path);
const leaderIds = async () =>
  (await admin.get('/leadership/list')).body.leaders.map((l: { user_id: string }) => l.user_id);
const auditOf = (action: string, userId: string) =>
  server.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', userId)
    .execute();

beforeAll(async () => {
  // Team business: diamond 6,000, gold 1,500, silver 1,200 (Gold), bronze 200. Deposits this month:
  // 900.00, so the pool is 9.00 (3.00 each among three, 4.50 each among two).
  ({
    server,
    admin,
    adminId,
    adminSession,
    leaders: [diamond, gold, silver, bronze],
  } = await ctoWorld({
    teamBusiness: ['6000', '1500', '1200', '200'],
    deposit: '900',
    sessionId: 'exclusions-test',
  }));
});
afterAll(async () => server?.stop());

describe('leadership: DELETE /leadership/{id}', () => {
  it('takes a member off the list, keeps their own rank and rewards, and restores them', async () => {
    expect(await leaderIds()).toEqual([diamond.id, gold.id, silver.id, bronze.id]);
    const rewardsBefore = (await silver.client.get(`/rewards/user/${silver.id}`)).body;

    const removed = await del(admin, `/leadership/${silver.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ message: M.leadershipRemoved });
    expect(await leaderIds()).toEqual([diamond.id, gold.id, bronze.id]);
    const list = (await admin.get('/leadership/list')).body;
    expect(list.removed).toEqual([
      expect.objectContaining({ user_id: silver.id, username: silver.username, reason: null }),
    ]);
    // Their own standing is the same.
    expect((await silver.client.get(`/leadership/by/${silver.id}`)).body).toEqual({
      rank: 'Gold',
      team_business: '1200.00',
    });
    expect((await admin.get(`/leadership/by/${silver.id}`)).body.rank).toBe('Gold');
    expect((await silver.client.get(`/rewards/user/${silver.id}`)).body).toEqual(rewardsBefore);
    // The leadership list is not the CTO: silver still qualifies there.
    const preview = await ctoPreview(server.db, adminSession, thisMonth, nextMonth());
    expect(preview.qualifiers.find((q) => q.user_id === silver.id)).toMatchObject({ excluded: false });

    // Removing again answers the same and changes nothing; one audit entry.
    const again = await del(admin, `/leadership/${silver.id}`);
    expect([again.status, again.body]).toEqual([200, { message: M.leadershipRemoved }]);
    expect((await admin.get('/leadership/list')).body.removed).toHaveLength(1);
    const audit = await auditOf('leadership.remove', silver.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: adminId, target_type: 'user' });

    const restored = await admin.post(`/leadership/${silver.id}/restore`);
    expect([restored.status, restored.body]).toEqual([200, { message: M.leadershipRestored }]);
    expect(await leaderIds()).toEqual([diamond.id, gold.id, silver.id, bronze.id]);
    expect((await admin.get('/leadership/list')).body.removed).toEqual([]);
    const restoredAgain = await admin.post(`/leadership/${silver.id}/restore`);
    expect([restoredAgain.status, restoredAgain.body]).toEqual([200, { message: M.leadershipRestored }]);
    const restoreAudit = await auditOf('leadership.restore', silver.id);
    expect(restoreAudit).toHaveLength(1);
    expect(restoreAudit[0]).toMatchObject({ actor_id: adminId, target_type: 'user' });
  });

  it('is for admins only, and 404 for anyone who is not a member', async () => {
    expect((await del(gold.client, `/leadership/${silver.id}`)).status).toBe(403);
    expect((await gold.client.post(`/leadership/${silver.id}/restore`)).status).toBe(403);
    const unknown = await del(admin, '/leadership/no-such-member');
    expect([unknown.status, unknown.body.message]).toEqual([404, M.memberNotFound]);
    expect((await admin.post('/leadership/no-such-member/restore')).status).toBe(404);
    // An admin is not a member: nothing to take off.
    expect((await del(admin, `/leadership/${adminId}`)).status).toBe(404);
    expect(await leaderIds()).toEqual([diamond.id, gold.id, silver.id, bronze.id]);
    expect((await admin.get('/leadership/list')).body.removed).toEqual([]);
  });
});

describe('CTO: PUT /cto/{id}', () => {
  it('refuses bad input, non-admins and unknown members, and changes nothing', async () => {
    const long = await admin.put(`/cto/${silver.id}`, { reason: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ field: 'reason', message: M.reasonInvalid }]);
    const notText = await admin.put(`/cto/${silver.id}`, { reason: 5 });
    expect(notText.status).toBe(400);
    expect((await gold.client.put(`/cto/${silver.id}`, {})).status).toBe(403);
    expect((await gold.client.post(`/cto/${silver.id}/restore`)).status).toBe(403);
    const unknown = await admin.put('/cto/no-such-member', {});
    expect([unknown.status, unknown.body.message]).toEqual([404, M.memberNotFound]);
    expect((await admin.post('/cto/no-such-member/restore')).status).toBe(404);
    const preview = await ctoPreview(server.db, adminSession, thisMonth, nextMonth());
    expect(preview.excluded).toEqual([]);
    expect(preview.qualifiers.map((q) => [q.user_id, q.excluded])).toEqual([
      [diamond.id, false],
      [gold.id, false],
      [silver.id, false],
    ]);
    expect(preview.per_member).toBe('3.00');
    expect(await auditOf('cto.exclude', silver.id)).toEqual([]);
  });

  it('with everyone excluded, Pay refuses as with nobody to pay, and restore brings them back', async () => {
    for (const m of [diamond, gold, silver])
      expect((await admin.put(`/cto/${m.id}`, { reason: 'House account' })).status).toBe(200);
    const preview = (await admin.get('/cto')).body;
    expect(preview.qualifiers.every((q: { excluded: boolean }) => q.excluded)).toBe(true);
    expect(preview.per_member).toBe('0.00');
    const refused = await admin.post('/cto/pay', {});
    expect([refused.status, refused.body.message]).toEqual([422, CTO_MESSAGES.nobody]);
    for (const m of [diamond, gold]) {
      const back = await admin.post(`/cto/${m.id}/restore`);
      expect([back.status, back.body]).toEqual([200, { message: M.ctoRestored }]);
    }
    expect((await admin.get('/cto')).body.excluded.map((x: { user_id: string }) => x.user_id)).toEqual([
      silver.id,
    ]);
  });

  it('pays the whole pool to the others, nothing to the excluded, and the books reconcile', async () => {
    // silver is excluded (from the test before), with a reason; excluding again changes nothing.
    const again = await admin.put(`/cto/${silver.id}`, { reason: 'Another reason' });
    expect([again.status, again.body]).toEqual([200, { message: M.ctoExcluded }]);
    const exclusions = await auditOf('cto.exclude', silver.id);
    expect(exclusions).toHaveLength(1);
    expect(exclusions[0]).toMatchObject({ actor_id: adminId, target_type: 'user', reason: 'House account' });

    const preview = await ctoPreview(server.db, adminSession, thisMonth, nextMonth());
    expect(preview).toMatchObject({ pool: '9.00', per_member: '4.50' });
    expect(preview.qualifiers.map((q) => [q.user_id, q.excluded])).toEqual([
      [diamond.id, false],
      [gold.id, false],
      [silver.id, true],
    ]);
    expect(preview.excluded).toEqual([
      expect.objectContaining({ user_id: silver.id, reason: 'House account' }),
    ]);

    const before = await Promise.all([diamond, gold, silver].map((m) => workingCents(server, m.id)));
    const outcome = await payCto(server.db, adminSession, thisMonth, undefined, nextMonth());
    expect(outcome.statusCode).toBe(201);
    const after = await Promise.all([diamond, gold, silver].map((m) => workingCents(server, m.id)));
    expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual([450, 450, 0]);
    const payouts = (await admin.get(`/cto/transaction/${thisMonth}`)).body.payouts;
    expect(payouts.map((p: { user_id: string; amount: string }) => [p.user_id, p.amount]).sort()).toEqual(
      [
        [diamond.id, '4.50'],
        [gold.id, '4.50'],
      ].sort(),
    );
    expect((await admin.get('/cto/list')).body.payments).toEqual([
      expect.objectContaining({ month: thisMonth, members: 2, pool: '9.00', per_member: '4.50' }),
    ]);
    const audit = await server.db
      .selectFrom('audit_log')
      .select('after_json')
      .where('action', '=', 'cto.pay')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after_json ?? '{}')).toMatchObject({ members: 2, excluded: [silver.id] });
    await expectBooksBalanced(admin);
  });

  it('leaves a paid month as paid when a member is excluded or restored later', async () => {
    const wallets = async () => Promise.all([diamond, gold, silver].map((m) => workingCents(server, m.id)));
    const before = await wallets();
    expect((await admin.put(`/cto/${diamond.id}`, {})).status).toBe(200);
    expect((await admin.post(`/cto/${silver.id}/restore`)).status).toBe(200);
    expect(await auditOf('cto.restore', silver.id)).toHaveLength(1);

    const preview = await ctoPreview(server.db, adminSession, thisMonth, nextMonth());
    expect(preview.payment).toMatchObject({ members: 2, per_member: '4.50', pool: '9.00' });
    const payouts = (await admin.get(`/cto/transaction/${thisMonth}`)).body.payouts;
    expect(payouts.map((p: { user_id: string; amount: string }) => [p.user_id, p.amount]).sort()).toEqual(
      [
        [diamond.id, '4.50'],
        [gold.id, '4.50'],
      ].sort(),
    );
    expect((await diamond.client.get(`/cto/byid/${diamond.id}`)).body.payouts).toEqual([
      expect.objectContaining({ month: thisMonth, amount: '4.50' }),
    ]);
    expect(await wallets()).toEqual(before);
    const twice = await payCto(server.db, adminSession, thisMonth, undefined, nextMonth()).catch(
      (e: { statusCode: number }) => e.statusCode,
    );
    expect(twice).toBe(409);
    expect(await wallets()).toEqual(before);
    await expectBooksBalanced(admin);
  });
});
