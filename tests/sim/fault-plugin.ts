import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import {
  AndNode,
  createQueryId,
  InsertQueryNode,
  OnConflictNode,
  OnNode,
  PrimitiveValueListNode,
  RawNode,
  SelectQueryNode,
  UpdateQueryNode,
  ValueNode,
  ValuesNode,
  WhereNode,
} from 'kysely';
import type { Db } from '../../src/server/db/database.ts';
import { findKey } from '../../src/server/modules/idempotency/idempotency.repository.ts';
import type { Outcome } from '../../src/server/modules/idempotency/idempotency.service.ts';

// The fault injector: a Kysely plugin sees every statement a service sends (query builder and sql
// templates alike) just before it runs, in the async context of the operation that sent it. An
// operation the simulator marks with a fault fails before its k-th statement: the error rises through
// the service like a lost connection or a crashed process would, and its transaction rolls back.
//
// A plan marked `reopen` drops the whole process there instead (world.ts reopens the database): from
// that statement on, every statement of this plugin's process fails, whichever operation sends it. On
// SQLite, when statement k is one of the services' sql templates, it is replaced by a ROLLBACK first,
// so the group commit's open batch (work already handed over, not yet COMMITted and not yet answered)
// is lost as it would be when the process dies; otherwise that batch commits and only its answers are
// lost (a crash just after the COMMIT).

export type FaultPlan = {
  label: string;
  failBefore: number;
  seen: number;
  fired: boolean;
  /** Drop the process (and reopen the database) at statement `failBefore`, not only fail the operation. */
  reopen?: boolean;
  /** The crash's ROLLBACK was sent in place of statement k: the operation fails when it returns. */
  failOnResult?: boolean;
  /** key-outside-transaction: the key's record, held back until the money's transaction has committed. */
  deferredKey?: RawNode;
  /** key-outside-transaction: the held-back record is being sent now. */
  sendingKey?: boolean;
  /** hold-settled-twice: the decision's first read of its transfer (its guard) has gone blind. */
  guardBlinded?: boolean;
};

export class InjectedFault extends Error {
  constructor(readonly plan: FaultPlan) {
    super(`injected fault before statement ${plan.failBefore} of ${plan.label}`);
  }
}

/**
 * Deliberate defects, to show the simulator finds them (docs/simulator.md). Each rewrites one of the
 * ledger's SQL statements as it is sent, in this test plugin only: the product's code is untouched.
 */
export const DEFECTS = {
  /** The debit's guard (available balance covers the amount) is gone: money can be spent twice. */
  'unguarded-debit': (fragment: string) =>
    fragment.replace('or balance_cents - held_cents >= ', 'or 1 = 1 or balance_cents - held_cents >= '),
  /** The Idempotency-Key record is never written with the money: a retry runs the work again. */
  'no-key-record': (fragment: string) => fragment,
  /** A payment's status is stored as the provider says, even when it is older than the stored one. */
  'status-backwards': (fragment: string) => fragment,
  /** A withdrawal leaves `pending` by an update that no longer asks whether it is still pending. */
  'withdrawal-decided-twice': (fragment: string) => fragment,
  /**
   * An on-chain deposit is credited by an update that no longer asks whether it is still waiting, and
   * the (chain, hash) claim that each credit takes is granted without being stored: both guards
   * against a second credit are gone.
   */
  'deposit-credited-twice': (fragment: string) => fragment,
  /** A stored answer is never found: a repeat is not recognised as one. */
  'replay-blind': (fragment: string) =>
    fragment.includes('from idempotency_keys where owner_id = ')
      ? fragment.replace('where owner_id = ', 'where 1 = 0 and owner_id = ')
      : fragment,
  /** A decision does not see that its hold was settled already: a second decision settles it again. */
  'hold-settled-twice': (fragment: string) => fragment,
  /** The Idempotency-Key record is written after the money's transaction, in a statement of its own. */
  'key-outside-transaction': (fragment: string) => fragment,
  /** A credit adds its entry but not to the account's cached balance. */
  'balance-cache-skipped': (fragment: string) =>
    fragment.replace('set balance_cents = balance_cents + ', 'set balance_cents = balance_cents + 0 * '),
  /**
   * The daily run's unique key on ROI payments ignored: the not-yet-paid test is gone, each run's
   * payments get new ids and the insert skips the (investment, date) rows it cannot add, so a run
   * resumed after a crash pays again what its first chunks paid.
   */
  'income-twice': (fragment: string) =>
    fragment
      .replace(
        'from roi_payments r where r.topup_id = t.id',
        'from roi_payments r where 1 = 0 and r.topup_id = t.id',
      )
      .replace(
        "select 'roi:' || t.id || ':' || cast(",
        "select 'roi:' || t.id || ':' || (select count(*) from roi_payments) || ':' || cast(",
      ),
  /** Level income without the qualification's active directs: an upline with too few directs earns. */
  'level-unqualified': (fragment: string) =>
    fragment.replace('d.active_directs >= l.level', 'd.active_directs >= 0'),
  /** A code is claimed whether or not it was used: one code, two investments. */
  'code-twice': (fragment: string) => fragment,
  /**
   * A reward claim's unique (member, reward) key ignored: the claim's insert skips the row it cannot
   * add instead of failing, and the reward is paid again.
   */
  'reward-twice': (fragment: string) => fragment,
} as const;
export type Defect = keyof typeof DEFECTS;

