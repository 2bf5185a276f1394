import { createHash } from 'node:crypto';
import FakeTimers from '@sinonjs/fake-timers';
import { sql } from 'kysely';
import { reconcile } from '../../src/server/modules/wallets/ledger.service.ts';
import { type AnyDomain, DOMAINS, domainOf, type Op } from './domains/index.ts';
import { type FaultPlan, InjectedFault } from './fault-plugin.ts';
import { rng } from './prng.ts';
import { seedRandom } from './seeded-random.ts';
import {
  type Answer,
  type Ctx,
  DAY_MS,
  Model,
  openWorld,
  type SimOptions,
  START,
  type World,
} from './world.ts';

export type { Op } from './domains/index.ts';
export type { SimOptions } from './world.ts';

// The money simulator (docs/simulator.md). A seed makes a list of operations; the list runs against
// the real services on a real database, a step at a time (one operation, or a few at once on the same
// accounts), under a simulated clock, with faults before chosen statements and lost answers, each
// followed by the client's retry under the same Idempotency-Key. After every step the books are
// checked against the database's own entries and against a model of what the services answered.

export type Failure = { step: number; opIndex: number; message: string };

export type SimResult = {
  seed: number;
  ops: number;
  steps: number;
  /** Steps checked (every step: what it could have changed). */
  checks: number;
  /** Of those, the checks of everything (the production reconciliation, every account, every row). */
  fullChecks: number;
  statements: number;
  /** Answers by operation kind and status, for coverage. */
  answers: Record<string, number>;
  faults: {
    injected: number;
    lostAnswers: number;
    retries: number;
    /** Processes dropped and databases reopened. */
    reopened: number;
    /** Calls in flight on a process when it was dropped (each client saw its connection fail). */
    inFlightAtDrop: number;
    /** Of those, calls whose retry on the reopened database was answered from the stored answer. */
    replayedAfterDrop: number;
  };
  trace: string[];
  /** Each domain's own counts (e.g. payments credited), for coverage. */
  summary: Record<string, number>;
  digest: string;
  failure?: Failure;
};

/** A client's retry: no fault of its own (a plan per call: a plan also carries the call's state). */
const retryPlan = (): FaultPlan => ({ label: 'retry', failBefore: 0, seen: 0, fired: false });
const TOTAL_WEIGHT = DOMAINS.reduce((sum, d) => sum + d.weight, 0);

/** The domain a roll in [0, TOTAL_WEIGHT) falls in, by the domains' weights. */
function pickDomain(roll: number): AnyDomain {
  let left = roll;
  for (const domain of DOMAINS) {
    if (left < domain.weight) return domain;
    left -= domain.weight;
  }
  return DOMAINS.at(-1) as AnyDomain;
}

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
        ? { failBefore: r.int(1, 12), ...(r.chance(0.1) ? { reopen: true } : {}) }
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
    const domain = pickDomain(r.next() * TOTAL_WEIGHT);
    ops.push({ ...common, ...domain.generate(r, { members: opts.members, key }) } as Op);
  }
  return ops;
}

/** A domain's view of the run: the world, the model and its own state. */
const ctxOf = (world: World, model: Model, domain: AnyDomain): Ctx<unknown> => ({
  world,
  model,
  state: model.states.get(domain.name),
});

/** What an answer teaches the model, applied once every operation of the step has answered. */
type Learner = { rank: number; index: number; learn: () => string | undefined };

/** What a retry must name again: the domain's result id, else the transfer the answer names. */
const resultId = (domain: AnyDomain, answer: Answer): string | undefined =>
  domain.resultId?.(answer) ?? (answer.body as { transfer?: { id: string } } | undefined)?.transfer?.id;

type Sent = Answer & {
  /** The process this call went to was dropped before it answered: the client never saw the answer. */
  dropped?: boolean;
};

