import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, type ApiResponse, signedInAdminClient } from '../helpers/client.ts';
import { createPlan, expectBooksBalanced } from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { accountCents, payee, withdrawalCode } from '../helpers/withdrawals.ts';

// PostgreSQL's row locks (docs/rules.md "Ledger"): every transaction takes members' rows before ledger
// accounts. A transfer locks its members for share, then its accounts; a transaction that moves money
// and then changes a member's row (a compound's approval activates a member who never invested) must
// take that row first, or the two wait on each other and PostgreSQL ends one with "deadlock detected",
// a 500 to whoever sent it. Here the transfer's two steps are made by hand in one transaction, around
// the approval, so the order is the test's and not the scheduler's. SQLite runs one transaction at a
// time: this file is PostgreSQL's only.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer(
    { SMTP_URL: smtp.url, MAIL_POLL_MS: '50', TRUST_PROXY: '127.0.0.1' },
    'postgres',
  );
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Whether some other session of this database waits for a lock (the approval, blocked). */
async function someoneWaitsForALock(): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`.execute(
    server.db,
  );
  return (rows[0]?.waiting ?? 0) > 0;
}

it("a compound's approval and a transfer by its member at the same moment both finish", async () => {
  const p = await payee(server, admin, smtp, { working: '100.00', address: false });
  const planId = await createPlan(admin, { roi_percent: '1', duration_days: 30, min_amount: '50' });
  const otp = await withdrawalCode(smtp, p);
  const asked = await p.client.post(
    '/withdrawalrequest/addcompoundwithdrawal',
    { amount: '60', otp, plan_id: planId },
    p.from,
  );
  expect(asked.status, asked.text).toBe(201);
  const id = asked.body.withdrawal.id;

  let approval: Promise<ApiResponse<{ message: string }>> | undefined;
  await server.db.transaction().execute(async (trx) => {
    // The transfer's first step: its members' rows, for share.
    await sql`select id from users where id = ${p.id} for share`.execute(trx);
    approval = admin.put(`/withdrawalrequest/compound/${id}`, {
      status: 'approved',
      amount: '60',
      user_id: p.id,
    });
    await expect.poll(someoneWaitsForALock, { timeout: 10_000 }).toBe(true);
    // Its second: the sender's account. Were the approval holding it, this would wait for the approval
    // while the approval waits for the member's row above.
    await sql`update ledger_accounts set balance_cents = balance_cents where id = ${`${p.id}:working`}`.execute(
      trx,
    );
  });
  const approved = await approval;
  expect(approved?.status, approved?.text).toBe(200);
  expect(approved?.body.message).toBe(M.compoundApproved);
  expect((await cents(`${p.id}:invested`)).balance).toBe(6_000);
  expect(await cents(`${p.id}:working`)).toEqual({ balance: 4_000, held: 0, available: 4_000 });
  await expectBooksBalanced(admin);
});

const cents = (id: string) => accountCents(server.db, id);
