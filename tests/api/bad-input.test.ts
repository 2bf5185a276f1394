import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '../../src/shared/constants.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { TICKET_CATEGORIES } from '../../src/shared/tickets.ts';
import { ApiClient, newMember, registerMember, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Bad input found by fuzzing every operation: a body that is not a JSON object ran some calls on their
// defaults (`[]` to POST /income/run paid yesterday's income), and free text took control characters
// and lone surrogates (PostgreSQL cannot store NUL). Every call is walked from the OpenAPI document.

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

/** Every table's row count: what a refused call must leave as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const names =
    server.dialect === 'postgres'
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(server.db)
        ).rows
      : (
          await sql<{ name: string }>`select name from sqlite_master
            where type = 'table' and name not like 'sqlite_%'`.execute(server.db)
        ).rows;
  const counts: Record<string, number> = {};
  for (const { name } of names) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(
      server.db,
    );
    counts[name] = Number(rows[0]?.n);
  }
  return counts;
}

// The JSON texts sent as bodies: an array, a string, a number, null.
const NOT_OBJECTS = ['[]', '"x"', '1', 'null'];
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

describe('a body that is not a JSON object', () => {
  it('is a 400 with the API error body on every operation that takes a body, and changes nothing', async () => {
    const doc = (await admin.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json')).body;
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        // GET and HEAD bodies are never read.
        .filter((method) => !['get', 'head'].includes(method))
        .map((method) => ({
          method: method.toUpperCase(),
          path: path.slice(API_BASE.length).replace(/\{[^}]+\}/g, PLACEHOLDER_ID),
        })),
    );
    expect(operations.length).toBeGreaterThan(100);
    for (const money of ['/income/run', '/salary/run', '/users/send/reward'])
      expect(operations.map((o) => o.path)).toContain(money);

    const before = await rowCounts();
    const answers: string[] = [];
    for (const { method, path } of operations)
      for (const body of NOT_OBJECTS) {
        const res = await admin.request(method, path, { body });
        const expected = {
          message: GENERIC.bodyNotObject,
          errors: [{ field: 'body', message: GENERIC.bodyNotObject }],
        };
        if (res.status !== 400 || JSON.stringify(res.body) !== JSON.stringify(expected))
          answers.push(`${method} ${path} ${body}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    expect(answers).toEqual([]);
    expect(await rowCounts()).toEqual(before);
    // The admin's session survived the walk (sign-out answered 400 too).
    expect((await admin.get('/auth/session')).status).toBe(200);
  });

  it('still lets a call with no body at all run on its defaults', async () => {
    const res = await admin.request('POST', '/income/run');
    expect(res.status, res.text).toBe(200);
  });
});

describe('free text', () => {
  const CATEGORY = TICKET_CATEGORIES[0];
  const NUL = 'Ann\u0000Lee';
  const LONE_SURROGATE = 'Ann \ud800Lee';

  it('refuses a full name with a NUL or a lone surrogate at PUT /profile and at registration; the name stays', async () => {
    const member = await registerMember(server.baseUrl);
    const client = new ApiClient(server.baseUrl);
    await client.signIn(member);
    for (const fullname of [NUL, LONE_SURROGATE, 'Ann\tLee', 'Ann\nLee', 'Ann\u007fLee']) {
      const res = await client.put('/profile', { fullname });
      expect(res.status, `${JSON.stringify(fullname)}: ${res.text}`).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'fullname', message: GENERIC.textCharacters }]);
    }
    expect((await client.get('/auth/session')).body.auth.fullname).toBe(member.fullname);
    const fine = await client.put('/profile', { fullname: 'Ann Lee 😀' });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.auth.fullname).toBe('Ann Lee 😀');

    const register = await new ApiClient(server.baseUrl).post('/auth/register', {
      ...newMember(),
      fullname: NUL,
    });
    expect(register.status).toBe(400);
  });

  it('keeps line feeds and tabs in a ticket message but refuses other control characters and lone surrogates', async () => {
    const member = await registerMember(server.baseUrl);
    const client = new ApiClient(server.baseUrl);
    await client.signIn(member);
    const before = await rowCounts();
    for (const message of ['Line one\r\nline two', 'Bell \u0007', NUL, LONE_SURROGATE]) {
      const res = await client.post('/tickets', { subject: 'Help', category: CATEGORY, message });
      expect(res.status, `${JSON.stringify(message)}: ${res.text}`).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'message', message: GENERIC.textCharacters }]);
    }
    for (const subject of ['Two\nlines', NUL]) {
      const res = await client.post('/tickets', { subject, category: CATEGORY, message: 'Hello' });
      expect(res.status, `${JSON.stringify(subject)}: ${res.text}`).toBe(400);
    }
    expect(await rowCounts()).toEqual(before);
    const ok = await client.post('/tickets', {
      subject: 'Help',
      category: CATEGORY,
      message: 'Line one\nline two\twith a tab',
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('refuses a NUL in an adjustment reason and a lone surrogate in a plan name, moving no money', async () => {
    const member = await registerMember(server.baseUrl);
    const client = new ApiClient(server.baseUrl);
    const { body } = await client.signIn(member);
    const before = await rowCounts();
    const adjustment = await admin.post('/admin/adjustments', {
      user_id: body.auth.id,
      wallet: 'business',
      direction: 'credit',
      amount: '10.00',
      reason: `Refund ${NUL}`,
    });
    expect(adjustment.status, adjustment.text).toBe(400);
    const plan = await admin.post('/plans/add', {
      name: `Gold${LONE_SURROGATE}`,
      min_amount: '10',
      max_amount: '100',
      roi_percent: '1',
      duration_days: 10,
    });
    expect(plan.status, plan.text).toBe(400);
    expect(await rowCounts()).toEqual(before);
  });
});