/** One call as a client makes it, on the process that is current when it is sent. */
async function sendOnce(
  world: World,
  c: Ctx<unknown>,
  domain: AnyDomain,
  op: Op,
  plan: FaultPlan,
): Promise<Sent> {
  const process = world.plugin;
  let answer: Answer;
  try {
    answer = await domain.send(c, op, plan);
  } catch (error) {
    // Outside the route's work (signing in) on a dropped process: the injected fault, or whatever the
    // closing database answered a statement in flight ("cannot commit - no transaction is active").
    if (!(error instanceof InjectedFault) && !process.dropped) throw error;
    answer = { status: 0, crashed: true };
  }
  if (!process.dropped) return answer;
  // Whatever the service came to (an error of the closing database included), it never left the process.
  return { ...answer, dropped: true, ...(answer.status === 500 ? { status: 0, crashed: true } : {}) };
}

const succeeded = (answer: Answer) => !answer.crashed && answer.status >= 200 && answer.status < 300;

/**
 * One operation with its fault and the client's retries; returns a broken rule, if any. What the answer
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
  /** A planned drop of the process is carried out (else the crash is an ordinary failed statement). */
  reopens = true,
): Promise<string | undefined> {
  const domain = domainOf(op);
  const c = ctxOf(world, model, domain);
  const ownerKey = op.key ? `${domain.owner(world, op)}|${op.key}` : undefined;
  const plan: FaultPlan = {
    label: `op ${index}`,
    failBefore: op.fault && 'failBefore' in op.fault ? op.fault.failBefore : 0,
    reopen: reopens && op.fault !== undefined && 'reopen' in op.fault && op.fault.reopen === true,
    seen: 0,
    fired: false,
  };
  domain.prepare?.(c, op);
  const first = await sendOnce(world, c, domain, op, plan);
  // Answered: what the call left running in the background (a push) is no longer the call's to fail.
  plan.failBefore = 0;
  if (plan.fired) result.faults.injected += 1;
  if (first.dropped) result.faults.inFlightAtDrop += 1;
  // The work committed, but the answer never reached the client.
  const lost = op.fault !== undefined && 'lostAnswer' in op.fault && op.key !== undefined;
  if (lost) result.faults.lostAnswers += 1;
  let answer: Sent = first;
  let droppedUnder = first.dropped === true;
  const keyed = op.key !== undefined;
  /** A success the client never saw: its retries under the key must be answered with the same result. */
  let unseen = keyed && (lost || first.dropped) && succeeded(first) ? first : undefined;
  // A client with a key sends the same request again until it gets an answer (a few times at most);
  // one without a key cannot know whether it is safe to, and does not, unless the request is safe to
  // repeat by its content (a provider's notification, a status poll: the domain's `resends`).
  const resends = keyed || domain.resends?.(op) === true;
  for (let attempt = 0; resends && attempt < 5; attempt++) {
    if (!(answer.crashed || answer.dropped || (lost && attempt === 0))) break;
    await world.reopening;
    answer = await sendOnce(world, c, domain, op, retryPlan());
    result.faults.retries += 1;
    if (answer.dropped) {
      droppedUnder = true;
      result.faults.inFlightAtDrop += 1;
      if (keyed) unseen ??= succeeded(answer) ? answer : undefined;
    }
  }
  if (droppedUnder && answer.replayed && !answer.dropped) result.faults.replayedAfterDrop += 1;
  if (unseen && !answer.crashed && !answer.dropped) {
    if (!answer.replayed || answer.status !== unseen.status)
      return `a retry after a lost ${unseen.status} answered ${answer.status}${answer.replayed ? ' (replayed)' : ''}`;
    const a = resultId(domain, unseen);
    const b = resultId(domain, answer);
    if (a !== b) return `a retry after a lost answer named another result (${a}, ${b})`;
  }
  const label = `${op.kind} ${answer.crashed ? 'crashed' : answer.status}${answer.replayed ? ' replayed' : ''}${answer.dropped ? ' unseen' : ''}`;
  result.answers[label] = (result.answers[label] ?? 0) + 1;
  result.trace.push(`${index} ${label}`);
  if (answer.status === 500) return `${op.kind} answered 500: ${String(answer.body)}`;
  // An answer the client never saw still tells the simulator what the service did (a call without a key
  // that committed before its process was dropped moved money all the same).
  const learned = answer;
  learners.push({
    rank: domain.learnRank?.(op) ?? 1,
    index,
    learn: () => domain.learn(c, op, learned, ownerKey),
  });
  return undefined;
}

