import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import * as v from 'valibot';
import { loadConfig } from '../../src/server/config.ts';
import { createDatabase, type Db, type Dialect } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { UserTable } from '../../src/server/db/schema.ts';
import { AppError } from '../../src/server/http/errors.ts';
import type { SessionUser } from '../../src/server/http/session.ts';
import { hashToken } from '../../src/server/http/tokens.ts';
import { register, resolveSession, startSession } from '../../src/server/modules/auth/auth.service.ts';
import type { Outcome } from '../../src/server/modules/idempotency/idempotency.service.ts';
import { ipnSignature } from '../../src/server/modules/payments/ipn-signature.ts';
import type { ProviderPayment } from '../../src/server/modules/payments/payment-provider.ts';
import {
  createPayment,
  handleIpn,
  type PaymentsDeps,
  paymentStatus,
} from '../../src/server/modules/payments/payments.service.ts';
import { decideTransfer, sendTransfer } from '../../src/server/modules/transfers/transfers.service.ts';
import { createAdmin } from '../../src/server/modules/users/admins.service.ts';
import { updateMember } from '../../src/server/modules/users/users.service.ts';
import { PLATFORM, reconcile, walletAccountId } from '../../src/server/modules/wallets/ledger.service.ts';
import { adjustBalance } from '../../src/server/modules/wallets/wallets.service.ts';
import { memberEditSchema } from '../../src/shared/member-edit.ts';
import { createPaymentSchema, PAYMENT_STATUS_RANK, type PaymentStatus } from '../../src/shared/payments.ts';
import { transferDecisionSchema, transferRequestSchema } from '../../src/shared/transfers.ts';
import { adjustmentSchema, WALLETS } from '../../src/shared/wallets.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';
import { type Defect, type FaultPlan, FaultPlugin, InjectedFault } from './fault-plugin.ts';
import { type Rng, rng } from './prng.ts';
import { SimProvider } from './sim-provider.ts';

// The money simulator (docs/simulator.md). A seed makes a list of operations; the list runs against
// the real services on a real database, a step at a time (one operation, or a few at once on the same
// accounts), under a simulated clock, with faults before chosen statements and lost answers, each
// followed by the client's retry under the same Idempotency-Key. After every step the books are
// checked against the database's own entries and against a model of what the services answered.

export type SimOptions = {
  seed: number;
  ops: number;
  dialect: Dialect;
  /** Operations in flight at once, at most (1: one at a time). */
  maxConcurrency?: number;
  members?: number;
  /** A deliberate defect to find (fault-plugin.ts DEFECTS); none in a normal run. */
  defect?: Defect;
};

type WalletName = (typeof WALLETS)[number];
type Target = number | 'self' | 'unknown' | 'admin';
type Fault = { failBefore: number } | { lostAnswer: true } | undefined;

/** One operation, as a client would send it: inputs are raw (often invalid), checked by the route's schema. */
export type Op = {
  /** Runs in the same step as the operation before it (concurrently). */
  join: boolean;
  /** Event-loop turns to wait before sending, so concurrent operations interleave as the seed says. */
  delay: number;
  /** Simulated milliseconds that pass before the step. */
  advanceMs: number;
  key: string | undefined;
  fault: Fault;
} & (
  | {
      kind: 'transfer';
      by: number;
      to: Target;
      body: { amount: unknown; from: unknown; to: unknown; desc?: string };
    }
  | {
      kind: 'decide-transfer';
      pick: number;
      which: 'open' | 'any' | 'bogus';
      body: { status: unknown; reason?: string };
    }
  | {
      kind: 'adjust';
      member: number;
      body: { wallet: unknown; direction: unknown; amount: unknown; reason: unknown };
    }
  | {
      kind: 'pay-create';
      by: number;
      body: { price_amount: unknown; price_currency: unknown; pay_currency: unknown };
    }
  /** The invoice's true status moves on and the provider calls back with it. */
  | { kind: 'pay-advance'; pick: number; roll: number; badSignature: boolean }
  /** A callback delivered again, late: it carries the entry `back` steps before the last. */
  | { kind: 'pay-callback'; pick: number; back: number; badSignature: boolean }
  /** The member's payment page asks for the status (the service reads it from the provider). */
  | { kind: 'pay-poll'; pick: number; asOwner: boolean; back: number }
);

