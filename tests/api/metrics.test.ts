import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '../../src/shared/constants.ts';
import { yesterday } from '../../src/shared/dates.ts';
import { openStream } from '../fixtures/live-stream.ts';
import { ApiClient, fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { backdate, createPlan, runDate } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 20 "Watch it": GET /api/v1/metrics in Prometheus' text format, behind METRICS_TOKEN, and the
// readiness check that a load balancer reads. The counters are compared before and after what the
// test did, so they must move by exactly that.

const TOKEN = randomBytes(32).toString('hex');

let server: TestServer;
let plain: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  [server, plain] = await Promise.all([startServer({ METRICS_TOKEN: TOKEN }), startServer()]);
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await Promise.all([server?.stop(), plain?.stop()]);
});

type Labels = Record<string, string>;
type Sample = { name: string; labels: Labels; value: number };

/** The samples of a Prometheus text exposition (comments skipped). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Labels = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = pair[2] as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

type Scrape = {
  text: string;
  samples: Sample[];
  value: (name: string, labels?: Labels) => number | undefined;
};

/** One scrape with the token; the value of the one series with exactly these labels (undefined: absent). */
async function scrape(): Promise<Scrape> {
  const res = await fetch(`${server.baseUrl}${API_BASE}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = parse(text);
  const value = (name: string, labels: Labels = {}) => {
    const found = samples.filter(
      (s) =>
        s.name === name &&
        Object.keys(s.labels).length === Object.keys(labels).length &&
        Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
    if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} series`);
    return found[0]?.value;
  };
  return { text, samples, value };
}

