import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { PLAN_MESSAGES } from '../../src/shared/plans.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Plans and activation plans (spec 7 "Plans", "Activation plans"; API.md "Plans, top-ups and income";
// RULES.md "Plans, top-ups and activation"): admins create, change, deactivate and delete them, each
// change audited; members see only active ones; a plan with investments is never deleted.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

type Body = Record<string, unknown>;
let counter = 0;
const validPlan = (overrides: Body = {}) => {
  counter += 1;
  return {
    name: `Starter ${counter}`,
    min_amount: '50',
    max_amount: 1000,
    roi_percent: '1',
    duration_days: 200,
    ...overrides,
  };
};

const auditOf = (targetId: string) =>
  server.db
    .selectFrom('audit_log')
    .selectAll()
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .execute();
const planRows = () => server.db.selectFrom('plans').selectAll().orderBy('id').execute();

describe('POST /plans/add, GET /plans/list and /plans/{id}', () => {
  it('creates a plan with amounts and ROI as decimal strings, audited', async () => {
    const res = await admin.post(
      '/plans/add',
      validPlan({ name: 'Gold', roi_percent: 0.5, duration_days: '300' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: PLAN_MESSAGES.created,
      plan: {
        id: expect.any(String),
        kind: 'plan',
        name: 'Gold',
        min_amount: '50.00',
        max_amount: '1000.00',
        roi_percent: '0.50',
        duration_days: 300,
        status: 'active',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const audit = await auditOf(res.body.plan.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'plan.create', target_type: 'plan', before_json: null });
    expect(JSON.parse(String(audit[0]?.after_json))).toEqual(res.body.plan);

    const one = await admin.get(`/plans/${res.body.plan.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body.plan);
  });

  it('shows members the active plans only; an inactive plan is a 404 to them, not to an admin', async () => {
    const active = (await admin.post('/plans/add', validPlan())).body.plan;
    const inactive = (await admin.post('/plans/add', validPlan({ status: 'inactive' }))).body.plan;
    expect(inactive.status).toBe('inactive');
    const { client } = await signedInMember(server.baseUrl);

    const memberList = await client.get('/plans/list');
    expect(memberList.status).toBe(200);
    const memberIds = memberList.body.plans.map((p: { id: string }) => p.id);
    expect(memberIds).toContain(active.id);
    expect(memberIds).not.toContain(inactive.id);
    expect(memberList.body.plans.every((p: { status: string }) => p.status === 'active')).toBe(true);

    const adminIds = (await admin.get('/plans/list')).body.plans.map((p: { id: string }) => p.id);
    expect(adminIds).toEqual(expect.arrayContaining([active.id, inactive.id]));

    expect((await client.get(`/plans/${active.id}`)).body).toEqual(active);
    const hidden = await client.get(`/plans/${inactive.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: PLAN_MESSAGES.notFound });
    expect((await admin.get(`/plans/${inactive.id}`)).body).toEqual(inactive);
    expect((await admin.get('/plans/no-such-plan')).status).toBe(404);
    // An activation plan is not a plan.
    const act = (
      await admin.post('/actplan/add', { name: 'Pack', amount: 25, roi_percent: 1, duration_days: 30 })
    ).body.plan;
    expect((await admin.get(`/plans/${act.id}`)).status).toBe(404);
  });

  it('refuses members (403) and strangers (401), and creates nothing', async () => {
    const before = await planRows();
    const { client } = await signedInMember(server.baseUrl);
    const asMember = await client.post('/plans/add', validPlan());
    expect(asMember.status).toBe(403);
    expect(asMember.body).toEqual({ message: GENERIC.forbidden });
    expect(
      (await client.post('/actplan/add', { name: 'X', amount: 5, roi_percent: 1, duration_days: 5 })).status,
    ).toBe(403);
    const stranger = new ApiClient(server.baseUrl);
    expect((await stranger.post('/plans/add', validPlan())).status).toBe(401);
    expect((await stranger.get('/plans/list')).status).toBe(401);
    expect(await planRows()).toEqual(before);
  });

  it('answers bad input with 400 naming the field, and creates nothing', async () => {
    const before = await planRows();
    const cases: [Body, string, string | undefined][] = [
      [validPlan({ name: '   ' }), 'name', PLAN_MESSAGES.nameRequired],
      [validPlan({ name: undefined }), 'name', PLAN_MESSAGES.nameRequired],
      [validPlan({ name: 'x'.repeat(101) }), 'name', PLAN_MESSAGES.nameMax],
      [validPlan({ min_amount: '0' }), 'min_amount', WALLET_MESSAGES.amountPositive],
      [validPlan({ min_amount: '1.234' }), 'min_amount', WALLET_MESSAGES.amountFormat],
      [validPlan({ max_amount: '' }), 'max_amount', WALLET_MESSAGES.amountRequired],
      [validPlan({ min_amount: '100.01', max_amount: '100' }), 'max_amount', PLAN_MESSAGES.minAboveMax],
      [validPlan({ roi_percent: '0' }), 'roi_percent', PLAN_MESSAGES.roiInvalid],
      [validPlan({ roi_percent: '-1' }), 'roi_percent', PLAN_MESSAGES.roiInvalid],
      [validPlan({ roi_percent: '1.005' }), 'roi_percent', PLAN_MESSAGES.roiInvalid],
      [validPlan({ roi_percent: '100.01' }), 'roi_percent', PLAN_MESSAGES.roiInvalid],
      [validPlan({ roi_percent: 'abc' }), 'roi_percent', PLAN_MESSAGES.roiInvalid],
      [validPlan({ duration_days: 0 }), 'duration_days', PLAN_MESSAGES.durationInvalid],
      [validPlan({ duration_days: 1.5 }), 'duration_days', PLAN_MESSAGES.durationInvalid],
      [validPlan({ duration_days: '12a' }), 'duration_days', PLAN_MESSAGES.durationInvalid],
      [validPlan({ duration_days: 3651 }), 'duration_days', PLAN_MESSAGES.durationInvalid],
      [validPlan({ status: 'paused' }), 'status', PLAN_MESSAGES.statusInvalid],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.post('/plans/add', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = res.body.errors.find((e: { field: string }) => e.field === field);
      expect(error, `${JSON.stringify(body)} -> ${res.text}`).toBeDefined();
      if (message) expect(error.message).toBe(message);
    }
    expect(await planRows()).toEqual(before);
  });
});

describe('PUT and DELETE /plans/{id}', () => {
  it('changes the given fields, checks minimum against maximum on the merged plan, audited', async () => {
    const plan = (await admin.post('/plans/add', validPlan({ min_amount: 100, max_amount: 500 }))).body.plan;
    const res = await admin.put(`/plans/${plan.id}`, {
      roi_percent: '1.25',
      status: 'inactive',
      max_amount: '600.5',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: PLAN_MESSAGES.updated,
      plan: {
        ...plan,
        roi_percent: '1.25',
        status: 'inactive',
        max_amount: '600.50',
        updated_at: expect.any(String),
      },
    });
    expect((await admin.get(`/plans/${plan.id}`)).body).toEqual(res.body.plan);
    const audit = (await auditOf(plan.id)).find((a) => a.action === 'plan.update');
    expect(JSON.parse(String(audit?.before_json))).toEqual(plan);
    expect(JSON.parse(String(audit?.after_json))).toEqual(res.body.plan);

    const crossed = await admin.put(`/plans/${plan.id}`, { min_amount: '700' });
    expect(crossed.status).toBe(400);
    expect(crossed.body.errors).toEqual([{ field: 'max_amount', message: PLAN_MESSAGES.minAboveMax }]);
    const empty = await admin.put(`/plans/${plan.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(PLAN_MESSAGES.nothingToChange);
    expect((await admin.put(`/plans/${plan.id}`, { roi_percent: '0' })).status).toBe(400);
    expect((await admin.get(`/plans/${plan.id}`)).body).toEqual(res.body.plan);
    expect((await admin.put('/plans/no-such-plan', { name: 'X' })).status).toBe(404);

    const { client } = await signedInMember(server.baseUrl);
    expect((await client.put(`/plans/${plan.id}`, { name: 'Mine now' })).status).toBe(403);
    expect((await client.request('DELETE', `/plans/${plan.id}`)).status).toBe(403);
  });

  it('deletes a plan nobody bought; a plan with investments is made inactive instead', async () => {
    const unused = (await admin.post('/plans/add', validPlan())).body.plan;
    const gone = await admin.request('DELETE', `/plans/${unused.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ message: PLAN_MESSAGES.deleted });
    expect((await admin.get(`/plans/${unused.id}`)).status).toBe(404);
    expect((await auditOf(unused.id)).map((a) => a.action)).toEqual(['plan.create', 'plan.delete']);
    expect((await admin.request('DELETE', `/plans/${unused.id}`)).status).toBe(404);

    const bought = (await admin.post('/plans/add', validPlan({ min_amount: 10, max_amount: 100 }))).body.plan;
    const member = await fundedMember(server.baseUrl, admin, { business: '20' });
    expect((await member.client.post('/topup/add', { plan_id: bought.id, amount: '10' })).status).toBe(201);
    const kept = await admin.request('DELETE', `/plans/${bought.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({
      message: PLAN_MESSAGES.deactivated,
      plan: { ...bought, status: 'inactive', updated_at: expect.any(String) },
    });
    expect((await admin.get(`/plans/${bought.id}`)).body.status).toBe('inactive');
    expect((await member.client.get(`/plans/${bought.id}`)).status).toBe(404);
    expect((await auditOf(bought.id)).map((a) => a.action)).toContain('plan.deactivate');
    // The investment still names its plan.
    const list = await member.client.get('/topup/list');
    expect(list.body.topups[0]).toMatchObject({ plan_id: bought.id, plan_name: bought.name });
  });
});

describe('Activation plans: /actplan/add, list, {id}', () => {
  it('are fixed-price packages: the amount is both minimum and maximum', async () => {
    const res = await admin.post('/actplan/add', {
      name: 'Activation 25',
      amount: '25',
      roi_percent: '0.75',
      duration_days: 100,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: PLAN_MESSAGES.actCreated,
      plan: {
        id: expect.any(String),
        kind: 'activation',
        name: 'Activation 25',
        min_amount: '25.00',
        max_amount: '25.00',
        roi_percent: '0.75',
        duration_days: 100,
        status: 'active',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const plan = res.body.plan;
    const hidden = (
      await admin.post('/actplan/add', {
        name: 'Old pack',
        amount: 10,
        roi_percent: 1,
        duration_days: 10,
        status: 'inactive',
      })
    ).body.plan;

    const { client } = await signedInMember(server.baseUrl);
    const memberIds = (await client.get('/actplan/list')).body.actplans.map((p: { id: string }) => p.id);
    expect(memberIds).toContain(plan.id);
    expect(memberIds).not.toContain(hidden.id);
    expect((await admin.get('/actplan/list')).body.actplans.map((p: { id: string }) => p.id)).toContain(
      hidden.id,
    );
    expect((await client.get(`/actplan/${hidden.id}`)).body).toEqual({ message: PLAN_MESSAGES.actNotFound });
    expect((await client.get(`/actplan/${plan.id}`)).body).toEqual(plan);
    // Activation plans are not in the plans list.
    expect((await admin.get('/plans/list')).body.plans.map((p: { id: string }) => p.id)).not.toContain(
      plan.id,
    );

    const changed = await admin.put(`/actplan/${plan.id}`, { amount: '30.00' });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe(PLAN_MESSAGES.actUpdated);
    expect(changed.body.plan).toMatchObject({ min_amount: '30.00', max_amount: '30.00' });
    expect((await admin.put(`/actplan/${plan.id}`, { amount: 'x' })).status).toBe(400);
    expect((await auditOf(plan.id)).map((a) => a.action)).toEqual(['actplan.create', 'actplan.update']);

    const bad = await admin.post('/actplan/add', { name: 'No price', roi_percent: 1, duration_days: 10 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ field: 'amount', message: WALLET_MESSAGES.amountRequired });

    const deleted = await admin.request('DELETE', `/actplan/${hidden.id}`);
    expect(deleted.body).toEqual({ message: PLAN_MESSAGES.actDeleted });
    expect((await admin.get(`/actplan/${hidden.id}`)).status).toBe(404);
  });
});

describe('Level percents: /plans/addactivelevel, /plans/addinvestlevel, GET /plans/levels', () => {
  it('starts from the defaults and replaces a whole list, level 1 first, audited', async () => {
    const fresh = await startServer();
    try {
      const root = await signedInAdminClient(fresh.baseUrl);
      expect((await root.get('/plans/levels')).body).toEqual({
        active_levels: ['5.00'],
        invest_levels: ['10.00', '5.00', '3.00', '2.00', '1.00'],
      });
      const active = await root.post('/plans/addactivelevel', { percents: ['6', 2.5, '0.25'] });
      expect(active.status).toBe(200);
      expect(active.body).toEqual({
        message: PLAN_MESSAGES.activationLevelsSaved,
        percents: ['6.00', '2.50', '0.25'],
      });
      const invest = await root.post('/plans/addinvestlevel', { percents: [8, 4] });
      expect(invest.body).toEqual({ message: PLAN_MESSAGES.roiLevelsSaved, percents: ['8.00', '4.00'] });
      expect((await root.get('/plans/levels')).body).toEqual({
        active_levels: ['6.00', '2.50', '0.25'],
        invest_levels: ['8.00', '4.00'],
      });
      const audit = await fresh.db
        .selectFrom('audit_log')
        .selectAll()
        .where('target_type', '=', 'settings')
        .execute();
      const activation = audit.find((a) => a.action === 'levels.activation');
      expect(JSON.parse(String(activation?.before_json))).toEqual({ percents: ['5.00'] });
      expect(JSON.parse(String(activation?.after_json))).toEqual({ percents: ['6.00', '2.50', '0.25'] });

      const cases: [Body, string][] = [
        [{ percents: ['100.01'] }, PLAN_MESSAGES.percentInvalid],
        [{ percents: ['-1'] }, PLAN_MESSAGES.percentInvalid],
        [{ percents: ['1.001'] }, PLAN_MESSAGES.percentInvalid],
        [{ percents: [60, 40.01] }, PLAN_MESSAGES.percentsTotal],
        [{ percents: Array.from({ length: 21 }, () => '1') }, PLAN_MESSAGES.percentsMax],
        [{ percents: 'five' }, PLAN_MESSAGES.percentsRequired],
        [{}, PLAN_MESSAGES.percentsRequired],
      ];
      for (const [body, message] of cases) {
        const res = await root.post('/plans/addactivelevel', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.errors[0].message, JSON.stringify(body)).toBe(message);
      }
      expect((await root.get('/plans/levels')).body.active_levels).toEqual(['6.00', '2.50', '0.25']);

      const { client } = await signedInMember(fresh.baseUrl);
      expect((await client.post('/plans/addactivelevel', { percents: [50] })).status).toBe(403);
      expect((await client.post('/plans/addinvestlevel', { percents: [50] })).status).toBe(403);
      expect((await client.get('/plans/levels')).status).toBe(403);
      // An empty list turns activation income off.
      expect((await root.post('/plans/addactivelevel', { percents: [] })).body.percents).toEqual([]);
      expect((await root.get('/plans/levels')).body.active_levels).toEqual([]);
    } finally {
      await fresh.stop();
    }
  });
});

describe('OpenAPI document', () => {
  it('publishes every plan, top-up and code call with the body each one validates', async () => {
    const res = await new ApiClient(server.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    for (const [path, methods] of Object.entries({
      '/api/v1/plans/add': ['post'],
      '/api/v1/plans/list': ['get'],
      '/api/v1/plans/{id}': ['get', 'put', 'delete'],
      '/api/v1/plans/addactivelevel': ['post'],
      '/api/v1/plans/addinvestlevel': ['post'],
      '/api/v1/plans/levels': ['get'],
      '/api/v1/actplan/add': ['post'],
      '/api/v1/actplan/list': ['get'],
      '/api/v1/actplan/{id}': ['get', 'put', 'delete'],
      '/api/v1/topup/add': ['post'],
      '/api/v1/topup/entry': ['post'],
      '/api/v1/topup/addretopup': ['post'],
      '/api/v1/topup/list': ['get'],
      '/api/v1/topup/by/{id}': ['get'],
      '/api/v1/topup/member': ['get'],
      '/api/v1/codes': ['post', 'get'],
      '/api/v1/codes/{id}': ['get'],
      '/api/v1/codes/redeem': ['post'],
    }))
      for (const method of methods) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    const body = (path: string) => paths[path].post.requestBody.content['application/json'].schema;
    expect(body('/api/v1/plans/add').required).toEqual(
      expect.arrayContaining(['name', 'min_amount', 'max_amount', 'roi_percent', 'duration_days']),
    );
    expect(body('/api/v1/topup/entry').required).toEqual(
      expect.arrayContaining(['id', 'userby_id', 'plan_id', 'amount']),
    );
  });
});
