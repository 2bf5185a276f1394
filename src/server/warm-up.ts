import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '../shared/constants.ts';
import { type Db, isPostgres, POSTGRES_POOL_SIZE } from './db/database.ts';
import type { SessionUser } from './http/session.ts';
import { sendTransfer } from './modules/transfers/transfers.service.ts';
import { updateUserColumns } from './modules/users/members-admin.repository.ts';
import { createUser } from './modules/users/users.service.ts';
import { insertAccountIfMissing } from './modules/wallets/ledger.repository.ts';
import { ensureWallets, postTransfer, walletAccountId } from './modules/wallets/ledger.service.ts';

// Warm before ready (issue 20). A process that has just started spends 1.5 to 2 times the CPU on each
// of its first few thousand transfers as a warm one does (docs/performance.md "Restarts"): V8 runs the
// request path unoptimised until it has seen it often enough to optimise it (with its optimising
// compiler off, the cost never falls), and on PostgreSQL each new pool connection first opens, then
// parses and plans every statement and the transfer function anew. Under load the first seconds build
// a queue. So before readiness answers 200 the process runs the hot path itself, writing nothing that
// stays:
// - over HTTP to itself, transfer requests exactly as the app sends them (CSRF token, JSON body,
//   Idempotency-Key) from a session that does not exist: parsing, hooks, validation and the 401,
//   without a member or a write;
// - the transfer service itself (sendTransfer, the code members' transfers run) between two members
//   that exist only inside a transaction that is always rolled back; on PostgreSQL on every pool
//   connection at once, which opens them all.
// Liveness answers throughout; the process stops warming as soon as it is told to shut down.

/** Marks the warm-up's own requests, so the request log and the metrics leave them out. */
export type WarmUpMark = { header: string; value: string; is: (headers: IncomingHttpHeaders) => boolean };

export function warmUpMark(): WarmUpMark {
  const header = 'x-warm-up';
  const value = randomBytes(16).toString('hex');
  return { header, value, is: (headers) => headers[header] === value };
}

type Deps = {
  app: FastifyInstance;
  db: Db;
  mark: WarmUpMark;
  isDraining: () => boolean;
  /** The session cookie's name (sessionCookieName), so the warm-up's calls look a session up as real ones do. */
  sessionCookie: string;
};

/**
 * How often each path runs. V8 optimised the transfer path after about 2,000 transfers; 2,000 of each
 * here left the first real transfers at about 1.6 times a warm process's CPU, 4,000 brings them close
 * to it (docs/performance.md "Restarts"). It takes 1 to 5 s on the 2-core test machine.
 */
const HTTP_REQUESTS = 4000;
const TRANSFERS = 4000;
/** Transfers per rolled-back transaction: SQLite's one connection is free for others in between. */
const TRANSFERS_PER_TRANSACTION = 25;
const HTTP_CONCURRENCY = 8;

export async function warmUpApp(deps: Deps): Promise<void> {
  const started = Date.now();
  await Promise.all([warmHttp(deps), warmTransfers(deps)]);
  deps.app.log.info(`warmed up in ${Date.now() - started} ms: ready`);
}