/** What a statement of a dropped process fails with, outside any operation's plan. */
const DROPPED: FaultPlan = { label: 'a dropped process', failBefore: 0, seen: 0, fired: true };

export class FaultPlugin implements KyselyPlugin {
  readonly #current = new AsyncLocalStorage<FaultPlan>();
  /** Statements seen by all operations: the run's measure of work (carried over from the process before). */
  statements: number;
  /** The process was dropped: nothing it sends reaches the database any more. */
  dropped = false;

  constructor(
    readonly defect: Defect | undefined,
    readonly options: { sqlite: boolean; statements?: number; onDrop?: () => void },
  ) {
    this.statements = options.statements ?? 0;
  }

  /**
   * The process is gone for good (replaced by a reopened one, or the run is over). On Node 20 every
   * AsyncLocalStorage in use stays on a list that each new promise walks until it is disabled: one
   * per dropped process left enabled made a run slower the longer it went (a 25,000-operation run spent
   * a third of its time there, and a million operations slowed to 40 a second).
   */
  retire(): void {
    this.#current.disable();
  }

  /** Runs `work` with its statements counted, failing before statement `failBefore` (1-based; 0: never). */
  run<T>(plan: FaultPlan, work: () => Promise<T>): Promise<T> {
    return this.#current.run(plan, work);
  }

  /**
   * What the operation met, given what its work ended with (a throw, or `undefined` for an answer):
   * when the crash's ROLLBACK never returned (SQLite refused it, as no batch was open: nothing to lose),
   * the crash it stands for, whatever the refusal became on its way up (an error, or an answer made of
   * it), as its answer went with the process; otherwise what the work ended with.
   */
  crashOf(plan: FaultPlan, error: unknown): unknown {
    return plan.failOnResult ? new InjectedFault(plan) : error;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements += 1;
    const plan = this.#current.getStore();
    if (this.dropped) throw new InjectedFault(plan ?? DROPPED);
    if (plan && !plan.fired) {
      plan.seen += 1;
      if (plan.seen === plan.failBefore) {
        plan.fired = true;
        if (plan.reopen) {
          this.dropped = true;
          this.options.onDrop?.();
          if (this.options.sqlite && RawNode.is(args.node)) {
            plan.failOnResult = true;
            return RawNode.createWithSql('rollback');
          }
        }
        throw new InjectedFault(plan);
      }
    }
    if (!this.defect) return args.node;
    if (this.defect === 'key-outside-transaction' && plan && !plan.sendingKey && isKeyRecord(args.node)) {
      // Held back, and a harmless statement sent in its place (see afterWork).
      plan.deferredKey = args.node;
      return selectInstead(args.node);
    }
    return withDefect(args.node, this.defect, plan);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const plan = this.#current.getStore();
    if (plan?.failOnResult) {
      plan.failOnResult = false;
      throw new InjectedFault(plan);
    }
    return args.result;
  }

  /**
   * After an operation's work returned (its transaction committed): key-outside-transaction writes the
   * key's record now, in a statement of its own, as a service that wrote it after its transaction
   * would. A fault planned for that statement falls between the money and its key.
   */
  async afterWork(db: Db, plan: FaultPlan): Promise<Outcome | undefined> {
    const node = plan.deferredKey;
    if (!node) return undefined;
    plan.deferredKey = undefined;
    plan.sendingKey = true;
    const executor = db.getExecutor();
    const queryId = createQueryId();
    try {
      await executor.executeQuery(executor.compileQuery(executor.transformQuery(node, queryId), queryId));
      return undefined;
    } catch (error) {
      // Taken by an earlier request (whose money moved too): answered with its stored answer, as
      // runOnce answers when its key is taken.
      const [owner, key] = node.parameters.map((p) => (ValueNode.is(p) ? p.value : undefined));
      const stored = await findKey(db, String(owner), String(key));
      if (!stored) throw error;
      return { statusCode: stored.status_code, body: JSON.parse(stored.response_body), replayed: true };
    }
  }
}

const isKeyRecord = (node: RootOperationNode): node is RawNode =>
  RawNode.is(node) && node.sqlFragments[0]?.startsWith('insert into idempotency_keys') === true;

/** A credit's claim of its (chain, hash) (chain-credits.repository.ts claimChainCredit). */
const isChainCreditClaim = (node: RootOperationNode): node is InsertQueryNode =>
  InsertQueryNode.is(node) && JSON.stringify(node.into).includes('"chain_credits"');

