import { type APIRequestContext, expect } from '@playwright/test';
import {
  creditByApi,
  csrfHeaders,
  type Member,
  memberIdOf,
  newMember,
  referralCodeOf,
  registerByApi,
  signInByApi,
} from './helpers.ts';
import { movePurchaseTo } from './income-dates.ts';

// What the salary specs share. A salary is paid for an ended month and the API makes investments today
// only, so a spec's leader gets a direct member whose one investment is moved into that month (a
// one-day plan: it earns on that date only, long before any date the income scheduler looks at).
// Other specs share the database and a month's payments stay, so each run has a leader of its own.

export type SalaryLeader = { leader: Member; leaderId: string; planId: string };

export async function salaryLeader(
  admin: APIRequestContext,
  newContext: () => Promise<APIRequestContext>,
  tag: string,
  month: string,
): Promise<SalaryLeader> {
  const leader = newMember(`${tag}lead`);
  const direct = newMember(`${tag}dir`);
  const leaderApi = await newContext();
  const directApi = await newContext();
  try {
    await registerByApi(leaderApi, leader);
    await registerByApi(directApi, direct, await referralCodeOf(leaderApi, leader));
    const plan = await admin.post('/api/v1/plans/add', {
      headers: await csrfHeaders(admin),
      data: {
        name: `E2E Salary plan ${Date.now().toString(36)}`,
        min_amount: '10',
        max_amount: '100',
        roi_percent: '1',
        duration_days: 1,
      },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    const planId = ((await plan.json()) as { plan: { id: string } }).plan.id;
    await creditByApi(admin, await memberIdOf(admin, direct.email), '40.00');
    await signInByApi(directApi, direct);
    const bought = await directApi.post('/api/v1/topup/add', {
      headers: { ...(await csrfHeaders(directApi)), 'Idempotency-Key': crypto.randomUUID() },
      data: { plan_id: planId, amount: '40' },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    movePurchaseTo(((await bought.json()) as { topup: { id: string } }).topup.id, `${month}-15`);
    return { leader, leaderId: await memberIdOf(admin, leader.email), planId };
  } finally {
    await Promise.all([leaderApi.dispose(), directApi.dispose()]);
  }
}

/** Closes the spec's plan (members' plan lists stay short) and retires its tier (out of later runs' reach). */
export async function salaryCleanUp(admin: APIRequestContext, planId: string, tierId: string) {
  if (planId) {
    const closed = await admin.put(`/api/v1/plans/${planId}`, {
      headers: await csrfHeaders(admin),
      data: { status: 'inactive' },
    });
    expect(closed.status(), await closed.text()).toBe(200);
  }
  if (tierId) {
    // A paid tier cannot be deleted; one nobody can reach pays nobody in later runs.
    const retired = await admin.put(`/api/v1/salary/tiers/${tierId}`, {
      headers: await csrfHeaders(admin),
      data: { min_business: '99999999' },
    });
    expect(retired.status(), await retired.text()).toBe(200);
  }
}