async function warmHttp({ app, mark, isDraining, sessionCookie }: Deps): Promise<void> {
  const address = app.server.address() as AddressInfo | null;
  if (!address) return;
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const agent = new Agent({ keepAlive: true, maxSockets: HTTP_CONCURRENCY });
  const call = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<string[]>((resolve, reject) => {
      const req = request(
        {
          agent,
          host,
          port: address.port,
          method,
          path: `${API_BASE}${path}`,
          headers: { ...headers, [mark.header]: mark.value },
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve(res.headers['set-cookie'] ?? []));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  try {
    // A pre-session CSRF token (no row is written for it), as a browser holds before signing in.
    const jar = new Map(
      (await call('GET', '/auth/csrf', {})).map((line) => {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
      }),
    );
    const cookies = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const token = jar.get(CSRF_COOKIE) ?? '';
    const body = JSON.stringify({
      userto_id: randomUUID(),
      amount: '0.01',
      from: 'business',
      to: 'business',
    });
    let sent = 0;
    const worker = async () => {
      while (sent < HTTP_REQUESTS && !isDraining()) {
        sent += 1;
        // Now and then a successful answer's path too (serializing, hooks, a query of its own).
        if (sent % 4 === 0) await call('GET', '/health', {});
        await call(
          'POST',
          '/transfer/touser',
          {
            // A session token that was never issued: the look-up finds nothing and the call is a 401.
            cookie: `${cookies}; ${sessionCookie}=${randomBytes(24).toString('base64url')}`,
            [CSRF_HEADER]: token,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body,
        );
      }
    };
    await Promise.all(Array.from({ length: HTTP_CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
}

const ROLL_BACK = Symbol('warm-up: roll back');

async function warmTransfers({ db, isDraining }: Deps): Promise<void> {
  // PostgreSQL: as many transactions at once as the pool has connections, so each is opened and runs
  // every statement once; SQLite has one connection, and its transactions take turns on it.
  const lanes = isPostgres(db) ? POSTGRES_POOL_SIZE : 1;
  let done = 0;
  const lane = async () => {
    while (done < TRANSFERS && !isDraining()) {
      done += TRANSFERS_PER_TRANSACTION;
      await rehearse(db, TRANSFERS_PER_TRANSACTION).catch((error) => {
        if (error !== ROLL_BACK) throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/** `count` transfers between two members made for the purpose, in one transaction that is rolled back. */
async function rehearse(db: Db, count: number): Promise<void> {
  await db.transaction().execute(async (outer) => {
    const trx = withinTransaction(outer);
    const [sender, recipient] = [await warmUpMember(trx), await warmUpMember(trx)];
    // Funded from an account of its own, also made here: the shared platform accounts' rows are not
    // locked, and the books would balance even if this were ever committed.
    const source = `warm-up:${randomUUID()}`;
    await insertAccountIfMissing(trx, {
      id: source,
      user_id: null,
      code: 'platform:warm-up',
      balance_cents: 0,
      held_cents: 0,
      allow_negative: 1,
      created_at: new Date().toISOString(),
    });
    await postTransfer(trx, {
      debitAccountId: source,
      creditAccountId: walletAccountId(sender.id, 'business'),
      amountCents: count,
      kind: 'adjustment',
    });
    const asker: SessionUser = {
      sessionId: randomUUID(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      user: sender,
    };
    for (let i = 0; i < count; i++)
      await sendTransfer(
        trx,
        asker,
        { userto_id: recipient.id, amount: 1, from: 'business', to: 'business' },
        randomUUID(),
      );
    throw ROLL_BACK;
  });
}

async function warmUpMember(trx: Db) {
  const tag = randomBytes(6).toString('hex');
  const user = await createUser(trx, {
    username: `warm_up_${tag}`,
    email: `warm-up-${tag}@warm-up.invalid`,
    // Not a hash of any password: nobody can sign in as this member, who never exists outside the
    // rolled-back transaction anyway.
    password_hash: '!',
    role: 'user',
    fullname: 'Warm-up',
    phone: '+10000000000',
  });
  await ensureWallets(trx, user.id);
  const now = new Date().toISOString();
  await updateUserColumns(trx, user.id, { is_active: 'active', updated_at: now });
  return { ...user, is_active: 'active' as const, updated_at: now };
}

/**
 * The transaction `outer` as a database handle whose own transactions run inside it (Kysely runs no
 * transaction inside another): the service's code runs unchanged, and its work ends with `outer`.
 */
function withinTransaction(outer: Db): Db {
  const handle: Db = new Proxy(outer, {
    get(target, property) {
      if (property === 'transaction')
        return () => ({ execute: <T>(work: (trx: Db) => Promise<T>) => work(handle) });
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return handle;
}
