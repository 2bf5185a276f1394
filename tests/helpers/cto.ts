import { expect } from 'vitest';
import type { SessionUser } from '../../src/server/http/session.ts';
import { findUserById } from '../../src/server/modules/users/users.repository.ts';
import { type ApiClient, signedInAdminClient } from './client.ts';
import { buy, createPlan, type Member, member } from './income.ts';
import { ADMIN, startServer, type TestServer } from './server.ts';

// What the CTO suites share: leaders qualifying on the reward ladder and this month's CTO not yet paid.
// Months that have not ended cannot be paid, so a suite pays this month through the service as of
// next month (the real service on the real database, the clock moved on), as the admin's session.

export const thisMonth = new Date().toISOString().slice(0, 7);

/** A day of next month: this month has ended then. */
export const nextMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
};

export type CtoWorld<Leaders> = {
  server: TestServer;
  admin: ApiClient;
  adminId: string;
  /** The admin as the service sees them, for calling it directly. */
  adminSession: SessionUser;
  leaders: Leaders;
};

/**
 * A server with the ladder Bronze (100), Gold (1,000) and Diamond (5,000), one leader for each team
 * business given (a sponsor whose one downline bought that much), and one approved manual deposit
 * of `deposit` this month, the month's CTO pool being 1% of it.
 */
export async function ctoWorld<const Business extends readonly string[]>({
  teamBusiness,
  deposit,
  sessionId,
}: {
  teamBusiness: Business;
  deposit: string;
  sessionId: string;
}): Promise<CtoWorld<{ [K in keyof Business]: Member }>> {
  const server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  const admin = await signedInAdminClient(server.baseUrl);
  const adminRow = await server.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN.email)
    .executeTakeFirstOrThrow();
  const adminSession = {
    sessionId,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    user: (await findUserById(server.db, adminRow.id)) ?? expect.unreachable(),
  };
  for (const [rank, business_needed] of [
    ['Bronze', '100'],
    ['Gold', '1000'],
    ['Diamond', '5000'],
  ])
    expect((await admin.post('/rewards', { rank, business_needed, amount: '1' })).status).toBe(201);
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  const leaders: Member[] = [];
  for (const _ of teamBusiness) leaders.push(await member(server, admin, undefined));
  for (const [i, amount] of teamBusiness.entries()) {
    const down = await member(server, admin, leaders[i] ?? expect.unreachable(), { business: amount });
    await buy(down, planId, amount);
  }
  const payer = await member(server, admin, undefined);
  const added = await payer.client.post('/deposite/add', { amount: deposit, tx_hash: `0x${'c'.repeat(64)}` });
  expect(added.status, added.text).toBe(201);
  const approved = await admin.put(`/deposite/${added.body.deposit.id}`, {
    status: 'approved',
    amount: deposit,
    user_id: payer.id,
  });
  expect(approved.status, approved.text).toBe(200);
  return {
    server,
    admin,
    adminId: adminRow.id,
    adminSession,
    leaders: leaders as { [K in keyof Business]: Member },
  };
}
