// The kinds of ledger transfer the server writes (RULES.md "Wallets and the ledger"), and the one
// table of their names in words. The server's Move takes a LedgerKind, so a new kind cannot be written
// without joining this list; the Record below then fails to compile until it has a label.

export const LEDGER_KINDS = [
  'deposit',
  'transfer',
  'plan_purchase',
  'roi',
  'level_income',
  'activation_income',
  'reward',
  'salary',
  'cto',
  'withdrawal',
  'withdrawal_fee',
  'compound',
  'adjustment',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  deposit: 'Deposit',
  transfer: 'Transfer',
  plan_purchase: 'Investment',
  roi: 'ROI',
  level_income: 'Level income',
  activation_income: 'Activation income',
  reward: 'Reward',
  salary: 'Salary',
  cto: 'CTO',
  withdrawal: 'Withdrawal',
  withdrawal_fee: 'Withdrawal fee',
  compound: 'Compound',
  adjustment: 'Adjustment',
};

const isLedgerKind = (kind: string): kind is LedgerKind => Object.hasOwn(LEDGER_KIND_LABELS, kind);

/** The one transaction type (GET /tr) that is not its ledger kind's name: a top-up is a plan purchase. */
const LEDGER_KIND_OF_TYPE: Record<string, LedgerKind> = { topup: 'plan_purchase' };

/**
 * A ledger kind or transaction type in words ("Withdrawal fee", not `withdrawal_fee`). A kind this release
 * does not know (a row written by a newer server) still reads as words, never as a code.
 */
export function kindLabel(kind: string): string {
  const ledgerKind = LEDGER_KIND_OF_TYPE[kind] ?? kind;
  if (isLedgerKind(ledgerKind)) return LEDGER_KIND_LABELS[ledgerKind];
  const words = kind.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
