import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '../../src/shared/messages.ts';
import { ApiClient, newMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// POST /auth/register: what is accepted, what is refused field by field, and that a refusal creates nothing.
// (Conflicts, referral codes and the registration rate limit have files of their own: each registration
// that reaches the service counts toward the per-address limit of 20.)

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const register = (body: unknown) => new ApiClient(server.baseUrl).post('/auth/register', body);

const without = (field: string) => {
  const { [field]: _, ...rest } = newMember() as Record<string, unknown>;
  return rest;
};

describe('POST /auth/register accepts a valid member', () => {
  it('answers 201 with a message, and the member can sign in with a lower-cased e-mail', async () => {
    const member = newMember();
    const mixedCase = `Mixed.Case_${member.username}@Example.COM`;
    const res = await register({ ...member, email: mixedCase });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: AUTH.registered });

    const signIn = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: mixedCase.toLowerCase(),
      password: member.password,
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.auth.email).toBe(mixedCase.toLowerCase());
    expect(signIn.body.auth.username).toBe(member.username);
    expect(signIn.body.auth.fullname).toBe(member.fullname);
    expect(signIn.body.auth.phone).toBe(member.phone);
    expect(signIn.body.auth.role).toBe('user');
    expect(signIn.body.auth.status).toBe('unblock');

    const stored = await server.db
      .selectFrom('users')
      .select('email')
      .where('username', '=', member.username)
      .executeTakeFirstOrThrow();
    expect(stored.email).toBe(mixedCase.toLowerCase());
  });
});

