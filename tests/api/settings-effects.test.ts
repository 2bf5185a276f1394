import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.ts';
import { DEFAULT_SETTINGS } from '../../src/shared/settings.ts';
import { ApiClient, signedInMember } from '../helpers/client.ts';
import { backdate, buy, createPlan, expectBooksBalanced, member, runDate } from '../helpers/income.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// The settings beyond the transfer and withdrawal rules (issue 19, RULES.md: "every number below is a
// default that an admin can change on the Settings screen"): the income cap, which each investment
// keeps from the day it was bought; the lifetime of e-mailed codes and links; the sign-in lifetimes of
// members and admins; the site name and support e-mail every mail is signed with, which members may
// also read. Each takes effect on the next operation without a restart. Runs on SQLite and PostgreSQL.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtp();
  // TRUST_PROXY: the income helpers register each member from an address of its own.
  server = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100', TRUST_PROXY: '127.0.0.1' });
  admin = new ApiClient(server.baseUrl);
  await admin.signIn(ADMIN, '/auth/adminsignin');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const put = (body: unknown) => admin.put('/settings', body);
const reset = async () => {
  const res = await put({ ...DEFAULT_SETTINGS, admin_two_factor_required: undefined });
  expect(res.status, res.text).toBe(200);
};
const secondsUntil = (iso: string) => (Date.parse(iso) - Date.now()) / 1000;

describe('the income cap', () => {
  afterAll(reset);

  it('is kept by each investment from its purchase: a lower cap stops only the investments bought under it', async () => {
    // 50% a day for 10 days: $5.00 a day on $10.00, so the cap, not the days, ends each investment.
    const planId = await createPlan(admin, { roi_percent: '50', duration_days: 10 });
    const owner = await member(server, admin, undefined, { business: '20' });
    const underDefault = await buy(owner, planId, '10');
    expect((await put({ income_cap_percent: '150' })).status).toBe(200);
    const underLower = await buy(owner, planId, '10');
    // Raised again after both were bought: neither changes.
    expect((await put({ income_cap_percent: '300' })).status).toBe(200);

    const summary = await owner.client.get('/income/summary');
    expect(summary.status, summary.text).toBe(200);
    const byId = (id: string) => summary.body.investments.find((i: { id: string }) => i.id === id);
    expect(byId(underDefault)).toMatchObject({ cap: '20.00', cap_percent: '200.00' });
    expect(byId(underLower)).toMatchObject({ cap: '15.00', cap_percent: '150.00' });

    const boughtOn = await backdate(server, underDefault, 6);
    await backdate(server, underLower, 6);
    for (let day = 0; day < 5; day += 1) {
      const run = await runDate(admin, addDays(boughtOn, day));
      expect(run.status, run.text).toBe(200);
    }
    const after = await owner.client.get('/income/summary');
    const paid = (id: string) =>
      after.body.investments.find((i: { id: string }) => i.id === id) as Record<string, unknown>;
    // 5 + 5 + 5 + 5 = 20.00 under 200%; 5 + 5 + 5 = 15.00 under 150%, then nothing more.
    expect(paid(underDefault)).toMatchObject({
      roi_paid: '20.00',
      status: 'completed',
      cap_reached_percent: '100.00',
    });
    expect(paid(underLower)).toMatchObject({
      roi_paid: '15.00',
      status: 'completed',
      cap_reached_percent: '100.00',
    });
    expect((await owner.client.get('/wallet/balance')).body.working).toBe('35.00');
    await expectBooksBalanced(admin);
  });
});