const metricsCall = (base: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${API_BASE}/metrics`, { headers });

describe('GET /api/v1/metrics access', () => {
  it('answers 401 without a token, with a wrong one, or with another scheme', async () => {
    const wrong = TOKEN.slice(0, -1) + (TOKEN.endsWith('0') ? '1' : '0');
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${wrong}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await metricsCall(server.baseUrl, headers);
      const text = await res.text();
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(text).not.toContain('process_cpu');
    }
  });

  it('is a 404 when METRICS_TOKEN is not set, whatever the caller sends', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of attempts) {
      const res = await metricsCall(plain.baseUrl, headers);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('http_requests_total');
    }
  });

  it('answers the Prometheus text format with the process metrics, and does not count its own scrapes', async () => {
    await scrape();
    const { value, samples } = await scrape();
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples.filter((s) => s.labels.route === `${API_BASE}/metrics`)).toEqual([]);
  });
});

describe('what the platform did, as the metrics count it', () => {
  it('counts requests by route pattern and status, and ledger transfers by kind', async () => {
    const alice = await fundedMember(server.baseUrl, admin, { business: '300.00' });
    const bob = await fundedMember(server.baseUrl, admin);
    const before = await scrape();

    const signIn = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: alice.member.email,
      password: alice.member.password,
    });
    expect(signIn.status).toBe(200);
    const failedSignIn = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: alice.member.email,
      password: 'not-the-password-at-all',
    });
    expect(failedSignIn.status).toBe(401);
    const sent = await alice.client.post('/transfer/touser', {
      userto_id: bob.auth.id,
      user_id: alice.auth.id,
      amount: '12.50',
      from: 'business',
      to: 'business',
    });
    expect(sent.status, sent.text).toBe(201);
    for (const who of [alice, bob])
      expect((await who.client.get(`/transfer/byid/${who.auth.id}`)).status).toBe(200);
    expect((await alice.client.get(`/no-such-call/${alice.auth.id}`)).status).toBe(404);

    const after = await scrape();
    const moved = (name: string, labels: Labels) =>
      (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    const route = (path: string) => `${API_BASE}${path}`;
    expect(
      moved('http_requests_total', { method: 'POST', route: route('/auth/signin'), status: '200' }),
    ).toBe(1);
    expect(
      moved('http_requests_total', { method: 'POST', route: route('/auth/signin'), status: '401' }),
    ).toBe(1);
    expect(
      moved('http_requests_total', { method: 'POST', route: route('/transfer/touser'), status: '201' }),
    ).toBe(1);
    expect(
      moved('http_requests_total', { method: 'GET', route: route('/transfer/byid/:id'), status: '200' }),
    ).toBe(2);
    expect(moved('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(
      moved('http_request_duration_seconds_count', { method: 'POST', route: route('/transfer/touser') }),
    ).toBe(1);
    expect(
      moved('http_request_duration_seconds_bucket', {
        method: 'POST',
        route: route('/transfer/touser'),
        le: '+Inf',
      }),
    ).toBe(1);
    expect(moved('ledger_transfers_total', { kind: 'transfer' })).toBe(1);

    // No member's id, e-mail or name is ever a label value; no raw URL either.
    for (const secret of [alice.auth.id, bob.auth.id, alice.member.email, alice.member.username])
      expect(after.text).not.toContain(secret);
    expect(after.samples.some((s) => s.labels.route?.includes('no-such-call'))).toBe(false);

    if (server.dialect === 'sqlite')
      expect(after.value('sqlite_group_commit_batch_size_count')).toBeGreaterThan(
        before.value('sqlite_group_commit_batch_size_count') ?? 0,
      );
    else expect(after.value('sqlite_group_commit_batch_size_count')).toBe(0);
  });

  it('times an income run, reports its status and counts the ROI it wrote', async () => {
    const investor = await fundedMember(server.baseUrl, admin, { business: '500.00' });
    const planId = await createPlan(admin, { roi_percent: '1.00', duration_days: 30 });
    const topup = await investor.client.post('/topup/add', { plan_id: planId, amount: '200.00' });
    expect(topup.status, topup.text).toBe(201);
    await backdate(server, topup.body.topup.id, 3);
    const before = await scrape();
    // A labelled histogram shows a label only once it has observed something.
    expect(before.value('income_run_duration_seconds_count', { status: 'completed' })).toBeUndefined();

    const run = await runDate(admin, yesterday());
    expect(run.status, run.text).toBe(200);
    expect(run.body.run.investments_paid).toBe(1);

    const after = await scrape();
    expect(after.value('income_run_duration_seconds_count', { status: 'completed' })).toBe(1);
    expect(after.value('income_run_duration_seconds_count', { status: 'failed' })).toBeUndefined();
    expect(
      (after.value('ledger_transfers_total', { kind: 'roi' }) ?? 0) -
        (before.value('ledger_transfers_total', { kind: 'roi' }) ?? 0),
    ).toBe(1);
    expect(after.value('income_last_run_status', { status: 'completed' })).toBe(1);
    expect(after.value('income_last_run_status', { status: 'failed' })).toBe(0);
    const finished = after.value('income_last_run_finished_timestamp_seconds') ?? 0;
    expect(Math.abs(finished - Date.now() / 1000)).toBeLessThan(600);
  });

  it('reports the mail outbox depth by status from the database', async () => {
    const before = await scrape();
    expect(before.value('mail_outbox_depth', { status: 'pending' })).toEqual(expect.any(Number));
    const failedBefore = before.value('mail_outbox_depth', { status: 'failed' }) ?? -1;
    expect(failedBefore).toBeGreaterThanOrEqual(0);
    // A mail the worker gave up on stays failed until an admin resends it: nothing else moves it.
    const now = new Date().toISOString();
    await server.db
      .insertInto('mail_outbox')
      .values({
        id: randomUUID(),
        to_address: 'nobody@example.com',
        subject: 'Undeliverable',
        text_body: 'x',
        html_body: '<p>x</p>',
        status: 'failed',
        attempts: 5,
        next_attempt_at: now,
        last_error: '550 no such user',
        created_at: now,
        sent_at: null,
      })
      .execute();
    expect((await scrape()).value('mail_outbox_depth', { status: 'failed' })).toBe(failedBefore + 1);
  });

  it('counts open live-event streams', async () => {
    const viewer = await fundedMember(server.baseUrl, admin);
    expect((await scrape()).value('live_stream_clients')).toBe(0);
    const stream = await openStream(server.baseUrl, viewer.client.cookieHeader());
    await stream.waitFor((messages) => messages.some((m) => m.topic === 'ready'));
    expect((await scrape()).value('live_stream_clients')).toBe(1);
    stream.close();
    await expect.poll(async () => (await scrape()).value('live_stream_clients')).toBe(0);
  });
});

describe('GET /api/v1/health/ready', () => {
  it('is ready while the process serves, and 503 once it drains while liveness stays ok', async () => {
    const ready = await fetch(`${plain.baseUrl}${API_BASE}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });

    plain.drain();
    const draining = await fetch(`${plain.baseUrl}${API_BASE}/health/ready`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'draining' });
    const live = await fetch(`${plain.baseUrl}${API_BASE}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
  });
});
