import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { API_BASE } from '../../src/shared/constants.ts';
import { LIVE_RECONNECT_MS, LIVE_RECONNECT_TOPIC } from '../../src/shared/live-events.ts';
import { openStream } from '../fixtures/live-stream.ts';
import { type ApiClient, fundedMember, sameBrowserOn, signedInAdminClient } from '../helpers/client.ts';
import { heldPost } from '../helpers/held-request.ts';
import { expectBooksBalanced } from '../helpers/income.ts';
import { startServer } from '../helpers/server.ts';
import {
  acceptsConnections,
  adminOn,
  exitCodeOf,
  projectDialect,
  sharedDatabase,
  waitFor,
} from '../helpers/server-process.ts';

// Issue 20 "Restart without losing anything", against real server processes on the project's
// database (SQLite: the same DATA_DIR started again; PostgreSQL: a second process on the schema). On
// SIGTERM a process says it is not ready at once and keeps serving through SHUTDOWN_DELAY_MS; then it
// stops accepting, tells every event stream to reconnect and closes it, finishes the requests in
// flight (held here between their headers and their body, so they are in flight for certain), exits 0;
// a retry with the same Idempotency-Key on the next process answers the original answer. A request
// that outlasts SHUTDOWN_TIMEOUT_MS cannot hold the exit, and moved nothing. And a fresh process is
// live at once but ready only after its warm-up, which leaves nothing behind.
// Each test starts server processes: these tests have a budget of their own (not a speed check).
const PROCESS_TEST_MS = 150_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const restartDatabase = () =>
  sharedDatabase(projectDialect, {
    dirPrefix: 'restart',
    schemaPrefix: 'rst',
    env: { INCOME_SCHEDULE: 'off', INCOME_RETRY_MS: '0', SALARY_SCHEDULE: 'off', SALARY_RETRY_MS: '0' },
    cleanups,
  });

const readiness = (url: string) => fetch(`${url}${API_BASE}/health/ready`);
const liveness = (url: string) => fetch(`${url}${API_BASE}/health`);

type Member = Awaited<ReturnType<typeof fundedMember>>;
const transferBody = (to: Member, amount: string) => ({
  userto_id: to.auth.id,
  amount,
  from: 'business',
  to: 'business',
});

/** A transfer the server has taken in (headers read) but not finished: release() sends its body. */
const heldTransfer = (url: string, browser: ApiClient, body: object, key: string) =>
  heldPost<{ transfer: { id: string } }>(url, '/transfer/touser', browser, body, { 'idempotency-key': key });

const transferRows = (db: Db, ids: string[]) =>
  db.selectFrom('ledger_transfers').select(['id', 'amount_cents']).where('id', 'in', ids).execute();