describe('the e-mailed code and link lifetime', () => {
  afterAll(reset);

  it('applies to the next code: the mail names it and the code expires after it', async () => {
    expect((await put({ otp_lifetime_seconds: 1800 })).status).toBe(200);
    const { client, member: m } = await signedInMember(server.baseUrl);
    const after = smtp.mails.length;
    expect((await client.post('/auth/email-verification')).status).toBe(200);
    const mail = await smtp.waitFor(m.email, (x) => smtp.mails.indexOf(x) >= after);
    expect(mail.text).toContain('It works once and for 30 minutes.');
    const row = await server.db
      .selectFrom('email_codes')
      .innerJoin('users', 'users.id', 'email_codes.user_id')
      .select(['email_codes.expires_at', 'email_codes.created_at'])
      .where('users.email', '=', m.email)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(1_800_000);
  });

  it('applies to the next password reset link', async () => {
    expect((await put({ otp_lifetime_seconds: 3600 })).status).toBe(200);
    const { member: m } = await signedInMember(server.baseUrl);
    expect((await new ApiClient(server.baseUrl).post('/pass/forget', { email: m.email })).status).toBe(200);
    const mail = await smtp.waitFor(m.email, (x) => x.text.includes('reset-password'));
    expect(mail.text).toContain('The link works once and for 60 minutes.');
  });
});

describe('sign-in lifetimes', () => {
  afterAll(reset);

  it('a member signing in after a change gets a session of the new length; one signed in before keeps theirs', async () => {
    const before = await signedInMember(server.baseUrl);
    expect(secondsUntil(before.expireAt)).toBeGreaterThan(86_400 - 120);
    expect((await put({ member_session_seconds: 3600 })).status).toBe(200);
    const after = await signedInMember(server.baseUrl);
    expect(secondsUntil(after.expireAt)).toBeGreaterThan(3600 - 120);
    expect(secondsUntil(after.expireAt)).toBeLessThanOrEqual(3600);
    // The earlier session is untouched, and still works.
    expect((await before.client.get('/auth/session')).status).toBe(200);
  });

  it('an admin signing in after a change gets a session of the admin length', async () => {
    expect((await put({ admin_session_seconds: 2 * 3600 })).status).toBe(200);
    const fresh = new ApiClient(server.baseUrl);
    const res = await fresh.signIn(ADMIN, '/auth/adminsignin');
    expect(secondsUntil(res.body.expireAt)).toBeGreaterThan(7200 - 120);
    expect(secondsUntil(res.body.expireAt)).toBeLessThanOrEqual(7200);
  });
});

describe('the site name and support e-mail', () => {
  afterAll(reset);

  it('sign every mail from the next one on, and anyone may read them', async () => {
    const defaults = await new ApiClient(server.baseUrl).get('/settings/public');
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({ site_name: 'Member Platform', support_email: '' });

    const { client, member: m } = await signedInMember(server.baseUrl);
    let after = smtp.mails.length;
    expect((await client.post('/auth/email-verification')).status).toBe(200);
    const plain = await smtp.waitFor(m.email, (x) => smtp.mails.indexOf(x) >= after);
    expect(plain.from).toMatch(/^"?Member Platform"? </);
    expect(plain.text.trim().endsWith('— Member Platform')).toBe(true);

    const saved = await put({ site_name: '  Acme Academy ', support_email: 'help@acme.example' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.settings).toMatchObject({
      site_name: 'Acme Academy',
      support_email: 'help@acme.example',
    });
    expect((await new ApiClient(server.baseUrl).get('/settings/public')).body).toEqual({
      site_name: 'Acme Academy',
      support_email: 'help@acme.example',
    });

    after = smtp.mails.length;
    expect((await client.post('/auth/email-verification')).status).toBe(200);
    const signed = await smtp.waitFor(m.email, (x) => smtp.mails.indexOf(x) >= after);
    expect(signed.from).toMatch(/^"?Acme Academy"? </);
    expect(signed.text.trim().endsWith('— Acme Academy. Questions? Write to help@acme.example.')).toBe(true);
    expect(signed.html).toContain('Questions? Write to help@acme.example.');
  });

  it('are changed by admins only', async () => {
    const { client } = await signedInMember(server.baseUrl);
    expect((await client.put('/settings', { site_name: 'Mine now' })).status).toBe(403);
    expect((await new ApiClient(server.baseUrl).put('/settings', { site_name: 'Mine now' })).status).toBe(
      401,
    );
    expect((await new ApiClient(server.baseUrl).get('/settings/public')).body.site_name).not.toBe('Mine now');
  });
});
