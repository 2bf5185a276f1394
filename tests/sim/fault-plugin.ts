import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

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

export class FaultPlugin implements KyselyPlugin {
  readonly #current = new AsyncLocalStorage<FaultPlan>();
  /** Statements seen by all operations: the run's measure of work. */
  statements = 0;

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
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
