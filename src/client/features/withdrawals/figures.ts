import { parseCents } from '../../../shared/money.ts';
import type { AccountFacts, AmountFacts } from '../../../shared/withdrawal-rules.ts';
import {
  type WithdrawalKind,
  type WithdrawalOptions,
  withdrawalFeeCents,
} from '../../../shared/withdrawals.ts';

// The withdrawal screens' arithmetic, kept out of the components so it is tested on its own. Integer
// cents throughout (RULES.md "Money"): the typed text is parsed once, never turned into a float.

export type Figures = { amountCents: number; feeCents: number; netCents: number };

/**
 * Amount, fee and what reaches the member, as they type; null while the text is not an amount. The fee
 * percent is the server's (withdrawal options or settings), "5.00" for 5%.
 */
export function figuresOf(kind: WithdrawalKind, amountText: string, feePercent: string): Figures | null {
  const amountCents = parseCents(amountText);
  if (amountCents === null || amountCents <= 0) return null;
  const feeCents = withdrawalFeeCents(kind, amountCents, parseCents(feePercent) ?? 0);
  return { amountCents, feeCents, netCents: amountCents - feeCents };
}

export type PayoutAddress = WithdrawalOptions['addresses'][number];

/** A saved address is usable once its 24 hours have passed (an admin-set one at once: usable_from is past). */
export const isUsable = (address: PayoutAddress, nowMs: number) => Date.parse(address.usable_from) <= nowMs;

/** The network the form offers first: a usable BEP20 address, else any usable one. */
export function usableNetwork(
  options: WithdrawalOptions,
  nowMs: number,
): PayoutAddress['network'] | undefined {
  const usable = options.addresses.filter((a) => isUsable(a, nowMs));
  return (usable.find((a) => a.network === 'bep20') ?? usable[0])?.network;
}

/** The withdrawal options as the shared account rules read them (src/shared/withdrawal-rules.ts). */
export const accountFactsOf = (options: WithdrawalOptions): AccountFacts => ({
  emailVerified: options.email_verified,
  openRequest: options.open_request !== null,
  addresses: options.addresses,
});

/** The options and the chosen investment as the shared amount rules read them. */
export function amountFactsOf(options: WithdrawalOptions, topupId: string | undefined): AmountFacts {
  const investment = options.investments.find((i) => i.topup_id === topupId);
  return {
    minimumCents: parseCents(options.minimum) ?? 0,
    feeBp: parseCents(options.fee_percent) ?? 0,
    workingAvailableCents: parseCents(options.working_available) ?? 0,
    ...(investment
      ? {
          investment: {
            amountCents: parseCents(investment.amount) ?? 0,
            roiLeftCents: parseCents(investment.roi_withdrawable) ?? 0,
            promotional: investment.promotional,
            matured: investment.matured,
            principalTaken:
              !investment.principal_withdrawable && investment.matured && !investment.promotional,
          },
        }
      : {}),
  };
}

const DAY_MS = 24 * 60 * 60_000;

/** How long the member has had their account, for the admin weighing a payout: "Under a day", "1 day", "40 days". */
export function accountAge(memberSinceIso: string, nowMs: number): string {
  const since = Date.parse(memberSinceIso);
  if (Number.isNaN(since)) return '—';
  const days = Math.floor(Math.max(0, nowMs - since) / DAY_MS);
  if (days === 0) return 'Under a day';
  return days === 1 ? '1 day' : `${days.toLocaleString('en-US')} days`;
}