/**
 * Every this many steps (and at the last), everything is checked, not only what the step changed; once
 * the ledger is longer than `FULL_CHECK_EVERY * FULL_CHECK_ROWS_PER_STEP` rows, every (rows / that) steps
 * instead: a full check reads the whole ledger, so at a fixed interval a long run (a million operations)
 * would spend its time re-reading its own past. A 10,000-operation run stays at the fixed interval; the
 * interval follows the seed's own ledger, so a seed still checks at the same steps.
 */
export const FULL_CHECK_EVERY = 250;
const FULL_CHECK_ROWS_PER_STEP = 200;
const fullCheckInterval = (rows: number) =>
  Math.max(FULL_CHECK_EVERY, Math.floor(rows / FULL_CHECK_ROWS_PER_STEP));

type Entry = { balance: number; held: number };
type LedgerRow = {
  mark: number | string;
  id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount_cents: number | string;
  phase: string;
};

/**
 * What the checker has read of the books so far: each account's balance and held amount recomputed from
 * the ledger rows read (rows are immutable, so the rows written since the last step are all it needs
 * to read), the cached balances last read and their sum, and where the rows read end: SQLite's rowid;
 * on PostgreSQL, the id of the transaction that wrote the row (no operation is in flight between two
 * steps, so every row written since was written by a later transaction).
 */
class Books {
  entries = new Map<string, Entry>();
  cached = new Map<string, number>();
  sum = 0;
  rows = 0;
  mark = 0;

  entry(id: string): Entry {
    let found = this.entries.get(id);
    if (!found) {
      found = { balance: 0, held: 0 };
      this.entries.set(id, found);
    }
    return found;
  }

  /** One row's effect, as the production reconciliation counts it. */
  apply(row: LedgerRow) {
    const cents = Number(row.amount_cents);
    const debit = this.entry(row.debit_account_id);
    const credit = this.entry(row.credit_account_id);
    if (row.phase === 'single' || row.phase === 'post') {
      credit.balance += cents;
      debit.balance -= cents;
    }
    if (row.phase === 'pending') debit.held += cents;
    if (row.phase === 'post' || row.phase === 'void') debit.held -= cents;
  }

  setCached(id: string, balance: number) {
    this.sum += balance - (this.cached.get(id) ?? 0);
    this.cached.set(id, balance);
  }
}

/** The ledger rows written since the books were last read. */
function rowsSince(world: World, mark: number): Promise<LedgerRow[]> {
  const query =
    world.dialect === 'sqlite'
      ? sql<LedgerRow>`select rowid as mark, id, debit_account_id, credit_account_id, amount_cents, phase
          from ledger_transfers where rowid > ${mark}`
      : // Both ends of the range: without statistics for the column (nothing analyzes it during a
        // run) PostgreSQL takes `sim_mark > x` to match a third of the ledger and scans all of it,
        // at every step; a range with two ends it takes as narrow, and reads it through the index.
        sql<LedgerRow>`select sim_mark as mark, id, debit_account_id, credit_account_id, amount_cents,
          phase from ledger_transfers where sim_mark > ${mark} and sim_mark <= ${Number.MAX_SAFE_INTEGER}`;
  return query.execute(world.db).then((r) => r.rows);
}

type AccountRow = { id: string; user_id: string | null; balance_cents: number; held_cents: number };

