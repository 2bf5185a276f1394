import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dateOf } from '../../src/shared/dates.ts';
import { REPORT_IDS, REPORT_MESSAGES, REPORTS, type ReportId } from '../../src/shared/reports.ts';
import { ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { buy, createPlan, type Member, member } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { TX_HASH } from '../helpers/withdrawals.ts';

// Admin reports (issue 19 item 2, docs/rules.md "Reports"): money moved through the real API (a crypto
// payment, an on-chain deposit and a manual deposit, a top-up paying activation income, a daily income
// run, transfers, a payout), then the reports must show exactly what moved, in the right day and month,
// with quiet days as zero rows, and each CSV must be its table. Runs on SQLite and on PostgreSQL.

let server: TestServer;
let admin: ApiClient;
const today = dateOf();
const yesterday = addDays(today, -1);

beforeAll(async () => {
  server = await startServer({ SANDBOX_STEP_MS: '20', PAYMENT_SWEEP_MS: '0', TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const newHash = () => `0x${randomBytes(32).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const reports = (query: string, who: ApiClient = admin) => who.get(`/admin/reports?${query}`);
const exportCsv = (query: string, who: ApiClient = admin) => who.get(`/admin/reports/export?${query}`);

async function reportsOk(query: string) {
  const res = await reports(query);
  expect(res.status, res.text).toBe(200);
  return res.body.reports as Record<
    ReportId,
    { rows: Record<string, unknown>[]; totals: Record<string, unknown> }
  >;
}

/** A crypto payment through the sandbox provider, paid in full and polled until credited. */
async function cryptoDeposit(m: Member, amount: string) {
  const created = await m.client.post('/payments/create-payment', {
    price_amount: amount,
    price_currency: 'usd',
    pay_currency: 'usdtbsc',
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.payment_id as string;
  expect((await m.client.post(`/payments/sandbox/${id}/pay`, {})).status).toBe(200);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await m.client.get(`/payments/payment-status/${id}`);
    if (res.body.payment_status === 'finished') return;
    if (Date.now() > deadline) throw new Error(`payment ${id} stayed ${res.body.payment_status}`);
    await sleep(20);
  }
}

/** An on-chain deposit: no chain RPC in tests, so it waits for an admin, who approves the amount. */
async function onchainDeposit(m: Member, amount: string) {
  const sent = await m.client.post('/web3/deposits', { chain_id: 56, tx_hash: newHash() });
  expect(sent.status, sent.text).toBe(201);
  const approved = await admin.post(`/web3/deposits/${sent.body.deposit.id}/approve`, { amount });
  expect(approved.status, approved.text).toBe(200);
}

/** A manual deposit the member reports and an admin approves; returns its id. */
async function manualDeposit(m: Member, amount: string): Promise<string> {
  const sent = await m.client.post('/deposite/add', { amount, tx_hash: newHash() });
  expect(sent.status, sent.text).toBe(201);
  const { id, user_id } = sent.body.deposit;
  const approved = await admin.put(`/deposite/${id}`, { status: 'approved', amount, user_id });
  expect(approved.status, approved.text).toBe(200);
  return id;
}

const auditTotal = async () => (await admin.get('/audit')).body.total as number;

describe('the reports over real money movement', () => {
  let sponsor: Member;
  let payer: Member;
  let investor: Member;
  let manualDepositId: string;
  let auditBefore: number;

  beforeAll(async () => {
    // Before anything moved: a fresh platform reports zeros (and the admin is no member).
    const empty = await reportsOk(`from=${today}&to=${today}`);
    expect(empty.members.totals).toMatchObject({ new: 0, activated: 0 });
    expect(empty.deposits.totals).toMatchObject({ total: '0.00', count: 0 });

    const books = { baseUrl: server.baseUrl, db: server.db };
    // Adjustments fund these wallets: they are support's credits, not deposits, and must not count.
    sponsor = await member(books, admin, undefined, { business: '100.00' });
    payer = await member(books, admin, undefined);
    investor = await member(books, admin, sponsor, { business: '2000.00' });

    await cryptoDeposit(payer, '25.00');
    await onchainDeposit(payer, '40.00');
    manualDepositId = await manualDeposit(payer, '125.50');

    // A top-up of 2,000.00 pays the sponsor 5% activation income (100.00) and activates the investor;
    // today's income run pays the investor 1% ROI (20.00) and the sponsor 10% of it (2.00).
    const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30 });
    await buy(investor, planId, '2000.00');
    const run = await admin.post('/income/run', { date: today });
    expect(run.status, run.text).toBe(200);

    // Two transfers to other members count; a move between one's own wallets does not.
    for (const [from, to, amount] of [
      [sponsor, payer, '20.00'],
      [payer, sponsor, '7.25'],
    ] as const) {
      const sent = await from.client.post('/transfer/touser', {
        userto_id: to.id,
        user_id: from.id,
        amount,
        from: 'business',
        to: 'business',
      });
      expect(sent.status, sent.text).toBe(201);
    }
    const own = await sponsor.client.post('/transfer/touser', {
      userto_id: sponsor.id,
      user_id: sponsor.id,
      amount: '5.00',
      from: 'business',
      to: 'working',
    });
    expect(own.status, own.text).toBe(201);

    // Support records a payout of 40.00 from the sponsor's income: 38.00 paid out, 2.00 fee (5%).
    const paid = await admin.post('/withdrawalrequest/debit', {
      user_id: sponsor.id,
      amount: '40',
      tx_hash: TX_HASH,
      reason: 'Paid by support',
    });
    expect(paid.status, paid.text).toBe(201);
    auditBefore = await auditTotal();
  });

  it('shows today what moved, by day: deposits by source, income by kind, transfers, payouts, members', async () => {
    const r = await reportsOk(`from=${today}&to=${today}&group=day`);
    expect(r.deposits.rows).toEqual([
      {
        bucket: today,
        crypto: '25.00',
        onchain: '40.00',
        manual: '125.50',
        other: '0.00',
        total: '190.50',
        count: 3,
      },
    ]);
    expect(r.income.rows).toEqual([
      {
        bucket: today,
        roi: '20.00',
        level_income: '2.00',
        activation_income: '100.00',
        reward: '0.00',
        salary: '0.00',
        cto: '0.00',
        other: '0.00',
        total: '122.00',
      },
    ]);
    expect(r.transfers.rows).toEqual([{ bucket: today, amount: '27.25', count: 2 }]);
    expect(r.withdrawals.rows).toEqual([{ bucket: today, amount: '38.00', count: 1, fees: '2.00' }]);
    expect(r.members.rows).toEqual([{ bucket: today, new: 3, activated: 1 }]);
    expect(r.income_vs_deposits.rows).toEqual([
      {
        bucket: today,
        income: '122.00',
        deposits: '190.50',
        net: '68.50',
        cumulative_income: '122.00',
        cumulative_deposits: '190.50',
        cumulative_net: '68.50',
      },
    ]);
    // Each table's totals row is the sum of its rows.
    expect(r.deposits.totals).toEqual({ ...r.deposits.rows[0], bucket: 'total' });
  });

  it('lists every day of the period, quiet days as rows of zeros, and counts nothing after `to`', async () => {
    const from = addDays(today, -3);
    const r = await reportsOk(`from=${from}&to=${today}&group=day`);
    expect(r.deposits.rows.map((row) => row.bucket)).toEqual([from, addDays(today, -2), yesterday, today]);
    for (const id of REPORT_IDS) expect(r[id].rows).toHaveLength(4);
    expect(r.deposits.rows[0]).toEqual({
      bucket: from,
      crypto: '0.00',
      onchain: '0.00',
      manual: '0.00',
      other: '0.00',
      total: '0.00',
      count: 0,
    });
    expect(r.members.rows.slice(0, 3)).toEqual(
      [from, addDays(today, -2), yesterday].map((bucket) => ({ bucket, new: 0, activated: 0 })),
    );
    expect(r.income_vs_deposits.rows[2]).toMatchObject({
      cumulative_income: '0.00',
      cumulative_deposits: '0.00',
    });
    expect(r.income_vs_deposits.rows[3]).toMatchObject({
      cumulative_income: '122.00',
      cumulative_deposits: '190.50',
    });

    // A period that ends yesterday counts none of today's movements.
    const before = await reportsOk(`from=${from}&to=${yesterday}`);
    for (const id of REPORT_IDS) expect(before[id].rows).toHaveLength(3);
    expect(before.deposits.totals).toMatchObject({ total: '0.00', count: 0 });
    expect(before.income.totals).toMatchObject({ total: '0.00' });
    expect(before.transfers.totals).toEqual({ bucket: 'total', amount: '0.00', count: 0 });
    expect(before.withdrawals.totals).toEqual({ bucket: 'total', amount: '0.00', count: 0, fees: '0.00' });
    expect(before.members.totals).toEqual({ bucket: 'total', new: 0, activated: 0 });
  });

  it('groups by month, each month of the period present', async () => {
    const from = `${addDays(`${today.slice(0, 7)}-01`, -40).slice(0, 7)}-01`;
    const r = await reportsOk(`from=${from}&to=${today}&group=month`);
    const months = r.deposits.rows.map((row) => row.bucket);
    expect(months).toHaveLength(3);
    expect(months.at(-1)).toBe(today.slice(0, 7));
    expect(r.deposits.rows[0]).toMatchObject({ total: '0.00', count: 0 });
    expect(r.deposits.rows.at(-1)).toMatchObject({ bucket: today.slice(0, 7), total: '190.50', count: 3 });
    expect(r.income.rows.at(-1)).toMatchObject({ total: '122.00', roi: '20.00' });
    expect(r.members.totals).toEqual({ bucket: 'total', new: 3, activated: 1 });
  });

  it('puts a movement at 23:59:59.999 UTC on its own day, not the next', async () => {
    // The API moves money only now, so the manual deposit's ledger row is moved to the last
    // millisecond of yesterday, as if it had been approved then (as income tests backdate top-ups).
    await server.db
      .updateTable('ledger_transfers')
      .set({ created_at: `${yesterday}T23:59:59.999Z` })
      .where('reference', '=', `manual-deposit:${manualDepositId}`)
      .execute();
    const r = await reportsOk(`from=${yesterday}&to=${today}`);
    expect(r.deposits.rows).toEqual([
      {
        bucket: yesterday,
        crypto: '0.00',
        onchain: '0.00',
        manual: '125.50',
        other: '0.00',
        total: '125.50',
        count: 1,
      },
      {
        bucket: today,
        crypto: '25.00',
        onchain: '40.00',
        manual: '0.00',
        other: '0.00',
        total: '65.00',
        count: 2,
      },
    ]);
    expect(r.income_vs_deposits.rows).toEqual([
      {
        bucket: yesterday,
        income: '0.00',
        deposits: '125.50',
        net: '125.50',
        cumulative_income: '0.00',
        cumulative_deposits: '125.50',
        cumulative_net: '125.50',
      },
      {
        bucket: today,
        income: '122.00',
        deposits: '65.00',
        net: '-57.00',
        cumulative_income: '122.00',
        cumulative_deposits: '190.50',
        cumulative_net: '68.50',
      },
    ]);
    // A period starting today leaves it out; one ending yesterday has it alone.
    expect((await reportsOk(`from=${today}&to=${today}`)).deposits.totals).toMatchObject({ total: '65.00' });
    expect((await reportsOk(`from=${yesterday}&to=${yesterday}`)).deposits.totals).toMatchObject({
      manual: '125.50',
      total: '125.50',
    });
  });

  it('downloads each report as a CSV with the rows and figures of its table', async () => {
    const query = `from=${yesterday}&to=${today}&group=day`;
    const r = await reportsOk(query);
    for (const id of REPORT_IDS) {
      const res = await exportCsv(`${query}&report=${id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="${id}-${yesterday}-to-${today}-by-day.csv"`,
      );
      const lines = res.text.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines.pop()).toBe('');
      const columns = REPORTS[id].columns;
      expect(lines[0]).toBe(['Day (UTC)', ...columns.map((c) => c.label)].join(','));
      const expected = [...r[id].rows, { ...r[id].totals, bucket: 'Total' }].map((row) =>
        [row.bucket, ...columns.map((c) => row[c.key])].join(','),
      );
      expect(lines.slice(1)).toEqual(expected);
    }
    // A byte-order mark first, so spreadsheet programs read the file as UTF-8 (fetch's text() drops it).
    const raw = await fetch(`${server.baseUrl}/api/v1/admin/reports/export?${query}&report=deposits`, {
      headers: { cookie: admin.cookieHeader() },
    });
    expect(raw.headers.get('cache-control')).toBe('no-store');
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // A negative amount stays a number a spreadsheet can add up; no cell can start a formula.
    const net = await exportCsv(`${query}&report=income_vs_deposits`);
    expect(net.text).toContain(`${today},122.00,65.00,-57.00,`);
    for (const cell of net.text.replace(/^\uFEFF/, '').split(/[,\r\n]+/))
      expect(cell).not.toMatch(/^[=+@\t]|^-[^0-9]/);

    const byMonth = await exportCsv(`from=${yesterday}&to=${today}&group=month&report=members`);
    expect(byMonth.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Month (UTC),New members,Activated');
    expect(byMonth.text).toContain('Total,3,1\r\n');
  });

  it('reads only: the report calls write no audit entry', async () => {
    await reportsOk(`from=${yesterday}&to=${today}`);
    await exportCsv(`from=${yesterday}&to=${today}&report=deposits`);
    expect(await auditTotal()).toBe(auditBefore);
  });
});

describe('the period is checked', () => {
  const fieldErrors = async (query: string) => {
    const [json, csv] = await Promise.all([reports(query), exportCsv(`${query}&report=deposits`)]);
    expect(json.status).toBe(400);
    expect(csv.status).toBe(400);
    expect(csv.body.errors).toEqual(json.body.errors);
    return json.body.errors as { field: string; message: string }[];
  };

  it('answers 400 with a field error for dates that are not dates, an end before the start and a bad grouping', async () => {
    expect(await fieldErrors(`from=2026-02-30&to=${today}`)).toEqual([
      { field: 'from', message: REPORT_MESSAGES.dateInvalid },
    ]);
    expect(await fieldErrors(`to=${today}`)).toEqual([
      { field: 'from', message: REPORT_MESSAGES.dateInvalid },
    ]);
    expect(await fieldErrors(`from=${today}&to=${yesterday}`)).toEqual([
      { field: 'to', message: REPORT_MESSAGES.toBeforeFrom },
    ]);
    expect(await fieldErrors(`from=${today}&to=${today}&group=week`)).toEqual([
      { field: 'group', message: REPORT_MESSAGES.groupInvalid },
    ]);
    const noReport = await exportCsv(`from=${today}&to=${today}&report=everything`);
    expect(noReport.status).toBe(400);
    expect(noReport.body.errors).toEqual([{ field: 'report', message: REPORT_MESSAGES.reportInvalid }]);
  });

  it('takes at most 366 days by day and 10 years by month', async () => {
    expect((await reports(`from=2025-01-01&to=2026-01-01&group=day`)).status).toBe(200);
    expect(await fieldErrors(`from=2025-01-01&to=2026-01-02&group=day`)).toEqual([
      { field: 'to', message: REPORT_MESSAGES.tooLong('day') },
    ]);
    const tenYears = await reports(`from=2016-01-01&to=2025-12-31&group=month`);
    expect(tenYears.status).toBe(200);
    expect(tenYears.body.reports.deposits.rows).toHaveLength(120);
    expect(await fieldErrors(`from=2016-01-01&to=2026-01-02&group=month`)).toEqual([
      { field: 'to', message: REPORT_MESSAGES.tooLong('month') },
    ]);
  });
});

describe('only admins see reports', () => {
  it('answers 401 signed out and 403 to a member, for the reports and their CSV', async () => {
    const query = `from=${today}&to=${today}`;
    const anonymous = new ApiClient(server.baseUrl);
    expect((await reports(query, anonymous)).status).toBe(401);
    expect((await exportCsv(`${query}&report=deposits`, anonymous)).status).toBe(401);
    const m = await member({ baseUrl: server.baseUrl, db: server.db }, admin, undefined, { active: false });
    const asMember = await reports(query, m.client);
    expect(asMember.status).toBe(403);
    expect(asMember.text).not.toContain('total');
    expect((await exportCsv(`${query}&report=deposits`, m.client)).status).toBe(403);
  });
});
