import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { MEMBER_ADMIN_MESSAGES, USER_MESSAGES } from '../../src/shared/users.ts';
import {
  ApiClient,
  fundedMember,
  registerMember,
  signedInAdminClient,
  signedInMember,
} from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// PUT /users/{id} (spec 2 "Admin user detail", spec 3 User, spec 6, spec 7): the admin's edit form.
// Only the listed fields, validated on the server; role, password or any other field is a 400; the
// save sets updated_at, is audited, never moves money, and blocking ends the member's sessions.
// Members in this file: 9 (the server allows 20 registrations per 10 minutes per address).

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const BEP20 = '0x52908400098527886E0F7030069857D2E4169EE7';
const TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const userOf = async (id: string) => {
  const res = await admin.get(`/users/${id}`);
  expect(res.status).toBe(200);
  return res.body.singleuser;
};
const auditOf = (id: string) =>
  server.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).orderBy('created_at').execute();
const reconciled = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  return res.body.balanced as boolean;
};

describe('PUT /users/{id}: who may call it', () => {
  it('answers 401 signed out and 403 to members, on their own id and on anyone else’s', async () => {
    const a = await signedInMember(server.baseUrl);
    const b = await signedInMember(server.baseUrl);
    const before = await userOf(b.auth.id);

    const anonymous = await new ApiClient(server.baseUrl).put(`/users/${b.auth.id}`, { fullname: 'X' });
    expect(anonymous.status).toBe(401);
    for (const [client, id] of [
      [a.client, b.auth.id],
      [a.client, a.auth.id],
      [a.client, 'no-such-id'],
    ] as const) {
      const res = await client.put(`/users/${id}`, { fullname: 'Taken Over', status: 'unblock' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: GENERIC.forbidden });
    }
    expect(await userOf(b.auth.id)).toEqual(before);
    expect(await userOf(a.auth.id)).toMatchObject({ fullname: a.member.fullname });
  });

  it('answers 404 for an unknown id and for an admin account', async () => {
    const unknown = await admin.put('/users/00000000-0000-0000-0000-000000000000', { fullname: 'Nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(USER_MESSAGES.noMember);
    const me = await admin.get('/auth/session');
    const self = await admin.put(`/users/${me.body.admin.id}`, { fullname: 'Renamed Admin' });
    expect(self.status).toBe(404);
  });
});

describe('PUT /users/{id}: the edit form', () => {
  it('saves every listed field, sets updated_at and audits before and after of what changed', async () => {
    const { auth } = await signedInMember(server.baseUrl);
    const before = await userOf(auth.id);
    await new Promise((r) => setTimeout(r, 5));
    const body = {
      username: `Edited_${auth.username.slice(2, 14)}`,
      email: `  Edited.${auth.email.toUpperCase()}  `,
      status: 'unblock',
      is_active: 'active',
      roi_status: 'close',
      level_status: 'close',
      address: '1 Harbour Street, Valletta',
      business: '1250.5',
      business_balance: 99.99,
      fullname: 'Edited Person',
      phone: '+44 (20) 7946-0000',
      bep20: BEP20,
      trc20: TRC20,
      updated_at: '2001-01-01T00:00:00.000Z',
    };
    const res = await admin.put(`/users/${auth.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: USER_MESSAGES.updated });

    const after = await userOf(auth.id);
    expect(after).toMatchObject({
      username: body.username,
      email: `edited.${auth.email}`,
      status: 'unblock',
      is_active: 'active',
      roi_status: 'close',
      level_status: 'close',
      address: '1 Harbour Street, Valletta',
      business: '1250.50',
      business_balance: '99.99',
      fullname: 'Edited Person',
      phone: '+442079460000',
      bep20: BEP20,
      trc20: TRC20,
      role: 'user',
      created_at: before.created_at,
      refferal_code: before.refferal_code,
    });
    // The server's clock, not the client's value.
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(after.updated_at).not.toBe(body.updated_at);

    const [entry] = await auditOf(auth.id);
    expect(entry).toMatchObject({ action: 'user.update', target_type: 'user' });
    const me = await admin.get('/auth/session');
    expect(entry?.actor_id).toBe(me.body.admin.id);
    const beforeJson = JSON.parse(entry?.before_json ?? '{}');
    const afterJson = JSON.parse(entry?.after_json ?? '{}');
    // status was already unblock: not a change, not in the log.
    expect(Object.keys(afterJson).sort()).toEqual(
      [
        'address',
        'bep20',
        'business',
        'business_balance',
        'email',
        'fullname',
        'is_active',
        'level_status',
        'phone',
        'roi_status',
        'trc20',
        'username',
      ].sort(),
    );
    expect(beforeJson).toMatchObject({
      fullname: before.fullname,
      is_active: 'inactive',
      business: '0.00',
      address: null,
    });
    expect(afterJson).toMatchObject({
      fullname: 'Edited Person',
      business: '1250.50',
      business_balance: '99.99',
    });
  });

  it('never changes a wallet: business and business_balance are display and override figures', async () => {
    const member = await fundedMember(server.baseUrl, admin, { business: '40.00', working: '2.50' });
    const balanceBefore = await member.client.get('/wallet/balance');
    expect(balanceBefore.body).toMatchObject({ business: '40.00', working: '2.50' });
    const ledgerRows = async () =>
      (await server.db.selectFrom('ledger_transfers').select('id').execute()).length;
    const rowsBefore = await ledgerRows();

    const res = await admin.put(`/users/${member.auth.id}`, {
      business: '100000.00',
      business_balance: '7.00',
    });
    expect(res.status).toBe(200);
    expect(await userOf(member.auth.id)).toMatchObject({ business: '100000.00', business_balance: '7.00' });
    expect((await member.client.get('/wallet/balance')).body).toMatchObject({
      business: '40.00',
      working: '2.50',
    });
    expect((await userOf(member.auth.id)).balance).toMatchObject({ business: '40.00', working: '2.50' });
    expect(await ledgerRows()).toBe(rowsBefore);
    expect(await reconciled()).toBe(true);
  });

  it('clears the address and the payout addresses with an empty box', async () => {
    const { auth } = await signedInMember(server.baseUrl);
    await admin.put(`/users/${auth.id}`, { address: 'Somewhere 1', bep20: BEP20, trc20: TRC20 });
    const res = await admin.put(`/users/${auth.id}`, { address: '  ', bep20: '', trc20: null });
    expect(res.status).toBe(200);
    expect(await userOf(auth.id)).toMatchObject({ address: null, bep20: null, trc20: null });
  });

  it('answers 200 to a save that changes nothing, and writes no audit entry', async () => {
    const { auth } = await signedInMember(server.baseUrl);
    const res = await admin.put(`/users/${auth.id}`, { fullname: auth.fullname, status: 'unblock' });
    expect(res.status).toBe(200);
    expect(await auditOf(auth.id)).toEqual([]);
  });
});

describe('PUT /users/{id}: refusals change nothing', () => {
  let id: string;
  let username: string;
  beforeAll(async () => {
    const { auth } = await signedInMember(server.baseUrl);
    id = auth.id;
    username = auth.username;
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    ['role', { role: 'admin' }, 'role', USER_MESSAGES.roleLocked],
    ['role, even the same one', { role: 'user', fullname: 'Ok Name' }, 'role', USER_MESSAGES.roleLocked],
    ['a password', { password: 'a-brand-new-password-1' }, 'password', MEMBER_ADMIN_MESSAGES.passwordLocked],
    ['an unlisted field', { refferal_code: 'ABCDEFGH' }, 'refferal_code', MEMBER_ADMIN_MESSAGES.unknownField],
    [
      'another unlisted field',
      { total_team: 5, fullname: 'Ok Name' },
      'total_team',
      MEMBER_ADMIN_MESSAGES.unknownField,
    ],
    ['an e-mail without @', { email: 'not-an-email' }, 'email', AUTH.emailInvalid],
    ['an empty e-mail', { email: '' }, 'email', AUTH.emailRequired],
    ['a short username', { username: 'ab' }, 'username', AUTH.usernameInvalid],
    ['a username with spaces', { username: 'two words' }, 'username', AUTH.usernameInvalid],
    ['an empty full name', { fullname: '   ' }, 'fullname', AUTH.fullnameRequired],
    ['a phone with letters', { phone: '555-CALL-NOW' }, 'phone', AUTH.phoneInvalid],
    ['status other than unblock/block', { status: 'frozen' }, 'status', MEMBER_ADMIN_MESSAGES.statusInvalid],
    [
      'is_active other than active/inactive',
      { is_active: 'yes' },
      'is_active',
      MEMBER_ADMIN_MESSAGES.isActiveInvalid,
    ],
    [
      'roi_status other than open/close',
      { roi_status: 'closed' },
      'roi_status',
      MEMBER_ADMIN_MESSAGES.roiStatusInvalid,
    ],
    [
      'level_status as a boolean',
      { level_status: true },
      'level_status',
      MEMBER_ADMIN_MESSAGES.levelStatusInvalid,
    ],
    ['a negative business', { business: '-5' }, 'business', MEMBER_ADMIN_MESSAGES.businessInvalid],
    ['business with 3 decimals', { business: '1.005' }, 'business', MEMBER_ADMIN_MESSAGES.businessInvalid],
    ['business as text', { business: 'lots' }, 'business', MEMBER_ADMIN_MESSAGES.businessInvalid],
    [
      'business_balance as NaN text',
      { business_balance: 'NaN' },
      'business_balance',
      MEMBER_ADMIN_MESSAGES.businessBalanceInvalid,
    ],
    ['a BEP20 address of the wrong length', { bep20: '0x1234' }, 'bep20', MEMBER_ADMIN_MESSAGES.bep20Invalid],
    [
      'a TRC20 address with 0 in it',
      { trc20: 'T0a2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' },
      'trc20',
      MEMBER_ADMIN_MESSAGES.trc20Invalid,
    ],
    [
      'an address over 500 characters',
      { address: 'x'.repeat(501) },
      'address',
      MEMBER_ADMIN_MESSAGES.addressTooLong,
    ],
  ];

  it.each(cases)('%s is a 400 on its field', async (_name, body, field, message) => {
    const before = await userOf(id);
    const res = await admin.put(`/users/${id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await userOf(id)).toEqual(before);
    expect(await auditOf(id)).toEqual([]);
  });

  it('an empty body is a 400 that asks for a field', async () => {
    const res = await admin.put(`/users/${id}`, { updated_at: new Date().toISOString() });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(USER_MESSAGES.nothingToChange);
  });

  it('a taken e-mail or username (any case) is a 409 on its field', async () => {
    const other = await registerMember(server.baseUrl);
    const before = await userOf(id);
    const email = await admin.put(`/users/${id}`, { email: other.email.toUpperCase(), fullname: 'Changed' });
    expect(email.status).toBe(409);
    expect(email.body.errors).toEqual([{ field: 'email', message: AUTH.emailTaken }]);
    const name = await admin.put(`/users/${id}`, { username: other.username.toUpperCase() });
    expect(name.status).toBe(409);
    expect(name.body.errors).toEqual([{ field: 'username', message: AUTH.usernameTaken }]);
    expect(await userOf(id)).toEqual(before);
    // The member's own username in another case is not a clash.
    const own = await admin.put(`/users/${id}`, { username: username.toUpperCase() });
    expect(own.status).toBe(200);
    expect((await userOf(id)).username).toBe(username.toUpperCase());
  });
});

describe('PUT /users/{id}: blocking and unblocking', () => {
  it('blocking ends the member’s sessions at once; they cannot sign in and are told why; unblocking restores access', async () => {
    const { member, auth, client } = await signedInMember(server.baseUrl);
    const second = new ApiClient(server.baseUrl);
    await second.signIn(member);
    expect((await client.get('/wallet/balance')).status).toBe(200);

    const block = await admin.put(`/users/${auth.id}`, {
      status: 'block',
      updated_at: new Date().toISOString(),
    });
    expect(block.status).toBe(200);
    for (const c of [client, second]) {
      const res = await c.get('/wallet/balance');
      expect(res.status).toBe(401);
    }
    const sessions = await server.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', auth.id)
      .execute();
    expect(sessions).toEqual([]);

    const attempt = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: member.email,
      password: member.password,
    });
    expect(attempt.status).toBe(403);
    expect(attempt.body.message).toBe(AUTH.blocked);
    // A wrong password still gets the answer everyone gets: blocking reveals nothing to a guesser.
    const guess = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: member.email,
      password: 'not-the-password-at-all',
    });
    expect(guess.status).toBe(401);
    expect(guess.body.message).toBe(AUTH.invalidCredentials);

    const unblock = await admin.put(`/users/${auth.id}`, { status: 'unblock' });
    expect(unblock.status).toBe(200);
    const back = new ApiClient(server.baseUrl);
    await back.signIn(member);
    expect((await back.get('/wallet/balance')).status).toBe(200);

    const actions = (await auditOf(auth.id)).map((e) => [e.action, JSON.parse(e.after_json ?? '{}')]);
    expect(actions).toEqual([
      ['user.update', { status: 'block' }],
      ['user.update', { status: 'unblock' }],
    ]);
  });
});