/** An account's cached amounts against the rule that no member is below zero, and against the model. */
function accountBroken(a: AccountRow, model: Model): string | undefined {
  const balance = Number(a.balance_cents);
  const held = Number(a.held_cents);
  if (a.user_id !== null && (balance - held < 0 || held < 0))
    return `${a.id} is below zero: balance ${balance}, held ${held}`;
  const want = [model.balance.get(a.id) ?? 0, model.held.get(a.id) ?? 0];
  if (balance !== want[0] || held !== want[1])
    return `${a.id} holds ${balance} (held ${held}), but the answers given add up to ${want[0]} (held ${want[1]})`;
  return undefined;
}

/**
 * The invariants after a step, for what the step could have changed: the rows written since the last
 * step (as many as the answers account for, every transfer answered in the step among them), and every
 * account they name or the model expects to have changed: its cached balance and held amount equal
 * those recomputed from its entries, the cached balances still sum to zero, no member is below zero,
 * and it holds what the answers say. Then each domain's own checks of what the step changed.
 */
async function checkStep(world: World, model: Model, books: Books): Promise<string | undefined> {
  const rows = await rowsSince(world, books.mark);
  const touched = new Set(model.touched);
  const ids = new Set<string>();
  for (const row of rows) {
    books.mark = Math.max(books.mark, Number(row.mark));
    books.apply(row);
    ids.add(row.id);
    touched.add(row.debit_account_id);
    touched.add(row.credit_account_id);
  }
  books.rows += rows.length;
  if (touched.size > 0) {
    const accounts = (await world.db
      .selectFrom('ledger_accounts')
      .select(['id', 'user_id', 'balance_cents', 'held_cents'])
      .where('id', 'in', [...touched])
      .execute()) as AccountRow[];
    const mismatches = [];
    for (const a of accounts) {
      const entry = books.entries.get(a.id) ?? { balance: 0, held: 0 };
      books.setCached(a.id, Number(a.balance_cents));
      if (Number(a.balance_cents) !== entry.balance || Number(a.held_cents) !== entry.held)
        mismatches.push({ account_id: a.id, cached: [a.balance_cents, a.held_cents], computed: entry });
    }
    if (books.sum !== 0 || mismatches.length > 0)
      return `the books do not balance: sum ${books.sum}, ${JSON.stringify(mismatches.slice(0, 3))}`;
    for (const a of accounts) {
      const broken = accountBroken(a, model);
      if (broken) return broken;
    }
    const found = new Set(accounts.map((a) => a.id));
    const missing = [...touched].find(
      (id) => !found.has(id) && (model.balance.get(id) || model.held.get(id)),
    );
    if (missing)
      return `${missing} does not exist, but the answers given add up to ${model.balance.get(missing)}`;
  }
  if (books.rows !== model.rows)
    return `the ledger has ${books.rows} rows, but the answers given account for ${model.rows}`;
  const elsewhere = model.fresh.filter((id) => !ids.has(id));
  if (elsewhere.length > 0) {
    const found = await world.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('id', 'in', elsewhere)
      .execute();
    if (found.length !== new Set(elsewhere).size) return `an answered transfer is not in the ledger`;
  }
  model.fresh = [];
  model.touched.clear();
  for (const domain of DOMAINS) {
    const broken = await domain.check?.(ctxOf(world, model, domain), false);
    if (broken) return broken;
  }
  return undefined;
}

/**
 * The invariants over the whole database: the production reconcile() (every balance and held amount
 * recomputed from all entries, the sum zero), every account against the model and the rule of zero,
 * the number of rows, and each domain's checks of everything. It also resets what the step checks keep.
 */
