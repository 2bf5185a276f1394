import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS as RULE_DEFAULTS,
  SETTINGS_MESSAGES,
  settingRangeMessage,
} from '../../src/shared/settings.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { type ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { adminOn, projectDialect, sharedDatabase } from '../helpers/server-process.ts';

// Settings (issue 19, API.md "Settings"): an admin reads and changes the named values; a bad name or
// value is a 400 that changes nothing; each change is audited with before and after; the money code
// reads them in the transaction that moves the money, so the next transfer or withdrawal follows the
// new value, on every server process at once. Runs on SQLite and on PostgreSQL.

// The defaults as a test server starts: the rules' own, but for admin two-factor sign-in, which every
// test server turns off (tests/helpers/test-settings.ts; its default is proven in two-factor.test.ts).
const DEFAULT_SETTINGS = { ...RULE_DEFAULTS, admin_two_factor_required: false };

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
});

const put = (body: unknown) => admin.put('/settings', body);
const reset = () => put({ ...DEFAULT_SETTINGS, admin_two_factor_required: undefined });

const send = (member: Awaited<ReturnType<typeof fundedMember>>, to: string, amount: string) =>
  member.client.post('/transfer/touser', {
    userto_id: to,
    amount,
    from: 'business',
    to: 'business',
  });