let claimsMade = 0;
/** The claim stored under a hash of its own, so no claim ever meets another: every credit is granted. */
function claimNeverRefused(node: InsertQueryNode): InsertQueryNode {
  const at = node.columns?.findIndex((c) => c.column.name === 'tx_hash') ?? -1;
  const rows = node.values;
  if (at < 0 || !rows || !ValuesNode.is(rows)) return node;
  claimsMade += 1;
  const values = rows.values.map((row) =>
    PrimitiveValueListNode.is(row)
      ? PrimitiveValueListNode.create(
          row.values.map((value, i) => (i === at ? `${String(value)}:${claimsMade}` : value)),
        )
      : row,
  );
  return InsertQueryNode.cloneWith(node, { values: ValuesNode.create(values) });
}

/** The same parameters, selected instead of inserted: the statement succeeds and stores nothing. */
function selectInstead(node: RawNode): RawNode {
  const fragments = node.sqlFragments.map((_, i) =>
    i === 0 ? 'select ' : i === node.sqlFragments.length - 1 ? '' : ', ',
  );
  return RawNode.create(fragments, node.parameters);
}

function withDefect(node: RootOperationNode, defect: Defect, plan: FaultPlan | undefined): RootOperationNode {
  if (defect === 'status-backwards') return withoutGuard(node, 'crypto_payments');
  if (defect === 'withdrawal-decided-twice') return withoutGuard(node, 'withdrawals');
  if (defect === 'deposit-credited-twice')
    return isChainCreditClaim(node) ? claimNeverRefused(node) : withoutGuard(node, 'web3_deposits');
  if (defect === 'hold-settled-twice') return withoutSettlementGuards(node, plan);
  if (defect === 'code-twice') return withoutGuard(node, 'activation_codes');
  if (
    defect === 'reward-twice' &&
    InsertQueryNode.is(node) &&
    JSON.stringify(node.into).includes('"reward_claims"')
  )
    return { ...node, onConflict: OnConflictNode.cloneWith(OnConflictNode.create(), { doNothing: true }) };
  if (!RawNode.is(node)) return node;
  if (defect === 'no-key-record' && isKeyRecord(node)) return selectInstead(node);
  if (defect === 'income-twice' && node.sqlFragments[0]?.startsWith('insert into roi_payments')) {
    // The insert skips what the unique key refuses instead of failing the chunk.
    const last = node.sqlFragments.length - 1;
    const fragments = node.sqlFragments.map((f, i) =>
      i === last ? `${f} where true on conflict do nothing` : f,
    );
    return RawNode.create(fragments, node.parameters);
  }
  return RawNode.create(node.sqlFragments.map(DEFECTS[defect]), node.parameters);
}

const NEVER = () => RawNode.createWithSql('1 = 0');

/**
 * hold-settled-twice: a decision does not see an earlier settlement of its hold (its first read of the
 * transfer, joined to the settlement, and settlePending's look-up find none; the answer's read after
 * the work sees it), and a second settlement's row is silently skipped instead of failing on the
 * unique pending_id index: the hold is released and the money moved again.
 */
function withoutSettlementGuards(node: RootOperationNode, plan: FaultPlan | undefined): RootOperationNode {
  if (RawNode.is(node))
    // The ledger's one-row insert (insertTransfer), not the income run's insert ... select.
    return node.sqlFragments[0]?.startsWith('insert into ledger_transfers') &&
      node.sqlFragments.join('').includes('values (')
      ? RawNode.create(
          node.sqlFragments.map((f, i) =>
            i === node.sqlFragments.length - 1 ? `${f} on conflict do nothing` : f,
          ),
          node.parameters,
        )
      : node;
  if (!SelectQueryNode.is(node)) return node;
  const text = JSON.stringify(node);
  if (!text.includes('"ledger_transfers"') || !text.includes('"pending_id"')) return node;
  if (node.joins?.length) {
    if (!plan || plan.guardBlinded) return node;
    plan.guardBlinded = true;
    return {
      ...node,
      joins: node.joins.map((join) =>
        JSON.stringify(join).includes('"pending_id"') ? { ...join, on: OnNode.create(NEVER()) } : join,
      ),
    };
  }
  return { ...node, where: WhereNode.create(NEVER()) };
}

/**
 * An update of `table` keeps its first condition (the row's id) and loses the guard after it: the
 * rank in advanceStatus (crypto_payments), `status = 'pending'` in closeWithdrawal (withdrawals),
 * `status in (...)` in moveFrom (web3_deposits).
 */
function withoutGuard(node: RootOperationNode, table: string): RootOperationNode {
  if (!UpdateQueryNode.is(node) || !JSON.stringify(node.table).includes(`"${table}"`)) return node;
  const where = node.where?.where;
  if (!where || !AndNode.is(where)) return node;
  return { ...node, where: WhereNode.create(where.left) };
}
