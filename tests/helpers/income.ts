import { expect } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { addDays, dateOf } from '../../src/shared/dates.ts';
import { ApiClient, newMember } from './client.ts';

/** A server the test talks to, and its database (in the test's process or another one). */
export type Books = { baseUrl: string; db: Db };

// Builds what the daily income tests need over HTTP (members under sponsors, plans, top-ups), and
// reads the books back from the database. Start the server with TRUST_PROXY=127.0.0.1: each member
// registers from an address of its own, so the per-address registration limit is not what a test meets.

export type Member = {
  client: ApiClient;
  id: string;
  username: string;
  refferal_code: string;
  /** Signs the member in again on a new client, which replaces `client` (a block ends every session). */
  signIn: () => Promise<void>;
};

let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return { 'x-forwarded-for': `203.0.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}` };
};

/** A member under `sponsor` (or the root admin), made active by an admin unless told otherwise, with `business` dollars. */
export async function member(
  server: Books,
  admin: ApiClient,
  sponsor: Member | undefined,
  { active = true, business }: { active?: boolean; business?: string } = {},
): Promise<Member> {
  const from = nextAddress();
  const body = newMember(sponsor ? { reffer_by: sponsor.refferal_code } : {});
  const client = new ApiClient(server.baseUrl);
  const registered = await client.post('/auth/register', body, from);
  expect(registered.status, registered.text).toBe(201);
  const signIn = async (on: ApiClient) => {
    const signedIn = await on.post('/auth/signin', { email: body.email, password: body.password }, from);
    expect(signedIn.status, signedIn.text).toBe(200);
    return signedIn.body.auth as { id: string; username: string; refferal_code: string };
  };
  const { id, username, refferal_code } = await signIn(client);
  if (active) expect((await admin.put(`/users/${id}`, { is_active: 'active' })).status).toBe(200);
  if (business) await fund(admin, id, business);
  const made: Member = {
    client,
    id,
    username,
    refferal_code,
    // A new browser: the ended session's cookies are of no use any more.
    signIn: async () => {
      const fresh = new ApiClient(server.baseUrl);
      await signIn(fresh);
      made.client = fresh;
    },
  };
  return made;
}

export async function fund(admin: ApiClient, userId: string, amount: string): Promise<void> {
  const res = await admin.post('/admin/adjustments', {
    user_id: userId,
    wallet: 'business',
    direction: 'credit',
    amount,
    reason: 'Test funding',
  });
  expect(res.status, res.text).toBe(201);
}

export async function createPlan(
  admin: ApiClient,
  plan: { roi_percent: string; duration_days: number; min_amount?: string; max_amount?: string },
): Promise<string> {
  const res = await admin.post('/plans/add', {
    name: `Plan ${plan.roi_percent}% ${plan.duration_days}d`,
    min_amount: plan.min_amount ?? '1',
    max_amount: plan.max_amount ?? '100000',
    ...plan,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.plan.id;
}

export async function buy(m: Member, planId: string, amount: string): Promise<string> {
  const res = await m.client.post('/topup/add', { plan_id: planId, amount });
  expect(res.status, res.text).toBe(201);
  return res.body.topup.id;
}

/** Moves an investment's purchase `days` back in time (the API makes them today only). */
export async function backdate(server: Books, topupId: string, days: number): Promise<string> {
  const row = await server.db
    .selectFrom('topups')
    .select(['created_at', 'duration_days'])
    .where('id', '=', topupId)
    .executeTakeFirstOrThrow();
  const createdAt = new Date(Date.parse(row.created_at) - days * 86_400_000).toISOString();
  await server.db
    .updateTable('topups')
    .set({ created_at: createdAt, roi_end_date: addDays(dateOf(createdAt), Number(row.duration_days) - 1) })
    .where('id', '=', topupId)
    .execute();
  return dateOf(createdAt);
}

export const today = () => dateOf();

/** Cents in a member's Income Working wallet (0 before it exists). */
export async function workingCents(server: Books, userId: string): Promise<number> {
  const row = await server.db
    .selectFrom('ledger_accounts')
    .select('balance_cents')
    .where('id', '=', `${userId}:working`)
    .executeTakeFirst();
  return Number(row?.balance_cents ?? 0);
}

export async function expectBooksBalanced(admin: ApiClient): Promise<void> {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body.mismatches).toEqual([]);
  expect(res.body.balanced).toBe(true);
}

export async function runDate(admin: ApiClient, date?: string) {
  return admin.post('/income/run', date ? { date } : {});
}