type Answer = {
  status: number;
  body?: unknown;
  replayed?: boolean;
  crashed?: boolean;
  /** What the payment provider answered the service during the call, if it asked. */
  read?: ProviderPayment;
};

export type Failure = { step: number; opIndex: number; message: string };

export type SimResult = {
  seed: number;
  ops: number;
  steps: number;
  checks: number;
  statements: number;
  /** Answers by operation kind and status, for coverage. */
  answers: Record<string, number>;
  faults: { injected: number; lostAnswers: number; retries: number };
  trace: string[];
  /** Payments credited (each exactly once). */
  credited: number;
  digest: string;
  failure?: Failure;
};

const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 5, 9, 0, 0);

/** A number of cents in a shape the route may or may not accept. */
function amountInput(r: Rng): unknown {
  const roll = r.next();
  if (roll < 0.45) return (r.int(1, 20_000) / 100).toFixed(2); // up to $200
  if (roll < 0.6) return String(r.int(1, 99)); // whole dollars
  if (roll < 0.72) return (r.int(1_000, 10_000) / 1).toFixed(2); // around the review threshold and the daily limit
  if (roll < 0.8) return r.int(1, 5_000); // a JSON number
  return r.pick(['0', '-5.00', '1.234', 'abc', '', '   ', '1e3', '99999999999.99', null, '0.01', '10.5']);
}

const walletInput = (r: Rng): unknown => (r.chance(0.95) ? r.pick(WALLETS) : r.pick(['savings', '', 42]));

/** The operations a seed makes. Nothing here depends on what the services answer: a list replays as is. */
export function generate(
  seed: number,
  count: number,
  opts: { members: number; maxConcurrency: number },
): Op[] {
  const r = rng(seed);
  const ops: Op[] = [];
  let inStep = 0;
  for (let i = 0; i < count; i++) {
    const join = i > 0 && inStep < opts.maxConcurrency && r.chance(0.35);
    inStep = join ? inStep + 1 : 1;
    const common = {
      join,
      delay: r.int(0, 3),
      advanceMs: r.chance(0.05) ? r.int(1, 2) * DAY_MS : r.int(1, 120_000),
      fault: r.chance(0.06)
        ? { failBefore: r.int(1, 12) }
        : r.chance(0.04)
          ? ({ lostAnswer: true } as const)
          : undefined,
    };
    // A client resending an earlier request (same key, same body): the service must answer it once.
    const earlier = ops.length > 0 && r.chance(0.06) ? r.pick(ops) : undefined;
    if (earlier?.key) {
      ops.push({ ...earlier, ...common });
      continue;
    }
    const key = r.chance(0.85) ? `k${seed}-${i}` : undefined;
    const roll = r.next();
    if (roll < 0.36) {
      const by = r.int(0, opts.members - 1);
      const t = r.next();
      const to: Target =
        t < 0.75 ? r.int(0, opts.members - 1) : t < 0.9 ? 'self' : t < 0.95 ? 'unknown' : 'admin';
      ops.push({
        ...common,
        key,
        kind: 'transfer',
        by,
        to: to === by ? 'self' : to,
        body: {
          amount: amountInput(r),
          from: walletInput(r),
          to: walletInput(r),
          ...(r.chance(0.2) ? { desc: r.pick(['rent', 'lunch', ' ', 'x'.repeat(300)]) } : {}),
        },
      });
    } else if (roll < 0.46) {
      ops.push({
        ...common,
        key,
        kind: 'decide-transfer',
        pick: r.int(0, 1_000),
        which: r.chance(0.8) ? 'open' : r.chance(0.8) ? 'any' : 'bogus',
        body: {
          status: r.chance(0.97) ? r.pick(['completed', 'failed']) : 'pending',
          ...(r.chance(0.3) ? { reason: 'checked' } : {}),
        },
      });
    } else if (roll < 0.56) {
      ops.push({
        ...common,
        key,
        kind: 'pay-create',
        by: r.int(0, opts.members - 1),
        body: {
          price_amount: amountInput(r),
          price_currency: r.chance(0.95) ? 'usd' : 'eur',
          pay_currency: r.chance(0.95) ? 'usdtbsc' : 'btc',
        },
      });
    } else if (roll < 0.7) {
      ops.push({
        ...common,
        key: undefined,
        kind: 'pay-advance',
        pick: r.int(0, 1_000),
        roll: r.next(),
        badSignature: r.chance(0.03),
      });
    } else if (roll < 0.78) {
      ops.push({
        ...common,
        key: undefined,
        kind: 'pay-callback',
        pick: r.int(0, 1_000),
        back: r.chance(0.4) ? 0 : r.int(1, 4),
        badSignature: r.chance(0.05),
      });
    } else if (roll < 0.82) {
      ops.push({
        ...common,
        key: undefined,
        kind: 'pay-poll',
        pick: r.int(0, 1_000),
        asOwner: r.chance(0.85),
        back: r.chance(0.7) ? 0 : r.int(1, 3),
      });
    } else {
      ops.push({
        ...common,
        key,
        kind: 'adjust',
        member: r.int(0, opts.members - 1),
        body: {
          wallet: walletInput(r),
          direction: r.chance(0.8) ? 'credit' : r.chance(0.95) ? 'debit' : 'sideways',
          amount: amountInput(r),
          reason: r.chance(0.95) ? 'Simulated correction' : 'no',
        },
      });
    }
  }
  return ops;
}

