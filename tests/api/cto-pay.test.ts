import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../src/server/http/session.ts';
import { ctoPreview, payCto } from '../../src/server/modules/cto/cto.service.ts';
import { CTO_MESSAGES as M, previousMonth } from '../../src/shared/cto.ts';
import type { ApiClient } from '../helpers/client.ts';
import { ctoWorld, nextMonth, thisMonth } from '../helpers/cto.ts';
import { expectBooksBalanced, type Member, member, workingCents } from '../helpers/income.ts';
import type { TestServer } from '../helpers/server.ts';

// CTO (issue 17 item 4, RULES.md): 1% of a month's deposits, split equally among the members holding
// the top two ranks of the reward ladder, paid once a month when an admin presses Pay: the month's row
// is the unique key, so concurrent Pays pay once. This month is paid as of next month (see helpers/cto.ts).

let server: TestServer;
let admin: ApiClient;
let adminSession: SessionUser;
let diamond: Member;
let gold: Member;
let bronze: Member;

beforeAll(async () => {
  // Team business: diamond 6,000, gold 1,500, bronze 200. Deposits this month: 1,000.00.
  ({
    server,
    admin,
    adminSession,
    leaders: [diamond, gold, bronze],
  } = await ctoWorld({ teamBusiness: ['6000', '1500', '200'], deposit: '1000', sessionId: 'cto-test' }));
});
afterAll(async () => server?.stop());

describe('CTO', () => {
  it('shows the month: deposits, the 1% pool, the top two ranks and who holds them', async () => {
    const preview = await ctoPreview(server.db, adminSession, thisMonth, nextMonth());
    expect(preview).toMatchObject({
      month: thisMonth,
      deposits: '1000.00',
      share_percent: '1.00',
      pool: '10.00',
      per_member: '5.00',
      ranks: ['Diamond', 'Gold'],
      payment: null,
    });
    expect(preview.qualifiers.map((q) => [q.user_id, q.rank, q.team_business])).toEqual([
      [diamond.id, 'Diamond', '6000.00'],
      [gold.id, 'Gold', '1500.00'],
    ]);
  });

  it('pays the month once, in equal shares, even to concurrent Pays', async () => {
    const before = await Promise.all([diamond, gold, bronze].map((m) => workingCents(server, m.id)));
    const answers = await Promise.allSettled(
      Array.from({ length: 5 }, () => payCto(server.db, adminSession, thisMonth, undefined, nextMonth())),
    );
    const paid = answers.filter((a) => a.status === 'fulfilled');
    expect(paid).toHaveLength(1);
    const refused = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(refused.map((r) => [r.reason.statusCode, r.reason.message])).toEqual(
      Array(4).fill([409, M.alreadyPaid]),
    );
    const after = await Promise.all([diamond, gold, bronze].map((m) => workingCents(server, m.id)));
    expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual([500, 500, 0]);
    const again = await payCto(server.db, adminSession, thisMonth, undefined, nextMonth()).catch(
      (e: { statusCode: number }) => e.statusCode,
    );
    expect(again).toBe(409);

    const list = await admin.get('/cto/list');
    expect(list.body.payments).toEqual([
      expect.objectContaining({ month: thisMonth, members: 2, per_member: '5.00', pool: '10.00' }),
    ]);
    const payouts = await admin.get(`/cto/transaction/${thisMonth}`);
    expect(
      payouts.body.payouts.map((p: { user_id: string; amount: string }) => [p.user_id, p.amount]).sort(),
    ).toEqual(
      [
        [diamond.id, '5.00'],
        [gold.id, '5.00'],
      ].sort(),
    );
    const mine = await gold.client.get(`/cto/byid/${gold.id}`);
    expect(mine.body.payouts).toEqual([
      expect.objectContaining({ month: thisMonth, rank: 'Gold', amount: '5.00' }),
    ]);
    expect((await gold.client.get(`/cto/byid/${diamond.id}`)).status).toBe(404);
    await expectBooksBalanced(admin);
  });

  it('pays only ended months, for admins only, and refuses a month with nothing to split', async () => {
    const current = await admin.post('/cto/pay', { month: thisMonth });
    expect(current.status).toBe(400);
    expect(current.body.errors).toEqual([{ field: 'month', message: M.monthInvalid }]);
    expect((await admin.post('/cto/pay', { month: '2026-13' })).status).toBe(400);
    expect((await admin.get('/cto/transaction/2026-1')).status).toBe(400);
    expect((await admin.get('/cto?month=someday')).status).toBe(400);
    expect((await diamond.client.post('/cto/pay', {})).status).toBe(403);
    expect((await diamond.client.get('/cto')).status).toBe(403);
    // Last month had no deposits: the pool is empty.
    const last = await admin.get(`/cto?month=${previousMonth()}`);
    expect(last.body).toMatchObject({ pool: '0.00', payment: null });
    const empty = await admin.post('/cto/pay', {});
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe(M.poolTooSmall);
    expect((await admin.get('/cto/list')).body.payments).toHaveLength(1);
  });

  it('lists the leadership by the highest rung reached, and each member’s own rank', async () => {
    const res = await admin.get('/leadership/list');
    expect(res.status).toBe(200);
    expect(
      res.body.leaders.map((l: { user_id: string; rank: string; team_business: string }) => [
        l.user_id,
        l.rank,
        l.team_business,
      ]),
    ).toEqual([
      [diamond.id, 'Diamond', '6000.00'],
      [gold.id, 'Gold', '1500.00'],
      [bronze.id, 'Bronze', '200.00'],
    ]);
    expect((await gold.client.get('/leadership/list')).status).toBe(403);
    expect((await gold.client.get(`/leadership/by/${gold.id}`)).body).toEqual({
      rank: 'Gold',
      team_business: '1500.00',
    });
    expect((await gold.client.get(`/leadership/by/${diamond.id}`)).status).toBe(404);
    const payer = await member(server, admin, undefined);
    expect((await payer.client.get(`/leadership/by/${payer.id}`)).body).toEqual({
      rank: null,
      team_business: '0.00',
    });
  });
});

describe('CTO and blocked members', () => {
  it('counts no blocked member among the qualifiers and splits the pool among the unblocked only', async () => {
    // Team business: 6,000, 1,500 and 1,200: three holders of the top two ranks, the third blocked.
    const world = await ctoWorld({
      teamBusiness: ['6000', '1500', '1200'],
      deposit: '1200',
      sessionId: 'cto-blocked-test',
    });
    try {
      const [top, second, blocked] = world.leaders;
      expect((await world.admin.put(`/users/${blocked.id}`, { status: 'block' })).status).toBe(200);
      const preview = await ctoPreview(world.server.db, world.adminSession, thisMonth, nextMonth());
      expect(preview).toMatchObject({ pool: '12.00', per_member: '6.00' });
      expect(preview.qualifiers.map((q) => q.user_id)).toEqual([top.id, second.id]);

      const before = await Promise.all(world.leaders.map((m) => workingCents(world.server, m.id)));
      await payCto(world.server.db, world.adminSession, thisMonth, undefined, nextMonth());
      const after = await Promise.all(world.leaders.map((m) => workingCents(world.server, m.id)));
      expect(after.map((cents, i) => cents - (before[i] ?? 0))).toEqual([600, 600, 0]);
      expect((await world.admin.get('/cto/list')).body.payments).toEqual([
        expect.objectContaining({ month: thisMonth, members: 2, per_member: '6.00', pool: '12.00' }),
      ]);
      await expectBooksBalanced(world.admin);
    } finally {
      await world.server.stop();
    }
  });
});