describe('POST /auth/register refuses invalid fields with 400 and field errors', () => {
  const cases: { name: string; body: () => Record<string, unknown>; field: string; message: string }[] = [
    {
      name: 'missing full name',
      body: () => without('fullname'),
      field: 'fullname',
      message: AUTH.fullnameRequired,
    },
    {
      name: 'blank full name',
      body: () => newMember({ fullname: '   ' }),
      field: 'fullname',
      message: AUTH.fullnameRequired,
    },
    {
      name: 'full name over 100',
      body: () => newMember({ fullname: 'x'.repeat(101) }),
      field: 'fullname',
      message: AUTH.fullnameTooLong,
    },
    {
      name: 'missing username',
      body: () => without('username'),
      field: 'username',
      message: AUTH.usernameInvalid,
    },
    {
      name: 'username too short',
      body: () => newMember({ username: 'ab' }),
      field: 'username',
      message: AUTH.usernameInvalid,
    },
    {
      name: 'username too long',
      body: () => newMember({ username: 'u'.repeat(31) }),
      field: 'username',
      message: AUTH.usernameInvalid,
    },
    {
      name: 'username with a space',
      body: () => newMember({ username: 'two words' }),
      field: 'username',
      message: AUTH.usernameInvalid,
    },
    {
      name: 'username with a dash',
      body: () => newMember({ username: 'a-b-c' }),
      field: 'username',
      message: AUTH.usernameInvalid,
    },
    { name: 'missing e-mail', body: () => without('email'), field: 'email', message: AUTH.emailRequired },
    {
      name: 'empty e-mail',
      body: () => newMember({ email: '' }),
      field: 'email',
      message: AUTH.emailRequired,
    },
    {
      name: 'malformed e-mail',
      body: () => newMember({ email: 'not-an-email' }),
      field: 'email',
      message: AUTH.emailInvalid,
    },
    {
      name: 'e-mail over 254',
      body: () => newMember({ email: `${'a'.repeat(250)}@example.com` }),
      field: 'email',
      message: AUTH.emailInvalid,
    },
    { name: 'missing phone', body: () => without('phone'), field: 'phone', message: AUTH.phoneInvalid },
    {
      name: 'phone with letters',
      body: () => newMember({ phone: 'call me' }),
      field: 'phone',
      message: AUTH.phoneInvalid,
    },
    {
      name: 'phone too short',
      body: () => newMember({ phone: '12345' }),
      field: 'phone',
      message: AUTH.phoneInvalid,
    },
    {
      name: 'missing password',
      body: () => without('password'),
      field: 'password',
      message: AUTH.passwordRequired,
    },
    {
      name: 'empty password',
      body: () => newMember({ password: '' }),
      field: 'password',
      message: AUTH.passwordRequired,
    },
    {
      name: 'password of 9',
      body: () => newMember({ password: 'Zq8#mWv2L' }),
      field: 'password',
      message: AUTH.passwordTooShort,
    },
    {
      name: 'password over 128',
      body: () => newMember({ password: 'Zq8#'.repeat(33) }),
      field: 'password',
      message: AUTH.passwordTooLong,
    },
    {
      name: 'referral code too short',
      body: () => newMember({ reffer_by: 'AB12' }),
      field: 'reffer_by',
      message: AUTH.referralInvalid,
    },
    {
      name: 'referral code with symbols',
      body: () => newMember({ reffer_by: 'ABC-123!' }),
      field: 'reffer_by',
      message: AUTH.referralInvalid,
    },
  ];

  it.each(cases)('$name -> 400 on $field', async ({ body, field, message }) => {
    const res = await register(body());
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    // Only the broken field is blamed, and the summary message is the first field message.
    for (const error of res.body.errors) expect(error.field).toBe(field);
    expect(res.body.message).toBe(res.body.errors[0].message);
  });

  it('names every missing field of an empty body', async () => {
    const res = await register({});
    expect(res.status).toBe(400);
    const fields = new Set(res.body.errors.map((e: { field: string }) => e.field));
    expect([...fields].sort()).toEqual(['email', 'fullname', 'password', 'phone', 'username']);
  });

  it.each(['qwertyuiop', '1234567890', 'QwertyUiop'])(
    'refuses the well-known password %s on field password, and creates nothing',
    async (password) => {
      const member = newMember({ password });
      const res = await register(member);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'password', message: AUTH.passwordCommon }]);
      expect(res.body.message).toBe(AUTH.passwordCommon);

      const signIn = await new ApiClient(server.baseUrl).post('/auth/signin', {
        email: member.email,
        password,
      });
      expect(signIn.status).toBe(401);
    },
  );

  it('after a refusal the same username and e-mail register exactly once', async () => {
    const member = newMember({ password: 'qwertyuiop' });
    expect((await register(member)).status).toBe(400);
    const fixed = { ...member, password: 'plum-orchard-quietly-91' };
    expect((await register(fixed)).status).toBe(201);
    expect((await register(fixed)).status).toBe(409);
  });
});

describe('sign-up cannot make an admin', () => {
  it('ignores role and other server-owned fields in the body', async () => {
    const member = newMember();
    const res = await register({
      ...member,
      role: 'admin',
      status: 'unblock',
      is_active: 'active',
      paid_member: true,
      refferal_code: 'ZZZZZZZZ',
    });
    expect(res.status).toBe(201);

    const asAdmin = await new ApiClient(server.baseUrl).post('/auth/adminsignin', {
      email: member.email,
      password: member.password,
    });
    expect(asAdmin.status).toBe(401);
    expect(asAdmin.body).toEqual({ message: AUTH.invalidCredentials });

    const asMember = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: member.email,
      password: member.password,
    });
    expect(asMember.status).toBe(200);
    expect(asMember.body.auth.role).toBe('user');
    expect(asMember.body.auth.is_active).toBe('inactive');
    expect(asMember.body.auth.paid_member).toBe(false);
    expect(asMember.body.auth.refferal_code).not.toBe('ZZZZZZZZ');
  });

  it('still lets the real admin sign in at /auth/adminsignin (the control for the test above)', async () => {
    const res = await new ApiClient(server.baseUrl).post('/auth/adminsignin', ADMIN);
    expect(res.status).toBe(200);
    expect(res.body.admin.role).toBe('admin');
  });
});
