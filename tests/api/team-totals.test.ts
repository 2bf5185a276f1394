import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillTeamTotals } from '../../src/server/db/migrations/0024-team-totals.ts';
import { MEMBER_ADMIN_MESSAGES } from '../../src/shared/users.ts';
import { ApiClient, newMember, signedInAdminClient } from '../helpers/client.ts';
import { createPlan, type Member, member } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The team's stored totals (team_totals, migration 0024): each member's own investment, team size,
// team business and direct members are kept with every sign-up, investment and erase, in the same
// transaction. A random tree is built over HTTP (sign-ups under random sponsors, investments paid by
// members for random members, erased members), then the stored totals of EVERY user are compared
// with the recursive query over users.sponsor_id and topups computed fresh here (the oracle; the
// query the team read before the totals). Then many sign-ups and investments at once in one downline
// (row locks on PostgreSQL), and the oracle again.

let server: TestServer;
let admin: ApiClient;
let planId: string;
let rootAdminId: string;
let payers: Member[];
/** Every member signed up here: id and referral code, in order of joining. */
const members: { id: string; code: string }[] = [];

/** A small seeded generator (mulberry32): the same tree on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(17_024);
const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;

let addresses = 0;
/** A sign-up over HTTP, from an address of its own, under `sponsorCode` (none: the root admin). */
async function signUp(sponsorCode: string | undefined): Promise<{ id: string; code: string }> {
  addresses += 1;
  const body = newMember(sponsorCode === undefined ? {} : { reffer_by: sponsorCode });
  const res = await new ApiClient(server.baseUrl).post('/auth/register', body, {
    'x-forwarded-for': `198.51.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}`,
  });
  expect(res.status, res.text).toBe(201);
  const row = await server.db
    .selectFrom('users')
    .select(['id', 'refferal_code'])
    .where('username', '=', body.username)
    .executeTakeFirstOrThrow();
  return { id: row.id, code: row.refferal_code };
}

/** A sponsor for the next member: the root admin sometimes, often one of the latest (deep chains), else anyone. */
function sponsorFor(): string | undefined {
  const r = next();
  if (members.length === 0 || r < 0.1) return undefined;
  if (r < 0.6) return pick(members.slice(-8)).code;
  return pick(members).code;
}

/** An investment of `amount` for `beneficiaryId`, paid by `payer` from their Active Wallet. */
const invest = (payer: Member, beneficiaryId: string, amount: string) =>
  payer.client.post('/topup/entry', { id: beneficiaryId, userby_id: payer.id, plan_id: planId, amount });

type Totals = {
  invested_cents: number;
  team_size: number;
  team_business_cents: number;
  direct_count: number;
};

/** The oracle: every user's figures by the recursive query, walking down from each user. */
async function oracle(): Promise<Map<string, Totals>> {
  const { rows } = await sql<{ id: string } & Record<keyof Totals, string | number>>`
    with recursive closure(anc, id, dist) as (
      select id, id, 0 from users
      union all
      select c.anc, u.id, c.dist + 1 from users u join closure c on u.sponsor_id = c.id where u.role = 'user'
    ),
    own as (select c.anc, c.id, c.dist,
      coalesce((select sum(t.amount_cents) from topups t where t.user_id = c.id), 0) as invested from closure c)
    select anc as id,
      sum(case when dist = 0 then invested else 0 end) as invested_cents,
      count(*) - 1 as team_size,
      sum(case when dist > 0 then invested else 0 end) as team_business_cents,
      sum(case when dist = 1 then 1 else 0 end) as direct_count
    from own group by anc`.execute(server.db);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        invested_cents: Number(r.invested_cents),
        team_size: Number(r.team_size),
        team_business_cents: Number(r.team_business_cents),
        direct_count: Number(r.direct_count),
      },
    ]),
  );
}

async function stored(): Promise<Map<string, Totals>> {
  const rows = await server.db.selectFrom('team_totals').selectAll().execute();
  return new Map(
    rows.map((r) => [
      r.user_id,
      {
        invested_cents: Number(r.invested_cents),
        team_size: Number(r.team_size),
        team_business_cents: Number(r.team_business_cents),
        direct_count: Number(r.direct_count),
      },
    ]),
  );
}

/** The stored totals of every user equal the oracle's; returns the oracle. */
async function expectTotalsTrue(): Promise<Map<string, Totals>> {
  const expected = await oracle();
  const actual = await stored();
  expect(actual.size).toBe(expected.size);
  for (const [id, figures] of expected) expect({ id, ...actual.get(id) }).toEqual({ id, ...figures });
  return expected;
}

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  planId = await createPlan(admin, { roi_percent: '1', duration_days: 30, min_amount: '10' });
  rootAdminId = (
    await server.db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow()
  ).id;
  // Three paying members, in the tree like anyone else.
  payers = [];
  for (let i = 0; i < 3; i += 1) {
    const payer = await member(server, admin, payers[i - 1], { business: '1000000' });
    payers.push(payer);
    members.push({ id: payer.id, code: payer.refferal_code });
  }
});
afterAll(async () => server?.stop(), 120_000);