describe('SIGTERM', () => {
  it(
    'answers readiness 503 at once and keeps serving through the pause; then tells event streams to reconnect, closes and exits 0; the retry with the key on the next process answers the same',
    async () => {
      const shared = await restartDatabase();
      // A pause far longer than the test: it ends with the second signal, not with the clock.
      const server = await shared.start('one', { SHUTDOWN_DELAY_MS: '600000' });
      const admin = await adminOn(server.url);
      const alice = await fundedMember(server.url, admin, { business: '50.00' });
      const bob = await fundedMember(server.url, admin);
      const stream = await openStream(server.url, alice.client.cookieHeader());
      await stream.waitFor((messages) => messages.some((m) => m.topic === 'ready'));
      expect((await readiness(server.url)).status).toBe(200);

      const exited = exitCodeOf(server);
      server.child.kill('SIGTERM');
      await waitFor('readiness to answer 503', async () => (await readiness(server.url)).status === 503);
      expect(await (await readiness(server.url)).json()).toEqual({ status: 'draining' });
      expect((await liveness(server.url)).status).toBe(200);

      // Still serving: a transfer is answered, telling the client to leave its kept-alive connection.
      const key = randomUUID();
      const sent = await alice.client.post('/transfer/touser', transferBody(bob, '12.50'), {
        'Idempotency-Key': key,
      });
      expect(sent.status, sent.text).toBe(201);
      expect(sent.headers.get('connection')).toBe('close');
      expect(await acceptsConnections(server.url)).toBe(true);
      expect(stream.messages.map((m) => m.topic)).not.toContain(LIVE_RECONNECT_TOPIC);

      // A second signal ends the pause.
      server.child.kill('SIGTERM');
      await stream.ended;
      expect(stream.messages.at(-1)).toEqual({ topic: LIVE_RECONNECT_TOPIC });
      const retryMs = stream.retries.at(-1) ?? 0;
      expect(retryMs).toBeGreaterThanOrEqual(LIVE_RECONNECT_MS.min);
      expect(retryMs).toBeLessThanOrEqual(LIVE_RECONNECT_MS.max);
      expect(await exited).toBe(0);

      const next = await shared.start('two');
      const browser = sameBrowserOn(next.url, alice.client);
      const retry = await browser.post('/transfer/touser', transferBody(bob, '12.50'), {
        'Idempotency-Key': key,
      });
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body).toEqual(sent.body);
      expect(await transferRows(shared.handle(), [sent.body.transfer.id])).toEqual([
        { id: sent.body.transfer.id, amount_cents: 1250 },
      ]);
      expect((await browser.get('/wallet/balance')).body.business).toBe('37.50');
      await expectBooksBalanced(await adminOn(next.url));
    },
    PROCESS_TEST_MS,
  );

  it(
    'finishes the requests in flight after it stops accepting (their SQLite group commit included), answers each and exits 0; their keys replay on the next process',
    async () => {
      const shared = await restartDatabase();
      // The exit waits for the held requests however slow this machine is today.
      const server = await shared.start('one', { SHUTDOWN_TIMEOUT_MS: '600000' });
      const other = projectDialect === 'postgres' ? await shared.start('two') : undefined;
      const admin = await adminOn(server.url);
      const alice = await fundedMember(server.url, admin, { business: '100.00' });
      const bob = await fundedMember(server.url, admin);
      const amounts = ['1.01', '1.02', '1.03', '1.04', '1.05'];
      const keys = amounts.map(() => randomUUID());
      const held = await Promise.all(
        amounts.map((amount, i) =>
          heldTransfer(server.url, alice.client, transferBody(bob, amount), keys[i] ?? ''),
        ),
      );

      const exited = exitCodeOf(server);
      server.child.kill('SIGTERM');
      await waitFor('the process to stop accepting', async () => !(await acceptsConnections(server.url)));
      expect(server.child.exitCode).toBeNull();
      for (const h of held) h.release();
      const answers = await Promise.all(held.map((h) => h.answer));
      answers.forEach((answer, i) => {
        expect(answer.status).toBe(201);
        expect(answer.body.transfer).toMatchObject({ amount: amounts[i], status: 'completed' });
      });
      expect(await exited).toBe(0);

      const next = other ?? (await shared.start('two'));
      const ids = answers.map((a) => a.body.transfer.id);
      const rows = await transferRows(shared.handle(), ids);
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      const browser = sameBrowserOn(next.url, alice.client);
      for (const [i, amount] of amounts.entries()) {
        const retry = await browser.post('/transfer/touser', transferBody(bob, amount), {
          'Idempotency-Key': keys[i] ?? '',
        });
        expect(retry.status, retry.text).toBe(201);
        expect(retry.body).toEqual(answers[i]?.body);
      }
      expect((await browser.get('/wallet/balance')).body.business).toBe('94.85');
      await expectBooksBalanced(await adminOn(next.url));
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 1 when a request in flight outlasts SHUTDOWN_TIMEOUT_MS, cutting it off; that request moved nothing and its retry moves the money once',
    async () => {
      const shared = await restartDatabase();
      const server = await shared.start('one', { SHUTDOWN_TIMEOUT_MS: '1000' });
      const admin = await adminOn(server.url);
      const alice = await fundedMember(server.url, admin, { business: '100.00' });
      const bob = await fundedMember(server.url, admin);
      const key = randomUUID();
      // Its body never comes: a client stuck mid-request.
      const stuck = await heldTransfer(server.url, alice.client, transferBody(bob, '7.00'), key);

      const exited = exitCodeOf(server);
      server.child.kill('SIGTERM');
      expect(await exited).toBe(1);
      await expect(stuck.answer).rejects.toThrow();
      expect(server.output()).toContain('SHUTDOWN_TIMEOUT_MS');

      const next = await shared.start('two');
      const browser = sameBrowserOn(next.url, alice.client);
      expect((await browser.get('/wallet/balance')).body.business).toBe('100.00');
      const retry = await browser.post('/transfer/touser', transferBody(bob, '7.00'), {
        'Idempotency-Key': key,
      });
      expect(retry.status, retry.text).toBe(201);
      const again = await browser.post('/transfer/touser', transferBody(bob, '7.00'), {
        'Idempotency-Key': key,
      });
      expect(again.body).toEqual(retry.body);
      expect((await browser.get('/wallet/balance')).body.business).toBe('93.00');
      await expectBooksBalanced(await adminOn(next.url));
    },
    PROCESS_TEST_MS,
  );
});

describe('warm before ready', () => {
  /** Rows in every table of the server's database (its own schema on PostgreSQL). */
  async function rowCounts(db: Db): Promise<Record<string, number>> {
    const schema =
      projectDialect === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
        : undefined;
    const tables = (await db.introspection.getTables()).filter((t) => !schema || t.schema === schema);
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(db);
      counts[name] = Number(rows[0]?.n);
    }
    return counts;
  }

  it(
    'answers liveness but not readiness until it has warmed up; the warm-up leaves no row and no request metric behind',
    async () => {
      const token = randomBytes(32).toString('hex');
      const server = await startServer({ WARM_UP: 'on', METRICS_TOKEN: token }, undefined, { ready: false });
      cleanups.push(server.stop);
      // Something to find for the warm-up's look-ups: a member who sent a transfer.
      const admin = await signedInAdminClient(server.baseUrl);
      const alice = await fundedMember(server.baseUrl, admin, { business: '10.00' });
      const bob = await fundedMember(server.baseUrl, admin);
      expect((await alice.client.post('/transfer/touser', transferBody(bob, '1.00'))).status).toBe(201);
      const scrape = async () =>
        (
          await fetch(`${server.baseUrl}${API_BASE}/metrics`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).text();
      const transferSeries = (text: string) =>
        text
          .split('\n')
          .filter((line) => line.startsWith('http_requests_total') && line.includes('/transfer/touser'));
      const seriesBefore = transferSeries(await scrape());
      const before = await rowCounts(server.db);

      const notReady = await readiness(server.baseUrl);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({ status: 'warming' });
      const warming = server.warmUp();
      expect((await liveness(server.baseUrl)).status).toBe(200);
      await warming;

      const ready = await readiness(server.baseUrl);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok' });
      expect(await rowCounts(server.db)).toEqual(before);
      expect(transferSeries(await scrape())).toEqual(seriesBefore);
      expect((await alice.client.get('/wallet/balance')).body.business).toBe('9.00');
      await expectBooksBalanced(admin);
    },
    PROCESS_TEST_MS,
  );
});
