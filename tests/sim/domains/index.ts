import type { Domain, OpBase } from '../world.ts';
import { type DepositOp, deposits } from './deposits.ts';
import { type IncomeOp, income } from './income.ts';
import { type LedgerOp, ledger } from './ledger.ts';
import { type PaymentOp, payments } from './payments.ts';
import { type RewardsOp, rewards } from './rewards.ts';
import { type WithdrawalOp, withdrawals } from './withdrawals.ts';

// The money paths the simulator drives, each a domain (world.ts `Domain`). A new path is a file here,
// its operations in `Op` and the domain in DOMAINS; the runner (simulator.ts) needs no change.

export type Op = OpBase & (LedgerOp | PaymentOp | WithdrawalOp | DepositOp | IncomeOp | RewardsOp);

// biome-ignore lint/suspicious/noExplicitAny: each domain narrows to its own operations (domainOf)
export type AnyDomain = Domain<any, any>;

export const DOMAINS: AnyDomain[] = [ledger, payments, withdrawals, deposits, income, rewards];

const byKind = new Map<string, AnyDomain>();
for (const domain of DOMAINS)
  for (const kind of domain.kinds) {
    if (byKind.has(kind)) throw new Error(`two domains send ${kind}`);
    byKind.set(kind, domain);
  }

/** The domain that sends operations of this kind. */
export function domainOf(op: { kind: string }): AnyDomain {
  const found = byKind.get(op.kind);
  if (!found) throw new RangeError(`no domain sends ${op.kind}`);
  return found;
}