type Hold = { id: string; from: string; to: string; cents: number };

/** What the services answered, in integer cents: the books must agree with it after every step. */
class Model {
  balance = new Map<string, number>();
  held = new Map<string, number>();
  open = new Map<string, Hold>();
  settled = new Set<string>();
  known = new Map<string, Hold & { completed: boolean }>();
  /** Ledger rows the answered operations wrote. */
  rows = 0;
  /** Ids answered in the current step, to find in the ledger exactly once. */
  fresh: string[] = [];
  /** (owner, key) -> the first successful answer's request and transfer id. */
  keys = new Map<string, { request: string; id: string }>();
  /** Payments the service answered for, with the status RULES.md says it keeps, and their credit. */
  payments = new Map<
    string,
    { owner: string; cents: number; status: string; rank: number; credited: boolean }
  >();
  credits = 0;

  add(map: Map<string, number>, account: string, cents: number) {
    map.set(account, (map.get(account) ?? 0) + cents);
  }

  /** A success for `id` is new money movement only the first time it is answered. */
  isNew(id: string): boolean {
    if (this.known.has(id) || this.settled.has(id)) return false;
    return true;
  }
}

type Member = { id: string; token: string };
const NO_FAULT: FaultPlan = { label: 'retry', failBefore: 0, seen: 0, fired: false };

type World = {
  db: Db;
  provider: SimProvider;
  plugin: FaultPlugin;
  admin: { id: string; token: string };
  members: { id: string; token: string }[];
  labels: Map<string, string>;
  close: () => Promise<void>;
};

