import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, signedInAdminClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { type Payee, payee, withdrawalCode } from '../helpers/withdrawals.ts';

// GET /withdrawalrequest/list?user_id= : an admin reads one member's requests (the member page), in
// the queue's order; the filter is an admin's, so a member who asks for it is refused, whoever's id.

let smtp: TestSmtp;
let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50', TRUST_PROXY: '127.0.0.1' });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

async function request(p: Payee, amount: string): Promise<string> {
  const otp = await withdrawalCode(smtp, p);
  const res = await p.client.post('/withdrawalrequest/add', { amount, otp }, p.from);
  expect(res.status, res.text).toBe(201);
  return res.body.withdrawal.id;
}

type Row = { id: string; user_id: string; status: string };

describe('GET /withdrawalrequest/list?user_id=', () => {
  it("gives an admin one member's requests and refuses the filter to members", async () => {
    const first = await payee(server, admin, smtp, { working: '100' });
    const second = await payee(server, admin, smtp, { working: '100' });
    const firstDecided = await request(first, '20');
    expect(
      (await first.client.request('DELETE', `/withdrawalrequest/${firstDecided}`, { headers: first.from }))
        .status,
    ).toBe(200);
    const firstOpen = await request(first, '30');
    const secondOpen = await request(second, '40');

    const one = await admin.get(`/withdrawalrequest/list?user_id=${first.id}`);
    expect(one.status, one.text).toBe(200);
    // Only that member's, the open one first, then the cancelled one.
    expect(one.body.withdrawals.map((w: Row) => [w.id, w.user_id, w.status])).toEqual([
      [firstOpen, first.id, 'pending'],
      [firstDecided, first.id, 'cancelled'],
    ]);
    const pendingOnly = await admin.get(`/withdrawalrequest/list?user_id=${first.id}&status=pending`);
    expect(pendingOnly.body.withdrawals.map((w: Row) => w.id)).toEqual([firstOpen]);
    const nobody = await admin.get('/withdrawalrequest/list?user_id=no-such-member');
    expect(nobody.status).toBe(200);
    expect(nobody.body.withdrawals).toEqual([]);

    // Unfiltered, the queue keeps the server's order: pending, oldest first.
    const all = await admin.get('/withdrawalrequest/list?status=pending');
    const queue = all.body.withdrawals.map((w: Row) => w.id);
    expect(queue.indexOf(firstOpen)).toBeGreaterThanOrEqual(0);
    expect(queue.indexOf(firstOpen)).toBeLessThan(queue.indexOf(secondOpen));

    const empty = await admin.get('/withdrawalrequest/list?user_id=');
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'user_id', message: M.userIdInvalid }]);

    // A member may not use the filter: not for someone else, and not for themself either.
    const peek = await first.client.get(`/withdrawalrequest/list?user_id=${second.id}`);
    expect(peek.status).toBe(403);
    expect(JSON.stringify(peek.body)).not.toContain(secondOpen);
    expect((await first.client.get(`/withdrawalrequest/list?user_id=${first.id}`)).status).toBe(403);
    const own = await first.client.get('/withdrawalrequest/list');
    expect(own.body.withdrawals.map((w: Row) => w.id).sort()).toEqual([firstDecided, firstOpen].sort());
  });
});