async function checkAll(world: World, model: Model, books: Books): Promise<string | undefined> {
  const broken = await checkStep(world, model, books);
  if (broken) return broken;
  const reconciled = await reconcile(world.db);
  if (!reconciled.balanced)
    return `the books do not balance: sum ${reconciled.ledger_sum}, ${JSON.stringify(reconciled.mismatches.slice(0, 3))}`;
  const accounts = (await world.db
    .selectFrom('ledger_accounts')
    .select(['id', 'user_id', 'balance_cents', 'held_cents'])
    .execute()) as AccountRow[];
  books.cached.clear();
  books.sum = 0;
  for (const a of accounts) {
    const wrong = accountBroken(a, model);
    if (wrong) return wrong;
    books.setCached(a.id, Number(a.balance_cents));
  }
  const { n } = await world.db
    .selectFrom('ledger_transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) !== model.rows)
    return `the ledger has ${n} rows, but the answers given account for ${model.rows}`;
  for (const domain of DOMAINS) {
    const wrong = await domain.check?.(ctxOf(world, model, domain), true);
    if (wrong) return wrong;
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
  const unseedRandom = seedRandom(options.seed);
  const result: SimResult = {
    seed: options.seed,
    ops: ops.length,
    steps: 0,
    checks: 0,
    fullChecks: 0,
    statements: 0,
    answers: {},
    faults: { injected: 0, lostAnswers: 0, retries: 0, reopened: 0, inFlightAtDrop: 0, replayedAfterDrop: 0 },
    trace: [],
    summary: {},
    digest: '',
  };
  let world: World | undefined;
  try {
    const model = new Model();
    for (const domain of DOMAINS) model.states.set(domain.name, domain.state());
    world = await openWorld(
      options,
      DOMAINS.map(
        (domain) => (w: World, admin) => domain.setup?.(ctxOf(w, model, domain), admin) ?? Promise.resolve(),
      ),
    );
    const w = world;
    const books = new Books();
    let nextFull = FULL_CHECK_EVERY;
    let nextProgress = performance.now() + (options.progressEveryMs ?? 10_000);
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
      // What a client does before it sends (an upload) leaves the event loop for the thread pool and
      // finishes in real time: done one at a time before the step, so that the step's interleaving
      // stays the seed's.
      for (const op of step) await domainOf(op).beforeStep?.(ctxOf(w, model, domainOf(op)), op);
      const broken = await Promise.all(
        step.map(async (op, k) => {
          for (let d = 0; d < op.delay; d++) await new Promise((resolve) => setImmediate(resolve));
          return runOp(w, model, op, start + k, result, learners, options.reopen !== false);
        }),
      );
      // By each domain's rank (an invoice before the callbacks that may have found it), then in the
      // order sent (the model's rules do not depend on the order within a step otherwise).
      // A process dropped in the step is open again before anything is checked.
      await w.reopening;
      learners.sort((a, b) => a.rank - b.rank || a.index - b.index);
      const found =
        broken.find((b) => b !== undefined) ?? learners.map((l) => l.learn()).find((b) => b !== undefined);
      const full = result.steps >= nextFull || i >= ops.length;
      if (full) nextFull = result.steps + fullCheckInterval(books.rows);
      const message = found ?? (await (full ? checkAll : checkStep)(w, model, books));
      result.checks += found ? 0 : 1;
      result.fullChecks += found || !full ? 0 : 1;
      if (message) {
        result.failure = { step: result.steps, opIndex: i - 1, message };
        break;
      }
      if (options.progress && performance.now() >= nextProgress) {
        nextProgress = performance.now() + (options.progressEveryMs ?? 10_000);
        options.progress({
          ops: i,
          steps: result.steps,
          checks: result.checks,
          statements: w.plugin.statements,
        });
      }
    }
    result.statements = w.plugin.statements;
    result.faults.reopened = w.reopened;
    for (const domain of DOMAINS)
      Object.assign(result.summary, domain.summary?.(model.states.get(domain.name)) ?? {});
    result.digest = await digestOf(w, result.trace);
    return result;
  } finally {
    clock.uninstall();
    await world?.close();
    unseedRandom();
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