describe('team totals', () => {
  it('equal the recursive query for every member of a random tree built over HTTP', async () => {
    // 200 sign-ups, 8 at a time, each batch followed by investments for random members.
    for (let batch = 0; batch < 25; batch += 1) {
      const sponsors = Array.from({ length: 8 }, () => sponsorFor());
      members.push(...(await Promise.all(sponsors.map((code) => signUp(code)))));
      const answers = await Promise.all(
        payers.map(async (payer) => {
          const out = [];
          for (let k = 0; k < 2; k += 1)
            out.push(await invest(payer, pick(members).id, String(10 + Math.floor(next() * 990))));
          return out;
        }),
      );
      for (const res of answers.flat()) expect(res.status, res.text).toBe(201);
    }
    // An investment that fails (over the plan's maximum) changes nothing.
    const over = await invest(pick(payers), pick(members).id, '100001');
    expect(over.status).toBe(400);

    // Members with no history are erased: they are taken off every team above them.
    const invested = new Set(
      (await server.db.selectFrom('topups').select('user_id').execute()).map((r) => r.user_id),
    );
    const sponsoring = new Set(
      (await server.db.selectFrom('users').select('sponsor_id').execute()).map((r) => r.sponsor_id),
    );
    const leaves = members.filter((m) => !invested.has(m.id) && !sponsoring.has(m.id)).slice(-5);
    expect(leaves.length).toBe(5);
    for (const leaf of leaves) {
      const res = await admin.request('DELETE', `/users/${leaf.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.message).toBe(MEMBER_ADMIN_MESSAGES.erased);
      members.splice(members.indexOf(leaf), 1);
    }

    const expected = await expectTotalsTrue();
    // The tree is not trivial: deep, with investments throughout.
    const root = expected.get(rootAdminId);
    expect(root?.team_size).toBe(members.length);
    expect(root?.team_business_cents).toBeGreaterThan(0);
    const { rows } = await sql<{ depth: number }>`with recursive down(id, lvl) as (
        select id, 0 from users where id = ${rootAdminId}
        union all select u.id, d.lvl + 1 from users u join down d on u.sponsor_id = d.id
      ) select max(lvl) as depth from down`.execute(server.db);
    expect(Number(rows[0]?.depth)).toBeGreaterThanOrEqual(10);

    // What the API shows is the stored totals: the root admin's tree and its first level.
    const tree = await admin.get(`/referral/full/${rootAdminId}?depth=1`);
    expect(tree.status).toBe(200);
    for (const node of [tree.body.tree, ...tree.body.tree.children]) {
      const figures = expected.get(node.id) as Totals;
      expect(node).toMatchObject({
        team_size: figures.team_size,
        team_business: (figures.team_business_cents / 100).toFixed(2),
        investment: (figures.invested_cents / 100).toFixed(2),
        children_count: figures.direct_count,
      });
    }
  }, 300_000);

  it('backfill (migration 0024) computes the same totals from the data', async () => {
    await server.db.deleteFrom('team_totals').execute();
    await backfillTeamTotals(server.db as unknown as Kysely<unknown>);
    await expectTotalsTrue();
  });

  it('stay true with many sign-ups and investments at once in one downline', async () => {
    // A chain of 6 under one member; then 30 investments (10 per payer, the payers at once) and 8
    // sign-ups, all at the same time, every one of them in the chain's downline.
    const chain = [pick(members)];
    for (let i = 0; i < 6; i += 1) chain.push(await signUp(chain[chain.length - 1]?.code));
    members.push(...chain.slice(1));
    const before = await expectTotalsTrue();
    const [investments, signUps] = await Promise.all([
      Promise.all(
        payers.flatMap((payer) =>
          Array.from({ length: 10 }, (_, k) =>
            invest(payer, (chain[1 + (k % 6)] as { id: string }).id, '25'),
          ),
        ),
      ),
      Promise.all(
        chain
          .slice(1)
          .map((m) => signUp(m.code))
          .concat([signUp(chain[6]?.code), signUp(chain[6]?.code)]),
      ),
    ]);
    expect(investments.map((r) => r.status)).toEqual(investments.map(() => 201));
    expect(signUps).toHaveLength(8);
    const after = await expectTotalsTrue();
    // Everyone above the chain's second member gained all 30 investments and 8 members.
    const top = chain[0] as { id: string };
    expect((after.get(top.id) as Totals).team_business_cents).toBe(
      (before.get(top.id) as Totals).team_business_cents + 30 * 2500,
    );
    expect((after.get(top.id) as Totals).team_size).toBe((before.get(top.id) as Totals).team_size + 8);
  }, 120_000);
});
