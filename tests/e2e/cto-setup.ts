import { join } from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import SQLite from '../../src/server/db/sqlite.ts';
import {
  creditByApi,
  csrfHeaders,
  type Member,
  memberIdOf,
  newMember,
  referralCodeOf,
  registerByApi,
  signInAdminByApi,
  signInByApi,
} from './helpers.ts';

// What the CTO specs share. The CTO is split among the holders of the ladder's top two ranks, so a spec
// puts two rungs of its own above the rest of the ladder (business 60 and 70) and gives its leader a
// direct member who invests 80: the leader holds the top rank for the length of the spec. cleanUp
// deletes the rungs and closes the plan, so later tests see the ladder as it was.

export type TopRankLeader = {
  tag: string;
  leader: Member;
  leaderId: string;
  direct: Member;
  directId: string;
  /** The direct member's signed-in API context (disposed by cleanUp). */
  directApi: APIRequestContext;
  cleanUp: () => Promise<void>;
};

export async function topRankLeader(
  admin: APIRequestContext,
  newContext: () => Promise<APIRequestContext>,
): Promise<TopRankLeader> {
  const tag = Date.now().toString(36);
  const leader = newMember('ctolead');
  const direct = newMember('ctodir');
  const leaderApi = await newContext();
  const directApi = await newContext();
  const rungIds: string[] = [];
  let planId = '';
  const cleanUp = async () => {
    for (const id of rungIds) {
      const gone = await admin.delete(`/api/v1/rewards/${id}`, { headers: await csrfHeaders(admin) });
      expect(gone.status(), await gone.text()).toBe(200);
    }
    if (planId) {
      const closed = await admin.put(`/api/v1/plans/${planId}`, {
        headers: await csrfHeaders(admin),
        data: { status: 'inactive' },
      });
      expect(closed.status(), await closed.text()).toBe(200);
    }
    await Promise.all([leaderApi.dispose(), directApi.dispose()]);
  };
  try {
    await signInAdminByApi(admin);
    for (const [rank, business_needed] of [
      [`E2E CTO Gold ${tag}`, '60'],
      [`E2E CTO Diamond ${tag}`, '70'],
    ]) {
      const rung = await admin.post('/api/v1/rewards', {
        headers: await csrfHeaders(admin),
        data: { rank, business_needed, amount: '1' },
      });
      expect(rung.status(), await rung.text()).toBe(201);
      rungIds.push(((await rung.json()) as { reward: { id: string } }).reward.id);
    }
    const plan = await admin.post('/api/v1/plans/add', {
      headers: await csrfHeaders(admin),
      data: {
        name: `E2E CTO plan ${tag}`,
        min_amount: '10',
        max_amount: '100',
        roi_percent: '1',
        duration_days: 30,
      },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    planId = ((await plan.json()) as { plan: { id: string } }).plan.id;
    await registerByApi(leaderApi, leader);
    await registerByApi(directApi, direct, await referralCodeOf(leaderApi, leader));
    const leaderId = await memberIdOf(admin, leader.email);
    const directId = await memberIdOf(admin, direct.email);
    await creditByApi(admin, directId, '80.00');
    await signInByApi(directApi, direct);
    const bought = await directApi.post('/api/v1/topup/add', {
      headers: { ...(await csrfHeaders(directApi)), 'Idempotency-Key': crypto.randomUUID() },
      data: { plan_id: planId, amount: '80' },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    return { tag, leader, leaderId, direct, directId, directApi, cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/**
 * An ended month no CTO has been paid for: a month of the 1990s that /cto/list does not hold. A month's
 * CTO is paid once for the run's whole database, so each repeat of a spec needs a month of its own, and
 * one that old has no deposits but those a spec moves into it.
 */
export async function unpaidCtoMonth(admin: APIRequestContext): Promise<string> {
  const res = await admin.get('/api/v1/cto/list');
  expect(res.status(), await res.text()).toBe(200);
  const paid = new Set(
    ((await res.json()) as { payments: { month: string }[] }).payments.map((p) => p.month),
  );
  for (;;) {
    const n = Math.floor(Math.random() * 120);
    const month = `${1990 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
    if (!paid.has(month)) return month;
  }
}

/** Moves a member's approved deposits (the ledger's credits from platform:deposits) into `month`. */
export function moveDepositsTo(memberId: string, month: string): void {
  const db = new SQLite(join(E2E_DATA_DIR, 'platform.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const moved = db
      .prepare(
        "update ledger_transfers set created_at = ? where debit_account_id = 'platform:deposits' and credit_account_id in (?, ?)",
      )
      .run(`${month}-15T12:00:00.000Z`, `${memberId}:business`, `${memberId}:working`);
    expect(moved.changes).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}