async function openWorld(options: SimOptions): Promise<World> {
  const { seed, dialect } = options;
  const memberCount = options.members ?? 6;
  // In memory where Linux offers it: every step commits, and the disk's fsync would be most of the run's
  // time; the simulator tests the books, not the disk.
  const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'platform-sim-'));
  const schema = `sim_${randomBytes(6).toString('hex')}`;
  if (dialect === 'postgres') await adminQuery(`create schema ${schema}`);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(dialect === 'postgres' ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
  });
  const created = createDatabase(config);
  await migrateToLatest(created.db, dialect === 'postgres' ? schema : undefined);
  const plugin = new FaultPlugin(options.defect);
  const db = created.db.withPlugin(plugin);
  const close = async () => {
    await created.db.destroy();
    if (dialect === 'postgres') await adminQuery(`drop schema ${schema} cascade`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ctx = (n: number) => ({
      ip: `10.9.${Math.floor(n / 250)}.${(n % 250) + 1}`,
      userAgent: 'simulator',
    });
    const { admin: adminRow } = await createAdmin(db, {
      email: 'sim-admin@example.com',
      password: 'Sim-Admin-Pass-2026',
      username: 'sim_admin',
    });
    const adminSession = await startSession(db, adminRow, 'admin', ctx(0));
    const adminUser = (await resolveSession(db, adminSession.sessionId)) as SessionUser;
    const labels = new Map<string, string>([[adminRow.id, 'admin']]);
    // A random sponsor tree: each member joins under the admin or an earlier member, as the seed says.
    const r = rng(seed ^ 0x5eed);
    const rows: UserTable[] = [];
    const members: World['members'] = [];
    for (let i = 0; i < memberCount; i++) {
      const sponsor = rows.length > 0 && r.chance(0.8) ? r.pick(rows) : undefined;
      const row = await register(
        db,
        {
          fullname: `Sim Member ${i}`,
          username: `sim_m${i}`,
          email: `sim-m${i}@example.com`,
          phone: `+1555000${String(i).padStart(4, '0')}`,
          password: `Sim-Member-Pass-${i}-2026`,
          reffer_by: sponsor?.refferal_code,
        } as Parameters<typeof register>[1],
        ctx(i + 1),
      );
      rows.push(row);
      // Most members are active (they may send); a few are not, and are refused as senders.
      if (r.chance(0.85))
        await updateMember(db, adminUser, row.id, v.parse(memberEditSchema, { is_active: 'active' }));
      const session = await startSession(db, row, 'user', ctx(i + 1));
      members.push({ id: row.id, token: session.token });
      labels.set(row.id, `m${i}`);
    }
    return {
      db,
      provider: new SimProvider(),
      plugin,
      admin: { id: adminRow.id, token: adminSession.token },
      members,
      labels,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The signed-in person as a request would find them; a client whose session ended signs in again. */
async function sessionOf(world: World, who: Member): Promise<SessionUser> {
  const found = await resolveSession(world.db, hashToken(who.token));
  if (found) return found;
  const user = await world.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', who.id)
    .executeTakeFirstOrThrow();
  const session = await startSession(world.db, user, user.role, { ip: '10.8.0.1', userAgent: 'simulator' });
  who.token = session.token;
  return (await resolveSession(world.db, session.sessionId)) as SessionUser;
}

/** A route's body check, then the service: the answer a client would get. */
async function answerOf(work: () => Promise<Outcome>): Promise<Answer> {
  try {
    const outcome = await work();
    return { status: outcome.statusCode, body: outcome.body, replayed: outcome.replayed === true };
  } catch (error) {
    if (error instanceof AppError) return { status: error.statusCode, body: error.message };
    if (error instanceof InjectedFault) return { status: 0, crashed: true };
    if (error instanceof v.ValiError) return { status: 400, body: error.message };
    // The error handler would answer 500; the simulator treats it as a finding (see invariants).
    return { status: 500, body: String(error) };
  }
}

const recipientOf = (world: World, to: Target, by: number) =>
  to === 'self'
    ? (world.members[by]?.id ?? '')
    : to === 'unknown'
      ? '00000000-0000-4000-8000-000000000000'
      : to === 'admin'
        ? world.admin.id
        : (world.members[to]?.id ?? '');

/** The transfer id a decision names: an open hold, any transfer answered so far, or one that does not exist. */
function decisionTarget(model: Model, op: Extract<Op, { kind: 'decide-transfer' }>): string {
  const open = [...model.open.keys()];
  const any = [...model.known.keys()];
  if (op.which === 'open' && open.length > 0) return open[op.pick % open.length] as string;
  if (op.which !== 'bogus' && any.length > 0) return any[op.pick % any.length] as string;
  return '00000000-0000-4000-8000-00000000dead';
}

/**
 * Sends one operation as the client would, once. The session is found first, outside the fault plan:
 * the faults are aimed at the money operation's statements.
 */
async function send(world: World, model: Model, op: Op, plan: FaultPlan): Promise<Answer> {
  if (op.kind.startsWith('pay-')) return sendPayment(world, model, op, plan);
  const asker = await sessionOf(
    world,
    op.kind === 'transfer' ? (world.members[op.by] as Member) : world.admin,
  );
  const faulty = (work: () => Promise<Outcome>) => answerOf(() => world.plugin.run(plan, work));
  switch (op.kind) {
    case 'transfer': {
      const body = { userto_id: recipientOf(world, op.to, op.by), ...op.body };
      return faulty(() => sendTransfer(world.db, asker, v.parse(transferRequestSchema, body), op.key));
    }
    case 'decide-transfer': {
      const id = decisionTarget(model, op);
      return faulty(() =>
        decideTransfer(world.db, asker, id, v.parse(transferDecisionSchema, op.body), op.key),
      );
    }
    case 'adjust': {
      const body = { user_id: world.members[op.member]?.id ?? '', ...op.body };
      return faulty(() => adjustBalance(world.db, asker, v.parse(adjustmentSchema, body), op.key));
    }
    default:
      throw new RangeError(op.kind);
  }
}

const IPN_SECRET = 'simulated-ipn-secret';

const invoiceOf = (world: World, pick: number) =>
  world.provider.invoices.length > 0
    ? world.provider.invoices[pick % world.provider.invoices.length]
    : undefined;

/** The payment paths: a member's invoice, the provider's callbacks, the member's status page. */
async function sendPayment(world: World, model: Model, op: Op, plan: FaultPlan): Promise<Answer> {
  let read: ProviderPayment | undefined;
  const deps = (back = 0): PaymentsDeps => ({
    db: world.db,
    provider: world.provider.as(
      (invoice) => Math.max(0, invoice.history.length - 1 - back),
      (seen) => {
        read = seen;
      },
    ),
    ipnSecret: IPN_SECRET,
    publicUrl: 'http://simulator.invalid',
    log: { warn: () => {} },
  });
  const faulty = async (work: () => Promise<Outcome>) => ({
    ...(await answerOf(() => world.plugin.run(plan, work))),
    read,
  });
  switch (op.kind) {
    case 'pay-create': {
      const member = await sessionOf(world, world.members[op.by] as Member);
      return faulty(() => createPayment(deps(), member, v.parse(createPaymentSchema, op.body), op.key));
    }
    case 'pay-advance':
    case 'pay-callback': {
      const invoice = invoiceOf(world, op.pick);
      if (!invoice) return { status: 404 };
      const back = op.kind === 'pay-callback' ? op.back : 0;
      const body = invoice.history[Math.max(0, invoice.history.length - 1 - back)];
      const signature = op.badSignature ? 'f'.repeat(128) : ipnSignature(body, IPN_SECRET);
      return faulty(async () => ({ statusCode: 200, body: await handleIpn(deps(back), body, signature) }));
    }
    case 'pay-poll': {
      const invoice = invoiceOf(world, op.pick);
      if (!invoice) return { status: 404 };
      const owner = model.payments.get(invoice.id)?.owner;
      const who = op.asOwner && owner ? owner : (world.members[op.pick % world.members.length] as Member).id;
      const member = await sessionOf(world, world.members.find((m) => m.id === who) as Member);
      return faulty(async () => ({
        statusCode: 200,
        body: await paymentStatus(deps(op.back), member, invoice.id),
      }));
    }
    default:
      throw new RangeError(op.kind);
  }
}

/** RULES.md "Deposits": statuses only move forward; the wallet is credited once, when `finished` is stored. */
function learnPayment(world: World, model: Model, op: Op, answer: Answer): string | undefined {
  if (answer.status < 200 || answer.status >= 300) return undefined;
  if (op.kind === 'pay-create') {
    const body = answer.body as { payment_id?: string };
    if (!body.payment_id) return 'an invoice answered without a payment id';
    if (!model.payments.has(body.payment_id))
      model.payments.set(body.payment_id, {
        owner: world.members[op.by]?.id ?? '',
        cents: v.parse(createPaymentSchema, op.body).price_amount,
        status: 'waiting',
        rank: 0,
        credited: false,
      });
    return undefined;
  }
  const read = answer.read;
  if (!read) return undefined;
  const payment = model.payments.get(read.payment_id);
  if (!payment) return `the service asked the provider about ${read.payment_id}, which it never answered for`;
  const rank = PAYMENT_STATUS_RANK[read.payment_status as PaymentStatus] ?? 0;
  if (rank > payment.rank || (rank === payment.rank && read.payment_status === payment.status)) {
    payment.status = read.payment_status;
    payment.rank = rank;
  }
  if (payment.status === 'finished' && !payment.credited) {
    payment.credited = true;
    model.credits += 1;
    model.rows += 1;
    model.add(model.balance, PLATFORM.deposits, -payment.cents);
    model.add(model.balance, walletAccountId(payment.owner, 'business'), payment.cents);
  }
  return undefined;
}

/** The accounts an answered operation moved money between, and how, for the model. */
function learn(
  world: World,
  model: Model,
  op: Op,
  answer: Answer,
  ownerKey: string | undefined,
): string | undefined {
  if (op.kind.startsWith('pay-')) return learnPayment(world, model, op, answer);
  if (answer.status < 200 || answer.status >= 300) return undefined;
  const body = answer.body as { transfer?: { id: string; status?: string } };
  const id = body.transfer?.id;
  if (!id) return `a ${answer.status} answer to ${op.kind} without a transfer`;
  if (ownerKey) {
    const request = JSON.stringify(
      op.kind === 'decide-transfer' ? { ...op.body, id } : 'body' in op ? op.body : null,
    );
    const first = model.keys.get(ownerKey);
    if (first && first.request === request && first.id !== id)
      return `the key ${ownerKey} was answered with two different transfers (${first.id}, ${id})`;
    if (!first) model.keys.set(ownerKey, { request, id });
  }
  switch (op.kind) {
    case 'transfer': {
      if (!model.isNew(id)) return undefined;
      const cents = v.parse(transferRequestSchema, { userto_id: 'x', ...op.body }).amount;
      const from = walletAccountId(world.members[op.by]?.id ?? '', op.body.from as WalletName);
      const to = walletAccountId(recipientOf(world, op.to, op.by), op.body.to as WalletName);
      const hold = { id, from, to, cents };
      model.rows += 1;
      model.fresh.push(id);
      if (body.transfer?.status === 'pending') {
        model.add(model.held, from, cents);
        model.open.set(id, hold);
        model.known.set(id, { ...hold, completed: false });
      } else {
        model.add(model.balance, from, -cents);
        model.add(model.balance, to, cents);
        model.known.set(id, { ...hold, completed: true });
      }
      return undefined;
    }
    case 'decide-transfer': {
      const hold = model.open.get(id);
      if (!hold) {
        // Answered before (a replay) is fine; a second settlement of one hold is not.
        if (answer.replayed) return undefined;
        return model.settled.has(id)
          ? `the transfer ${id} was settled twice`
          : `a decision on ${id}, which is no open hold, was answered ${answer.status}`;
      }
      model.open.delete(id);
      model.settled.add(id);
      model.rows += 1;
      model.add(model.held, hold.from, -hold.cents);
      if (body.transfer?.status === 'completed') {
        model.add(model.balance, hold.from, -hold.cents);
        model.add(model.balance, hold.to, hold.cents);
      } else if (body.transfer?.status !== 'failed')
        return `a decision answered status ${body.transfer?.status}`;
      return undefined;
    }
    case 'adjust': {
      if (!model.isNew(id)) return undefined;
      const input = v.parse(adjustmentSchema, { user_id: 'x', ...op.body });
      const wallet = walletAccountId(world.members[op.member]?.id ?? '', input.wallet);
      const [from, to] =
        input.direction === 'credit' ? [PLATFORM.adjustments, wallet] : [wallet, PLATFORM.adjustments];
      model.rows += 1;
      model.fresh.push(id);
      model.add(model.balance, from, -input.amount);
      model.add(model.balance, to, input.amount);
      model.known.set(id, { id, from, to, cents: input.amount, completed: true });
      return undefined;
    }
    default:
      return undefined;
  }
}

const ownerOf = (world: World, op: Op) =>
  op.kind === 'transfer' || op.kind === 'pay-create' ? (world.members[op.by]?.id ?? '') : world.admin.id;

/** What an answer teaches the model, applied once every operation of the step has answered. */
type Learner = { index: number; learn: () => string | undefined };

/**
 * One operation with its fault and the client's retry; returns a broken rule, if any. What the answer
 * teaches the model waits for the step's end: an operation in flight may already see another's
 * committed work (a callback for an invoice whose creation has not answered yet).
 */
async function runOp(
  world: World,
  model: Model,
  op: Op,
  index: number,
  result: SimResult,
  learners: Learner[],
): Promise<string | undefined> {
  const ownerKey = op.key ? `${ownerOf(world, op)}|${op.key}` : undefined;
  const plan = {
    label: `op ${index}`,
    failBefore: op.fault && 'failBefore' in op.fault ? op.fault.failBefore : 0,
    seen: 0,
    fired: false,
  };
  if (op.kind === 'pay-advance') {
    const invoice = invoiceOf(world, op.pick);
    if (invoice) world.provider.advance(invoice, op.roll);
  }
  let answer = await send(world, model, op, plan);
  if (plan.fired) result.faults.injected += 1;
  const lost = op.fault !== undefined && 'lostAnswer' in op.fault && op.key !== undefined;
  if (lost) {
    // The work committed, but the answer never reached the client.
    result.faults.lostAnswers += 1;
    const first = answer;
    answer = await send(world, model, op, NO_FAULT);
    result.faults.retries += 1;
    if (first.status >= 200 && first.status < 300) {
      if (!answer.replayed || answer.status !== first.status)
        return `a retry after a lost ${first.status} answered ${answer.status}${answer.replayed ? ' (replayed)' : ''}`;
      const a = (first.body as { transfer?: { id: string } }).transfer?.id;
      const b = (answer.body as { transfer?: { id: string } }).transfer?.id;
      if (a !== b) return `a retry after a lost answer named another transfer (${a}, ${b})`;
    }
  } else if (answer.crashed && op.key !== undefined) {
    // The client saw the connection fail and sends the same request again under the same key.
    answer = await send(world, model, op, NO_FAULT);
    result.faults.retries += 1;
  }
  const label = `${op.kind} ${answer.crashed ? 'crashed' : answer.status}${answer.replayed ? ' replayed' : ''}`;
  result.answers[label] = (result.answers[label] ?? 0) + 1;
  result.trace.push(`${index} ${label}`);
  if (answer.status === 500) return `${op.kind} answered 500: ${String(answer.body)}`;
  learners.push({ index, learn: () => learn(world, model, op, answer, ownerKey) });
  return undefined;
}

/** The invariants, over the whole database, after a step. */
async function check(world: World, model: Model): Promise<string | undefined> {
  const books = await reconcile(world.db);
  if (!books.balanced)
    return `the books do not balance: sum ${books.ledger_sum}, ${JSON.stringify(books.mismatches.slice(0, 3))}`;
  const accounts = await world.db
    .selectFrom('ledger_accounts')
    .select(['id', 'user_id', 'balance_cents', 'held_cents'])
    .execute();
  for (const a of accounts) {
    const balance = Number(a.balance_cents);
    const held = Number(a.held_cents);
    if (a.user_id !== null && (balance - held < 0 || held < 0))
      return `${a.id} is below zero: balance ${balance}, held ${held}`;
    const want = [model.balance.get(a.id) ?? 0, model.held.get(a.id) ?? 0];
    if (balance !== want[0] || held !== want[1])
      return `${a.id} holds ${balance} (held ${held}), but the answers given add up to ${want[0]} (held ${want[1]})`;
  }
  const { n } = await world.db
    .selectFrom('ledger_transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) !== model.rows)
    return `the ledger has ${n} rows, but the answers given account for ${model.rows}`;
  const credits = await world.db
    .selectFrom('payment_credits as c')
    .innerJoin('crypto_payments as p', (j) =>
      j.onRef('p.provider', '=', 'c.provider').onRef('p.provider_payment_id', '=', 'c.provider_payment_id'),
    )
    .select(['c.provider_payment_id', 'c.amount_cents', 'p.price_amount_cents', 'p.payment_status'])
    .execute();
  if (credits.length !== model.credits)
    return `${credits.length} payments are credited, but the callbacks answered account for ${model.credits}`;
  const wrong = credits.find(
    (c) =>
      !['finished', 'refunded'].includes(c.payment_status) ||
      Number(c.amount_cents) !== Number(c.price_amount_cents),
  );
  if (wrong)
    return `payment ${wrong.provider_payment_id} is credited ${wrong.amount_cents} while ${wrong.payment_status}`;
  const statuses = await world.db
    .selectFrom('crypto_payments')
    .select(['provider_payment_id', 'payment_status'])
    .execute();
  for (const p of statuses) {
    const want = model.payments.get(p.provider_payment_id)?.status;
    if (p.payment_status !== want)
      return `payment ${p.provider_payment_id} is ${p.payment_status}, but the provider's answers since make it ${want}`;
  }
  if (model.fresh.length > 0) {
    const found = await world.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('id', 'in', model.fresh)
      .execute();
    if (found.length !== new Set(model.fresh).size) return `an answered transfer is not in the ledger`;
    model.fresh = [];
  }
  return undefined;
}

/** Same seed, same digest: the ledger and the answers, with the run's random ids replaced by names. */
async function digestOf(world: World, trace: string[]): Promise<string> {
  const name = (account: string) => {
    const [owner = '', wallet = ''] = account.split(':');
    return world.labels.has(owner) ? `${world.labels.get(owner)}:${wallet}` : account;
  };
  const rows = await world.db
    .selectFrom('ledger_transfers')
    .select(['debit_account_id', 'credit_account_id', 'amount_cents', 'phase', 'kind', 'created_at'])
    .execute();
  const lines = rows
    .map((r) =>
      [
        name(r.debit_account_id),
        name(r.credit_account_id),
        Number(r.amount_cents),
        r.phase,
        r.kind,
        r.created_at,
      ].join(' '),
    )
    .sort();
  return createHash('sha256')
    .update(lines.join('\n'))
    .update('\n--\n')
    .update(trace.join('\n'))
    .digest('hex');
}

/** Runs a list of operations on a fresh database; stops at the first broken invariant. */
export async function runOps(options: SimOptions, ops: Op[]): Promise<SimResult> {
  const clock = FakeTimers.install({ now: START, toFake: ['Date'] });
  const result: SimResult = {
    seed: options.seed,
    ops: ops.length,
    steps: 0,
    checks: 0,
    statements: 0,
    answers: {},
    faults: { injected: 0, lostAnswers: 0, retries: 0 },
    trace: [],
    credited: 0,
    digest: '',
  };
  let world: World | undefined;
  try {
    world = await openWorld(options);
    const model = new Model();
    const w = world;
    let i = 0;
    while (i < ops.length) {
      const start = i;
      const step = [ops[i] as Op];
      i += 1;
      while (i < ops.length && (ops[i] as Op).join) {
        step.push(ops[i] as Op);
        i += 1;
      }
      clock.tick(step[0]?.advanceMs ?? 1);
      result.steps += 1;
      const learners: Learner[] = [];
      const broken = await Promise.all(
        step.map(async (op, k) => {
          for (let d = 0; d < op.delay; d++) await new Promise((resolve) => setImmediate(resolve));
          return runOp(w, model, op, start + k, result, learners);
        }),
      );
      // Invoices first: the step's callbacks may have found them. The rest in the order sent (the
      // model's rules for them do not depend on the order within a step).
      const creates = (l: Learner) => (ops[l.index]?.kind === 'pay-create' ? 0 : 1);
      learners.sort((a, b) => creates(a) - creates(b) || a.index - b.index);
      const found =
        broken.find((b) => b !== undefined) ?? learners.map((l) => l.learn()).find((b) => b !== undefined);
      const message = found ?? (await check(w, model));
      result.checks += found ? 0 : 1;
      if (message) {
        result.failure = { step: result.steps, opIndex: i - 1, message };
        break;
      }
    }
    result.statements = w.plugin.statements;
    result.credited = model.credits;
    result.digest = await digestOf(w, result.trace);
    return result;
  } finally {
    clock.uninstall();
    await world?.close();
  }
}

/** The seed's run. */
export function simulate(options: SimOptions): Promise<SimResult> {
  const ops = generate(options.seed, options.ops, {
    members: options.members ?? 6,
    maxConcurrency: options.maxConcurrency ?? 4,
  });
  return runOps(options, ops);
}

/**
 * Delta debugging (Zeller's ddmin, by chunks): the shortest list of operations found that still breaks
 * an invariant. Each try is a fresh run, so `budget` bounds the time it takes.
 */
export async function shrink(options: SimOptions, failing: Op[], budget = 200): Promise<Op[]> {
  let ops = failing;
  let tries = 0;
  const fails = async (candidate: Op[]) => {
    tries += 1;
    const fixed = candidate.map((op, k) => (k === 0 ? { ...op, join: false } : op));
    return (await runOps(options, fixed)).failure !== undefined;
  };
  let chunks = 2;
  while (ops.length > 1 && tries < budget) {
    const size = Math.ceil(ops.length / chunks);
    let reduced = false;
    for (let start = 0; start < ops.length && tries < budget; start += size) {
      const candidate = [...ops.slice(0, start), ...ops.slice(start + size)];
      if (candidate.length > 0 && (await fails(candidate))) {
        ops = candidate;
        chunks = Math.max(chunks - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (size === 1) break;
      chunks = Math.min(chunks * 2, ops.length);
    }
  }
  return ops.map((op, k) => (k === 0 ? { ...op, join: false } : op));
}
