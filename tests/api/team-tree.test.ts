import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_MESSAGES, TREE_CHILDREN_LIMIT, type TreeNode } from '../../src/shared/team.ts';
import { ApiClient, newMember, signedInAdminClient } from '../helpers/client.ts';
import { buy, createPlan, type Member, member } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /referral/list/{id}, /referral/full/{id} and /referral/search/{id} (issue 17 item 1, API.md
// "Team and rewards"): a member's direct members and downline tree, with each node's own investment,
// team size and team business (every investment below it, all levels); a few levels per answer, the
// rest on demand; a member reads only their own team, an admin anyone's.

let server: TestServer;
let admin: ApiClient;
let planId: string;
// top -> a, b; a -> a1, a2; a1 -> a11; b has no team.
let top: Member;
let a: Member;
let b: Member;
let a1: Member;
let a2: Member;
let a11: Member;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
  planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
  top = await member(server, admin, undefined, { business: '100' });
  a = await member(server, admin, top, { business: '300' });
  b = await member(server, admin, top, { active: false });
  a1 = await member(server, admin, a, { business: '50' });
  a2 = await member(server, admin, a, { business: '20' });
  a11 = await member(server, admin, a1, { business: '1000' });
  await buy(top, planId, '100');
  await buy(a, planId, '200');
  await buy(a, planId, '100');
  await buy(a1, planId, '50');
  await buy(a2, planId, '20');
  await buy(a11, planId, '1000');
});
afterAll(async () => server?.stop());

const names = (nodes: TreeNode[] | null) => nodes?.map((n) => n.username) ?? null;

describe('GET /referral/list/{id}', () => {
  it('lists the direct members with their investment, team size and business', async () => {
    const res = await top.client.get(`/referral/list/${top.id}`);
    expect(res.status).toBe(200);
    expect(res.body.members).toEqual([
      expect.objectContaining({
        id: a.id,
        username: a.username,
        is_active: 'active',
        investment: '300.00',
        team_size: 3,
        team_business: '1070.00',
      }),
      expect.objectContaining({
        id: b.id,
        is_active: 'inactive',
        investment: '0.00',
        team_size: 0,
        team_business: '0.00',
      }),
    ]);
    expect((await b.client.get(`/referral/list/${b.id}`)).body.members).toEqual([]);
  });

  it('is a 404 for another member’s team; an admin reads anyone’s', async () => {
    const other = await a.client.get(`/referral/list/${top.id}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(TEAM_MESSAGES.notFound);
    expect((await a.client.get('/referral/list/no-such-member')).status).toBe(404);
    const res = await admin.get(`/referral/list/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: { id: string }) => m.id)).toEqual([a1.id, a2.id]);
  });
});

describe('GET /referral/full/{id}', () => {
  it('answers two levels by default, each node with its team, and null where more can load', async () => {
    const res = await top.client.get(`/referral/full/${top.id}`);
    expect(res.status).toBe(200);
    const tree: TreeNode = res.body.tree;
    expect(tree).toMatchObject({
      id: top.id,
      level: 0,
      investment: '100.00',
      team_size: 5,
      team_business: '1370.00',
      children_count: 2,
      children_more: 0,
    });
    expect(names(tree.children)).toEqual([a.username, b.username]);
    const [nodeA, nodeB] = tree.children ?? [];
    expect(nodeA).toMatchObject({ level: 1, team_size: 3, team_business: '1070.00', children_count: 2 });
    expect(nodeB).toMatchObject({ level: 1, team_size: 0, children: [] });
    expect(names(nodeA?.children ?? null)).toEqual([a1.username, a2.username]);
    const nodeA1 = nodeA?.children?.[0];
    // The third level is not in this answer: a1 has a team, so its children are null (load on open).
    expect(nodeA1).toMatchObject({
      level: 2,
      team_size: 1,
      team_business: '1000.00',
      children_count: 1,
      children: null,
    });
    expect(nodeA?.children?.[1]).toMatchObject({ level: 2, children_count: 0, children: [] });
  });

  it('loads a deeper node of the member’s own team on demand, with levels counted from the member', async () => {
    const res = await top.client.get(`/referral/full/${top.id}?node=${a1.id}&depth=1`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.tree).toMatchObject({ id: a1.id, level: 2, children_count: 1 });
    expect(res.body.tree.children).toEqual([
      expect.objectContaining({ id: a11.id, level: 3, investment: '1000.00', team_size: 0, children: [] }),
    ]);
    // A node outside the member's team is a 404, as is the team above them.
    expect((await a.client.get(`/referral/full/${a.id}?node=${b.id}`)).status).toBe(404);
    expect((await a.client.get(`/referral/full/${a.id}?node=${top.id}`)).status).toBe(404);
    expect((await a.client.get(`/referral/full/${top.id}`)).status).toBe(404);
    const bad = await top.client.get(`/referral/full/${top.id}?depth=9`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('depth');
  });

  it('pages a large first level and keeps each node to its first children', async () => {
    const big = await member(server, admin, undefined);
    for (let i = 0; i < TREE_CHILDREN_LIMIT + 3; i += 10)
      await Promise.all(
        Array.from({ length: Math.min(10, TREE_CHILDREN_LIMIT + 3 - i) }, (_, j) =>
          new ApiClient(server.baseUrl).post('/auth/register', newMember({ reffer_by: big.refferal_code }), {
            'x-forwarded-for': `192.0.2.${i + j + 1}`,
          }),
        ),
      ).then((answers) => expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201)));
    const first = await big.client.get(`/referral/full/${big.id}?depth=1`);
    expect(first.body.tree.children).toHaveLength(TREE_CHILDREN_LIMIT);
    expect(first.body.tree).toMatchObject({ children_count: TREE_CHILDREN_LIMIT + 3, children_more: 3 });
    const rest = await big.client.get(`/referral/full/${big.id}?depth=1&offset=${TREE_CHILDREN_LIMIT}`);
    expect(rest.body.tree.children).toHaveLength(3);
    expect(rest.body.tree.children_more).toBe(0);
    const seen = new Set(
      [...first.body.tree.children, ...rest.body.tree.children].map((n: TreeNode) => n.id),
    );
    expect(seen.size).toBe(TREE_CHILDREN_LIMIT + 3);
  });
});

describe('GET /referral/search/{id}', () => {
  it('finds members of the team by username with the way down to them', async () => {
    const res = await top.client.get(`/referral/search/${top.id}?q=${a11.username.slice(2).toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.matches).toEqual([
      {
        id: a11.id,
        username: a11.username,
        fullname: expect.any(String),
        level: 3,
        path: [top.id, a.id, a1.id, a11.id],
      },
    ]);
    // Not above or beside oneself.
    expect((await a1.client.get(`/referral/search/${a1.id}?q=${a2.username}`)).body.matches).toEqual([]);
    expect((await a1.client.get(`/referral/search/${a1.id}?q=%25%25`)).body.matches).toEqual([]);
    const short = await top.client.get(`/referral/search/${top.id}?q=a`);
    expect(short.status).toBe(400);
    expect(short.body.errors[0]).toEqual({ field: 'q', message: TEAM_MESSAGES.queryShort });
  });
});