describe('reading and changing settings', () => {
  it('starts at the rules’ defaults, in the API’s formats', async () => {
    const res = await admin.get('/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      settings: {
        transfer_review_threshold: '5000.00',
        daily_transfer_limit: '25000.00',
        withdrawal_minimum: '10.00',
        withdrawal_fee_percent: '5.00',
        income_cap_percent: '200.00',
        cto_share_percent: '1.00',
        otp_lifetime_seconds: 900,
        member_session_seconds: 86_400,
        admin_session_seconds: 28_800,
        member_idle_seconds: 7200,
        admin_idle_seconds: 1800,
        site_name: 'Member Platform',
        support_email: '',
        admin_two_factor_required: false,
      },
    });
  });

  it('refuses an unknown name or a bad value with a 400 naming the field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ nonsense: 1 }, 'nonsense', SETTINGS_MESSAGES.unknownName],
      [{ daily_transfer_limit: 'abc' }, 'daily_transfer_limit', settingRangeMessage('daily_transfer_limit')],
      [{ daily_transfer_limit: '0' }, 'daily_transfer_limit', settingRangeMessage('daily_transfer_limit')],
      [{ withdrawal_minimum: '1.234' }, 'withdrawal_minimum', settingRangeMessage('withdrawal_minimum')],
      [
        { withdrawal_fee_percent: '50.01' },
        'withdrawal_fee_percent',
        settingRangeMessage('withdrawal_fee_percent'),
      ],
      [{ cto_share_percent: -1 }, 'cto_share_percent', settingRangeMessage('cto_share_percent')],
      [{ income_cap_percent: '0.99' }, 'income_cap_percent', settingRangeMessage('income_cap_percent')],
      [{ otp_lifetime_seconds: 299 }, 'otp_lifetime_seconds', settingRangeMessage('otp_lifetime_seconds')],
      [{ otp_lifetime_seconds: 600.5 }, 'otp_lifetime_seconds', settingRangeMessage('otp_lifetime_seconds')],
      [{ otp_lifetime_seconds: '600' }, 'otp_lifetime_seconds', settingRangeMessage('otp_lifetime_seconds')],
      [
        { member_session_seconds: 91 * 86_400 },
        'member_session_seconds',
        settingRangeMessage('member_session_seconds'),
      ],
      [{ admin_session_seconds: 60 }, 'admin_session_seconds', settingRangeMessage('admin_session_seconds')],
      [{ site_name: '   ' }, 'site_name', settingRangeMessage('site_name')],
      [{ site_name: 'x'.repeat(61) }, 'site_name', settingRangeMessage('site_name')],
      [{ site_name: 'Evil\r\nBcc: a@b.c' }, 'site_name', settingRangeMessage('site_name')],
      [{ support_email: 'not-an-address' }, 'support_email', settingRangeMessage('support_email')],
      [{ admin_two_factor_required: 'yes' }, 'admin_two_factor_required', SETTINGS_MESSAGES.booleanValue],
    ];
    for (const [body, field, message] of cases) {
      const res = await put({ transfer_review_threshold: '100', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toContainEqual({ field, message });
    }
    expect((await put({})).status).toBe(400);
    // None of the refused bodies changed the valid name they carried.
    expect((await admin.get('/settings')).body.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('refuses a withdrawal minimum and fee that would pay out nothing, with a 400 naming both', async () => {
    const both = [
      { field: 'withdrawal_minimum', message: SETTINGS_MESSAGES.withdrawalNetsNothing },
      { field: 'withdrawal_fee_percent', message: SETTINGS_MESSAGES.withdrawalNetsNothing },
    ];
    // The fee of a one-cent withdrawal at 50% is that cent.
    const pair = await put({ withdrawal_minimum: '0.01', withdrawal_fee_percent: '50' });
    expect(pair.status, pair.text).toBe(400);
    expect(pair.body.errors).toEqual(both);
    expect((await admin.get('/settings')).body.settings).toMatchObject({
      withdrawal_minimum: DEFAULT_SETTINGS.withdrawal_minimum,
      withdrawal_fee_percent: DEFAULT_SETTINGS.withdrawal_fee_percent,
    });
    // Either one changed alone is held to the other as stored.
    expect((await put({ withdrawal_minimum: '0.01', withdrawal_fee_percent: '49.99' })).status).toBe(200);
    const fee = await put({ withdrawal_fee_percent: '50' });
    expect(fee.status, fee.text).toBe(400);
    expect(fee.body.errors).toEqual(both);
    expect((await admin.get('/settings')).body.settings.withdrawal_fee_percent).toBe('49.99');
    // Two cents at 50% pay out one.
    expect((await put({ withdrawal_minimum: '0.02', withdrawal_fee_percent: '50' })).status).toBe(200);
    await reset();
  });

  it('saves valid values in the API’s format and audits before and after', async () => {
    const res = await put({ withdrawal_fee_percent: 2.5, withdrawal_minimum: '20' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      message: SETTINGS_MESSAGES.saved,
      settings: { ...DEFAULT_SETTINGS, withdrawal_fee_percent: '2.50', withdrawal_minimum: '20.00' },
    });
    const audit = await admin.get('/audit');
    const entry = audit.body.entries.find((e: { action: string }) => e.action === 'settings.update');
    expect(JSON.stringify(entry)).toContain('"withdrawal_fee_percent":"5.00"');
    expect(JSON.stringify(entry)).toContain('"withdrawal_fee_percent":"2.50"');
    await reset();
  });

  it('keeps settings to admins', async () => {
    const { client } = await signedInMember(server.baseUrl);
    expect((await client.get('/settings')).status).toBe(403);
    expect((await client.put('/settings', { daily_transfer_limit: '1' })).status).toBe(403);
    expect((await admin.get('/settings')).body.settings).toEqual(DEFAULT_SETTINGS);
  });
});

describe('the money follows the settings at once', () => {
  afterAll(reset);

  it('a lower daily limit refuses the transfer that would pass it, and the member sees what is left', async () => {
    const [sender, recipient] = await Promise.all([
      fundedMember(server.baseUrl, admin, { business: '500' }),
      signedInMember(server.baseUrl),
    ]);
    expect((await put({ daily_transfer_limit: '100' })).status).toBe(200);
    expect((await send(sender, recipient.auth.id, '60')).status).toBe(201);
    const limits = await sender.client.get('/transfer/limits');
    expect(limits.body).toEqual({
      daily_limit: '100.00',
      review_threshold: '5000.00',
      sent_today: '60.00',
      left_today: '40.00',
    });
    const over = await send(sender, recipient.auth.id, '40.01');
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ message: TRANSFER_MESSAGES.dailyLimit(10_000) });
    expect(over.body.message).toBe('This transfer would exceed your daily transfer limit of $100.00');
    expect((await sender.client.get('/wallet/balance')).body.business).toBe('440.00');
    // Raised again: the same transfer goes.
    expect((await put({ daily_transfer_limit: '25000' })).status).toBe(200);
    expect((await send(sender, recipient.auth.id, '40.01')).status).toBe(201);
  });

  it('a lower review threshold holds the next transfer for an admin', async () => {
    const [sender, recipient] = await Promise.all([
      fundedMember(server.baseUrl, admin, { business: '500' }),
      signedInMember(server.baseUrl),
    ]);
    expect((await put({ transfer_review_threshold: '50' })).status).toBe(200);
    const held = await send(sender, recipient.auth.id, '50');
    expect(held.status, held.text).toBe(201);
    expect(held.body.transfer.status).toBe('pending');
    expect(held.body.message).toBe(TRANSFER_MESSAGES.pendingReview(5_000));
    expect((await send(sender, recipient.auth.id, '49.99')).body.transfer.status).toBe('completed');
    expect((await recipient.client.get('/wallet/balance')).body.business).toBe('49.99');
  });

  it('the withdrawal screen and the CTO preview show the minimum, fee and share in force', async () => {
    const member = await signedInMember(server.baseUrl);
    expect(
      (await put({ withdrawal_minimum: '25', withdrawal_fee_percent: '3', cto_share_percent: '2' })).status,
    ).toBe(200);
    const options = await member.client.get('/withdrawalrequest/options');
    expect(options.status, options.text).toBe(200);
    expect(options.body).toMatchObject({ minimum: '25.00', fee_percent: '3.00' });
    const cto = await admin.get('/cto');
    expect(cto.status, cto.text).toBe(200);
    expect(cto.body.share_percent).toBe('2.00');
  });
});

describe('on two server processes', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });

  it('a change made through one is followed by the next transfer through the other, without a restart', async () => {
    const shared = await sharedDatabase(projectDialect, {
      dirPrefix: 'settings',
      schemaPrefix: 'set',
      env: {},
      cleanups,
    });
    const one = await shared.start('one');
    const two = await shared.start('two');
    const [adminOne, adminTwo] = await Promise.all([adminOn(one.url), adminOn(two.url)]);
    const sender = await fundedMember(two.url, adminTwo, { business: '300' });
    const recipient = await signedInMember(two.url);
    expect((await adminOne.put('/settings', { daily_transfer_limit: '50' })).status).toBe(200);
    const over = await send(sender, recipient.auth.id, '50.01');
    expect(over.status).toBe(422);
    expect(over.body.message).toBe(TRANSFER_MESSAGES.dailyLimit(5_000));
    expect((await adminTwo.get('/settings')).body.settings.daily_transfer_limit).toBe('50.00');
  }, 120_000);
});
