import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../src/server/http/session.ts';
import { sendTransfer } from '../../src/server/modules/transfers/transfers.service.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { fundedMember, signedInAdminClient } from '../helpers/client.ts';
import { TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Two edge cases of internal transfers (RULES.md "Internal transfers"), on both databases unless said:
// - the daily-limit counter is charged for the UTC day of the ledger row it counts, so a reject gives
//   the amount back to that same day, even for a transfer made as the day turns;
// - a retry under the same Idempotency-Key is answered with the stored answer, even where a rule would
//   refuse it now, and the members' status is read in the same transaction as the money moves.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const dailyTotals = async (s: TestServer, userId: string) =>
  (
    await s.db
      .selectFrom('transfer_daily_totals')
      .select(['day', 'amount_cents'])
      .where('user_id', '=', userId)
      .orderBy('day')
      .execute()
  ).map((row) => ({ day: row.day, cents: Number(row.amount_cents) }));

describe('transfer edge cases', () => {
  it('charges the daily limit for the ledger row’s own day, so a reject at midnight gives it back to that day', async () => {
    server = await startServer();
    const admin = await signedInAdminClient(server.baseUrl);
    const sender = await fundedMember(server.baseUrl, admin, { business: '6000' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const asker = {
      sessionId: 'direct',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      user: await server.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', sender.auth.id)
        .executeTakeFirstOrThrow(),
    } as SessionUser;

    // A clock whose every reading is a day later than the one before: the day turns between any two
    // readings, as it can at midnight UTC between reading the clock for the counter and for the row.
    const RealDate = Date;
    let step = 0;
    class TurningDate extends RealDate {
      constructor(...args: ConstructorParameters<typeof Date> | []) {
        if (args.length === 0) {
          step += 1;
          super(RealDate.now() + step * 86_400_000);
        } else super(...(args as ConstructorParameters<typeof Date>));
      }
    }
    globalThis.Date = TurningDate as DateConstructor;
    let sent: Awaited<ReturnType<typeof sendTransfer>>;
    try {
      // 5,000.00: held for review.
      sent = await sendTransfer(
        server.db,
        asker,
        { userto_id: recipient.auth.id, amount: 500_000, from: 'business', to: 'business' },
        undefined,
      );
    } finally {
      globalThis.Date = RealDate;
    }
    expect(sent.statusCode).toBe(201);
    const transfer = (sent.body as { transfer: { id: string; created_at: string; status: string } }).transfer;
    expect(transfer.status).toBe('pending');
    expect(await dailyTotals(server, sender.auth.id)).toEqual([
      { day: transfer.created_at.slice(0, 10), cents: 500_000 },
    ]);

    const rejected = await admin.put(`/transfer/${transfer.id}/status`, {
      status: 'failed',
      reason: 'Rejected at midnight',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(await dailyTotals(server, sender.auth.id)).toEqual([
      { day: transfer.created_at.slice(0, 10), cents: 0 },
    ]);
  });

  it('answers a retry under the same Idempotency-Key with the stored answer, even after the sender was deactivated', async () => {
    server = await startServer();
    const admin = await signedInAdminClient(server.baseUrl);
    const sender = await fundedMember(server.baseUrl, admin, { business: '50' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const key = randomUUID();
    const body = {
      userto_id: recipient.auth.id,
      user_id: sender.auth.id,
      amount: '12.50',
      from: 'business',
      to: 'business',
    };
    const first = await sender.client.post('/transfer/touser', body, { 'Idempotency-Key': key });
    expect(first.status, first.text).toBe(201);
    expect((await admin.put(`/users/${sender.auth.id}`, { is_active: 'inactive' })).status).toBe(200);

    const retry = await sender.client.post('/transfer/touser', body, { 'Idempotency-Key': key });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body).toEqual(first.body);
    // A new request is refused by the rule, and nothing moved twice.
    const fresh = await sender.client.post('/transfer/touser', body, { 'Idempotency-Key': randomUUID() });
    expect(fresh.status).toBe(422);
    expect(fresh.text).toContain(TRANSFER_MESSAGES.senderInactive);
    expect((await sender.client.get('/wallet/balance')).body.business).toBe('37.50');
    expect((await recipient.client.get('/wallet/balance')).body.business).toBe('12.50');
  });

  it('PostgreSQL: a block committed while a transfer waits is seen by it; no money moves', async () => {
    // Row locks are PostgreSQL's (SQLite has one writer), so this runs on PostgreSQL in both projects.
    server = await startServer({}, 'postgres');
    const admin = await signedInAdminClient(server.baseUrl);
    const sender = await fundedMember(server.baseUrl, admin, { business: '50' });
    const recipient = await fundedMember(server.baseUrl, admin);
    const schema = (
      await server.db
        .selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('schema'))
        .executeTakeFirstOrThrow()
    ).schema;

    // Another session (an admin's block) holds the sender's row and has blocked them, not yet committed.
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`update users set status = 'block' where id = $1`, [sender.auth.id]);
      const pending = sender.client.post('/transfer/touser', {
        userto_id: recipient.auth.id,
        user_id: sender.auth.id,
        amount: '10.00',
        from: 'business',
        to: 'business',
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('commit');
      const answer = await pending;
      // The session check may already refuse a blocked member (401); either way no money moves.
      expect([401, 403]).toContain(answer.status);
    } finally {
      await other.end();
    }
    const recipientBalance = await server.db
      .selectFrom('ledger_accounts')
      .select('balance_cents')
      .where('id', '=', `${recipient.auth.id}:business`)
      .executeTakeFirstOrThrow();
    expect(Number(recipientBalance.balance_cents)).toBe(0);
  });
});
