import { afterEach, describe, expect, it } from 'vitest';
import { type ApiClient, type ApiResponse, fundedMember, sameBrowserOn } from '../helpers/client.ts';
import { heldPost } from '../helpers/held-request.ts';
import { expectBooksBalanced } from '../helpers/income.ts';
import {
  adminOn,
  killServerProcess,
  projectDialect,
  type ServerProcess,
  sharedDatabase,
  waitFor,
} from '../helpers/server-process.ts';

// Issue 20's fault test: a process is killed with SIGKILL while several members send transfers, each
// request with an Idempotency-Key of its own. On PostgreSQL two processes share the schema and take
// the load in turns; one is killed and every request that failed with it (connection reset, refused)
// is sent again, same key and body, to the survivor. On SQLite (one process per database) the process
// is killed and started again on the same DATA_DIR, and the failed requests go to the new one. Two
// transfers are held in flight on the killed process at the moment of the kill, so the retry of an
// interrupted request is always part of it. Then: every 2xx is a transfer in the ledger exactly once,
// every key's retry is answered from the stored answer (the first 2xx, whichever process gave it), no
// transfer exists that no client asked for, and the books reconcile.
// Each test starts server processes: these tests have a budget of their own (not a speed check).
const PROCESS_TEST_MS = 240_000;
const SENDERS = 6;
const REQUESTS_PER_SENDER = 30;
/** The kill comes once this many transfers have been answered. */
const KILL_AFTER = 40;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Member = Awaited<ReturnType<typeof fundedMember>>;
type Body = { userto_id: string; amount: string; from: 'business'; to: 'business' };
type TransferAnswer = { transfer: { id: string; amount: string } };
/** One request a member asked for, and every attempt at it. */
type Asked = {
  key: string;
  sender: number;
  recipient: number;
  body: Body;
  attempts: { on: 'killed' | 'survivor'; status?: number; error?: string }[];
  answer?: ApiResponse<TransferAnswer>;
};

const cents = (amount: string) => Math.round(Number(amount) * 100);

