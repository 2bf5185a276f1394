import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '../../src/shared/messages.ts';
import { ApiClient, newMember, registerMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

// 409 on a taken username or e-mail (API.md "Accounts"), whatever the case, also when two sign-ups race.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const register = (body: unknown) => new ApiClient(server.baseUrl).post('/auth/register', body);
const countUsers = async () => {
  const row = await server.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

describe('POST /auth/register with a taken username or e-mail', () => {
  it('answers 409 on field username for the same name in another case, and creates nothing', async () => {
    const first = await registerMember(server.baseUrl, { username: `Alice_${Date.now().toString(36)}` });
    const before = await countUsers();
    const res = await register(newMember({ username: first.username.toLowerCase() }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(AUTH.usernameTaken);
    expect(res.body.errors).toEqual([{ field: 'username', message: AUTH.usernameTaken }]);
    expect(await countUsers()).toBe(before);
  });

  it('answers 409 on field email for the same e-mail in another case', async () => {
    const first = await registerMember(server.baseUrl);
    const res = await register(newMember({ email: first.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(AUTH.emailTaken);
    expect(res.body.errors).toEqual([{ field: 'email', message: AUTH.emailTaken }]);

    // The first owner keeps the account: the refused body's password does not sign in.
    const signIn = await new ApiClient(server.baseUrl).post('/auth/signin', {
      email: first.email,
      password: first.password,
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.auth.username).toBe(first.username);
  });

  it('names both fields when both are taken', async () => {
    const first = await registerMember(server.baseUrl);
    const res = await register(newMember({ username: first.username.toUpperCase(), email: first.email }));
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'username', message: AUTH.usernameTaken },
        { field: 'email', message: AUTH.emailTaken },
      ]),
    );
    expect(res.body.errors).toHaveLength(2);
  });

  it("refuses the admin's e-mail too", async () => {
    const res = await register(newMember({ email: ADMIN.email }));
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([{ field: 'email', message: AUTH.emailTaken }]);
  });

  it('lets exactly one of two simultaneous sign-ups with one username win; the other gets 409', async () => {
    const username = `race_${Date.now().toString(36)}`;
    const results = await Promise.all([
      register(newMember({ username })),
      register(newMember({ username: username.toUpperCase() })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = results.find((r) => r.status === 409);
    expect(loser?.body.errors).toEqual([{ field: 'username', message: AUTH.usernameTaken }]);
  });

  it('lets exactly one of two simultaneous sign-ups with one e-mail win; the other gets 409', async () => {
    const email = `race_${Date.now().toString(36)}@example.com`;
    const results = await Promise.all([register(newMember({ email })), register(newMember({ email }))]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = results.find((r) => r.status === 409);
    expect(loser?.body.errors).toEqual([{ field: 'email', message: AUTH.emailTaken }]);
  });
});
