import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '../../src/shared/messages.ts';
import { ApiClient, newMember, signedInMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// The optional referral code (reffer_by) names the sponsor; without one the member joins under the
// root admin's account (RULES.md "Accounts").

let server: TestServer;
let adminCode: string;
beforeAll(async () => {
  server = await startServer();
  const admin = await new ApiClient(server.baseUrl).signIn(ADMIN, '/auth/adminsignin');
  adminCode = admin.body.admin.refferal_code;
});
afterAll(async () => server?.stop());

const register = (body: unknown) => new ApiClient(server.baseUrl).post('/auth/register', body);
const signInAuth = async (member: { email: string; password: string }) =>
  (await new ApiClient(server.baseUrl).signIn(member)).body.auth;

describe('referral codes at registration', () => {
  it("gives every member a referral code of their own, different from the admin's", async () => {
    const { auth } = await signedInMember(server.baseUrl);
    expect(auth.refferal_code).toMatch(/^[A-Z0-9]{6,12}$/);
    expect(auth.refferal_code).not.toBe(adminCode);
  });

  it("makes the code's owner the sponsor: reffer_by of the new member is that code", async () => {
    const sponsor = await signedInMember(server.baseUrl);
    const member = newMember({ reffer_by: sponsor.auth.refferal_code });
    expect((await register(member)).status).toBe(201);
    const auth = await signInAuth(member);
    expect(auth.reffer_by).toBe(sponsor.auth.refferal_code);

    const row = await server.db
      .selectFrom('users')
      .select('sponsor_id')
      .where('id', '=', auth.id)
      .executeTakeFirstOrThrow();
    expect(row.sponsor_id).toBe(sponsor.auth.id);
  });

  it('accepts the code typed in lower case with surrounding spaces', async () => {
    const sponsor = await signedInMember(server.baseUrl);
    const member = newMember({ reffer_by: ` ${sponsor.auth.refferal_code.toLowerCase()} ` });
    expect((await register(member)).status).toBe(201);
    expect((await signInAuth(member)).reffer_by).toBe(sponsor.auth.refferal_code);
  });

  it('refuses an unknown code with 400 on field reffer_by, and creates nothing', async () => {
    const member = newMember({ reffer_by: 'NOSUCH99' });
    const res = await register(member);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'reffer_by', message: AUTH.referralUnknown }]);
    expect(res.body.message).toBe(AUTH.referralUnknown);

    const retry = { ...member, reffer_by: undefined };
    expect((await register(retry)).status).toBe(201);
    expect((await register(retry)).status).toBe(409);
  });

  it("puts a member without a code under the root admin's referral code", async () => {
    const { auth } = await signedInMember(server.baseUrl);
    expect(adminCode).toMatch(/^[A-Z0-9]{6,12}$/);
    expect(auth.reffer_by).toBe(adminCode);
  });

  it('treats an empty code like no code', async () => {
    const member = newMember({ reffer_by: '' });
    expect((await register(member)).status).toBe(201);
    expect((await signInAuth(member)).reffer_by).toBe(adminCode);
  });
});
