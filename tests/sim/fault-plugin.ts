import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { AndNode, RawNode, UpdateQueryNode, WhereNode } from 'kysely';

// The fault injector: a Kysely plugin sees every statement a service sends (query builder and sql
// templates alike) just before it runs, in the async context of the operation that sent it. An
// operation the simulator marks with a fault fails before its k-th statement: the error rises through
// the service like a lost connection or a crashed process would, and its transaction rolls back.

export type FaultPlan = { label: string; failBefore: number; seen: number; fired: boolean };

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
  /** A stored answer is never found: a repeat is not recognised as one. */
  'replay-blind': (fragment: string) =>
    fragment.includes('from idempotency_keys where owner_id = ')
      ? fragment.replace('where owner_id = ', 'where 1 = 0 and owner_id = ')
      : fragment,
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
} as const;
export type Defect = keyof typeof DEFECTS;

export class FaultPlugin implements KyselyPlugin {
  readonly #current = new AsyncLocalStorage<FaultPlan>();
  /** Statements seen by all operations: the run's measure of work. */
  statements = 0;

  constructor(readonly defect?: Defect) {}

  /** Runs `work` with its statements counted, failing before statement `failBefore` (1-based; 0: never). */
  run<T>(plan: FaultPlan, work: () => Promise<T>): Promise<T> {
    return this.#current.run(plan, work);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements += 1;
    const plan = this.#current.getStore();
    if (plan && !plan.fired) {
      plan.seen += 1;
      if (plan.seen === plan.failBefore) {
        plan.fired = true;
        throw new InjectedFault(plan);
      }
    }
    return this.defect ? withDefect(args.node, this.defect) : args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

function withDefect(node: RootOperationNode, defect: Defect): RootOperationNode {
  if (defect === 'status-backwards') return withoutSecondCondition(node, 'crypto_payments');
  if (defect === 'code-twice') return withoutSecondCondition(node, 'activation_codes');
  if (!RawNode.is(node)) return node;
  if (defect === 'no-key-record' && node.sqlFragments[0]?.startsWith('insert into idempotency_keys')) {
    // The same parameters, selected instead of inserted: the statement succeeds and stores nothing.
    const fragments = node.sqlFragments.map((_, i) =>
      i === 0 ? 'select ' : i === node.sqlFragments.length - 1 ? '' : ', ',
    );
    return RawNode.create(fragments, node.parameters);
  }
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

/**
 * An update of `table` keeps its first condition (the row's id) and loses the guard after it:
 * advanceStatus's rank (crypto_payments), claimCode's "not used yet" (activation_codes).
 */
function withoutSecondCondition(node: RootOperationNode, table: string): RootOperationNode {
  if (!UpdateQueryNode.is(node) || !JSON.stringify(node.table).includes(`"${table}"`)) return node;
  const where = node.where?.where;
  if (!where || !AndNode.is(where)) return node;
  return { ...node, where: WhereNode.create(where.left) };
}
