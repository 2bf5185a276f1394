import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../../src/shared/account.ts';
import { ApiClient, registerMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// "Forgot password" takes the same time for a member's address and an unknown one: before answering,
// the server counts the limits (the same writes for every address) and nothing else; the look-up, and
// for a member the link and its mail, run once the answer has gone. Proved without a clock: with the
// members' table out of reach, every address is still answered at once, so the answer cannot have
// waited for the look-up or anything after it, and the server cannot have learnt, before answering,
// whether the address is a member's.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const forget = (email: string) => new ApiClient(server.baseUrl).post('/pass/forget', { email });
const rename = (from: string, to: string) =>
  sql`alter table ${sql.id(from)} rename to ${sql.id(to)}`.execute(server.db);
const outboxTo = (email: string) =>
  server.db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute();

describe('POST /pass/forget answers before looking the address up', () => {
  it('answers a member and an unknown address alike while the members’ table cannot be read, and mails the member once it can', async () => {
    const member = await registerMember(server.baseUrl);
    const unknown = `nobody-${Date.now()}@example.com`;
    await rename('users', 'users_out_of_reach');
    let answers: Awaited<ReturnType<typeof forget>>[];
    try {
      answers = [await forget(member.email), await forget(unknown)];
    } finally {
      await rename('users_out_of_reach', 'users');
    }
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ message: ACCOUNT.resetRequested });
    }

    // The work after the answer is the same as before: the member's address gets its link.
    expect((await forget(member.email)).status).toBe(200);
    await expect.poll(async () => (await outboxTo(member.email)).length).toBeGreaterThan(0);
    expect(await outboxTo(unknown)).toEqual([]);
  });
});