describe('SIGKILL of a server process under a transfer load', () => {
  it(
    'leaves every answered transfer in the ledger once, answers every retry from the stored answer, and the books reconcile',
    async () => {
      const shared = await sharedDatabase(projectDialect, {
        dirPrefix: 'sigkill',
        schemaPrefix: 'kill',
        env: { INCOME_SCHEDULE: 'off', INCOME_RETRY_MS: '0', SALARY_SCHEDULE: 'off', SALARY_RETRY_MS: '0' },
        cleanups,
      });
      const killed = await shared.start('one');
      let survivor: ServerProcess | undefined =
        projectDialect === 'postgres' ? await shared.start('two') : undefined;
      const admin = await adminOn(killed.url);
      const members: Member[] = [];
      for (let i = 0; i < SENDERS; i++)
        members.push(await fundedMember(killed.url, admin, { business: '1000.00' }));

      // Each member's browser on each process (the session and CSRF cookies live in the database).
      const browsers = new Map<string, ApiClient>();
      const browserOf = (member: number, server: ServerProcess) => {
        const id = `${member}@${server.url}`;
        let browser = browsers.get(id);
        if (!browser) {
          browser = sameBrowserOn(server.url, (members[member] as Member).client);
          browsers.set(id, browser);
        }
        return browser;
      };
      const asked: Asked[] = [];
      const ask = (sender: number, index: number): Asked => {
        const recipient = (sender + 1) % SENDERS;
        const request: Asked = {
          key: `kill-${sender}-${index}`,
          sender,
          recipient,
          // Amounts of 0.01 to 0.09: every answer's amount tells which request it is.
          body: {
            userto_id: (members[recipient] as Member).auth.id,
            amount: `0.0${(index % 9) + 1}`,
            from: 'business',
            to: 'business',
          },
          attempts: [],
        };
        asked.push(request);
        return request;
      };

      let killedAt = false;
      let restarted: Promise<ServerProcess> | undefined;
      /** Where a retry goes: the other process, or (SQLite) the one started again after the kill. */
      const survivorNow = async () => {
        if (!survivor) {
          await waitFor('the kill', async () => killedAt);
          restarted ??= shared.start('again');
          survivor = await restarted;
        }
        return survivor;
      };
      /** Sends until answered: first to `first`, then, after a network error, again to the survivor. */
      const send = async (request: Asked, first: 'killed' | 'survivor') => {
        let on = first;
        for (;;) {
          const server = on === 'killed' && !killedAt ? killed : await survivorNow();
          try {
            const res = await browserOf(request.sender, server).post<TransferAnswer>(
              '/transfer/touser',
              request.body,
              { 'Idempotency-Key': request.key },
            );
            request.attempts.push({ on: server === killed ? 'killed' : 'survivor', status: res.status });
            request.answer = res;
            return;
          } catch (error) {
            request.attempts.push({ on: server === killed ? 'killed' : 'survivor', error: String(error) });
            on = 'survivor';
          }
        }
      };

      // Two transfers in flight on the process at the moment it dies (headers read, body not yet sent).
      const inFlight = [0, 1].map((sender) => ask(sender, REQUESTS_PER_SENDER + sender));
      const held = await Promise.all(
        inFlight.map((request) =>
          heldPost(killed.url, '/transfer/touser', browserOf(request.sender, killed), request.body, {
            'idempotency-key': request.key,
          }),
        ),
      );

      let answered = 0;
      const load = Array.from({ length: SENDERS }, async (_, sender) => {
        for (let index = 0; index < REQUESTS_PER_SENDER; index++) {
          const request = ask(sender, index);
          // PostgreSQL: the two processes take turns; SQLite: the one process takes everything.
          await send(request, survivor && (sender + index) % 2 === 1 ? 'survivor' : 'killed');
          if (request.answer?.status === 201) answered += 1;
        }
      });
      await waitFor('transfers to be answered before the kill', async () => answered >= KILL_AFTER, 120_000);
      await killServerProcess(killed);
      killedAt = true;
      for (const [i, h] of held.entries()) {
        await expect(h.answer).rejects.toThrow();
        (inFlight[i] as Asked).attempts.push({ on: 'killed', error: 'cut off by the kill' });
      }
      await Promise.all([...load, ...inFlight.map((request) => send(request, 'survivor'))]);

      // Every request was answered 201 in the end, some after a failed attempt.
      for (const request of asked) expect(request.answer?.status, request.key).toBe(201);
      const retried = asked.filter((request) => request.attempts.some((a) => a.error));
      expect(retried.length).toBeGreaterThanOrEqual(inFlight.length);

      // Every 2xx is a transfer in the ledger, once; and no transfer exists that no client asked for.
      const ids = asked.map((request) => request.answer?.body.transfer.id as string);
      expect(new Set(ids).size).toBe(asked.length);
      const db = shared.handle();
      const ledger = await db
        .selectFrom('ledger_transfers')
        .select(['id', 'debit_account_id', 'credit_account_id', 'amount_cents'])
        .where('kind', '=', 'transfer')
        .execute();
      expect(ledger.map((row) => row.id).sort()).toEqual([...ids].sort());
      const byId = new Map(ledger.map((row) => [row.id, row]));
      for (const request of asked) {
        const row = byId.get(request.answer?.body.transfer.id as string);
        expect(row, request.key).toMatchObject({
          debit_account_id: `${(members[request.sender] as Member).auth.id}:business`,
          credit_account_id: `${(members[request.recipient] as Member).auth.id}:business`,
          amount_cents: cents(request.body.amount),
        });
      }

      // Every key's stored answer is the answer its client got, and a retry now answers it again.
      const stored = await db.selectFrom('idempotency_keys').select(['key', 'response_body']).execute();
      const storedByKey = new Map(stored.map((row) => [row.key, JSON.parse(row.response_body)]));
      const server = await survivorNow();
      for (const request of asked) {
        expect(storedByKey.get(request.key), request.key).toEqual(request.answer?.body);
        const again = await browserOf(request.sender, server).post<TransferAnswer>(
          '/transfer/touser',
          request.body,
          { 'Idempotency-Key': request.key },
        );
        expect(again.status, request.key).toBe(201);
        expect(again.body, request.key).toEqual(request.answer?.body);
      }

      // Balances are what the answered transfers made of 1,000.00 each, and the ledger reconciles.
      const expected = members.map(() => 100_000);
      for (const request of asked) {
        const amount = cents(request.body.amount);
        expected[request.sender] = (expected[request.sender] ?? 0) - amount;
        expected[request.recipient] = (expected[request.recipient] ?? 0) + amount;
      }
      for (const [i, member] of members.entries()) {
        const balance = await browserOf(i, server).get('/wallet/balance');
        expect(cents(balance.body.business), member.member.email).toBe(expected[i]);
      }
      await expectBooksBalanced(await adminOn(server.url));
    },
    PROCESS_TEST_MS,
  );
});
