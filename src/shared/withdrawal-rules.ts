import { formatCents } from './money.ts';
import type { PayoutNetwork } from './payout-address.ts';
import { WITHDRAWAL_MESSAGES as M, type WithdrawalKind, withdrawalFeeCents } from './withdrawals.ts';

// The rules of a withdrawal request, one place for the server and the form (docs/rules.md
// "Withdrawals"). The server reads the facts inside the transaction that holds the money and refuses
// with what these answer; the form reads them from the withdrawal options and refuses the same way
// before it asks for an e-mailed code. The ledger's hold stays the server's guard of the balance.

/** A saved payout address, and when it may be paid to (24 hours after the member saved it). */
export type SavedAddress = { network: PayoutNetwork; address: string; usable_from: string };

/** What the account allows now, whatever the request. */
export type AccountFacts = {
  emailVerified: boolean;
  openRequest: boolean;
  addresses: readonly SavedAddress[];
};

export type Refusal = { status: 400 | 422; field?: 'amount' | 'topup_id'; message: string };

/** The address a payout goes to: the network asked for, else BEP20 when saved, else TRC20. */
export function payoutChoice(
  addresses: readonly SavedAddress[],
  network?: PayoutNetwork,
): { network: PayoutNetwork; saved?: SavedAddress } | undefined {
  const saved = (n: PayoutNetwork) => addresses.find((a) => a.network === n && a.address);
  const chosen = network ?? (saved('bep20') ? 'bep20' : saved('trc20') ? 'trc20' : undefined);
  return chosen ? { network: chosen, saved: saved(chosen) } : undefined;
}

/** "2026-12-08 09:30 UTC": when a waiting address may be paid to. */
const usableText = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/**
 * Whether the member may ask for this kind at all: a verified e-mail, no request open, and (paid out)
 * a saved address past its wait. Checked before anything about the amount.
 */
export function accountRefusal(
  kind: WithdrawalKind,
  facts: AccountFacts,
  nowIso: string,
  network?: PayoutNetwork,
): Refusal | undefined {
  if (!facts.emailVerified) return { status: 422, message: M.emailUnverified };
  if (facts.openRequest) return { status: 422, message: M.openRequest };
  if (kind === 'compound') return undefined;
  const choice = payoutChoice(facts.addresses, network);
  if (!choice?.saved) return { status: 422, message: network ? M.networkNotSet : M.noAddress };
  if (choice.saved.usable_from > nowIso)
    return { status: 422, message: M.addressWaiting(usableText(choice.saved.usable_from)) };
  return undefined;
}

/** What the amount is checked against. */
export type AmountFacts = {
  minimumCents: number;
  feeBp: number;
  /** roi and principal: the investment the request names. */
  investment?: {
    amountCents: number;
    roiLeftCents: number;
    promotional: boolean;
    matured: boolean;
    principalTaken: boolean;
  };
  /**
   * The Income Working balance, when known (the form). The server leaves it out: its hold in the
   * ledger refuses a short balance atomically.
   */
  workingAvailableCents?: number;
};

/** The amount a request holds: a principal's whole investment, else the amount asked for. */
export const heldAmountCents = (kind: WithdrawalKind, amountCents: number | undefined, facts: AmountFacts) =>
  kind === 'principal' ? (facts.investment?.amountCents ?? 0) : (amountCents ?? 0);

/**
 * The amount's rules by kind: a principal only once, in cash, after its last ROI day; income and ROI
 * at least the minimum, ROI no more than the investment's ROI left; nothing that the fee takes whole;
 * no more than the Income Working balance. A compound's plan range is the plan's own rule (topups).
 */
export function amountRefusal(
  kind: WithdrawalKind,
  amountCents: number | undefined,
  facts: AmountFacts,
): Refusal | undefined {
  const investment = facts.investment;
  if (kind === 'principal' && investment) {
    if (investment.promotional) return { status: 422, message: M.principalPromotional };
    if (!investment.matured) return { status: 422, message: M.notMatured };
    if (investment.principalTaken) return { status: 422, message: M.principalTaken };
  }
  const amount = heldAmountCents(kind, amountCents, facts);
  if ((kind === 'income' || kind === 'roi') && amount < facts.minimumCents)
    return { status: 400, field: 'amount', message: M.minimum(formatCents(facts.minimumCents)) };
  if (kind === 'roi' && investment && amount > investment.roiLeftCents)
    return { status: 422, message: M.roiTooMuch(formatCents(Math.max(investment.roiLeftCents, 0))) };
  const feeCents = withdrawalFeeCents(kind, amount, facts.feeBp);
  if (amount - feeCents <= 0)
    return {
      status: 400,
      field: kind === 'principal' ? 'topup_id' : 'amount',
      message: M.netsNothing(formatCents(feeCents)),
    };
  if (
    kind !== 'principal' &&
    facts.workingAvailableCents !== undefined &&
    amount > facts.workingAvailableCents
  )
    return { status: 422, field: 'amount', message: M.insufficient };
  return undefined;
}
