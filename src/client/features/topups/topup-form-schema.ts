import * as v from 'valibot';
import { formatUsd, parseCents } from '../../../shared/money.ts';
import type { Plan } from '../../../shared/plans.ts';
import { TOPUP_MESSAGES, topupSelfSchema } from '../../../shared/topups.ts';

/** Said on the amount when the Active Wallet holds less: the form links to Deposit beside it. */
export const shortWalletText = (availableCents: number) =>
  `Not enough in your Active Wallet: ${formatUsd(availableCents)} available`;

/**
 * The shared top-up schema plus what the form can see: the chosen plan's range (the server's own
 * message) and the Active Wallet balance, so both show on the amount before any request.
 */
export function topupFormSchema(plan: Plan | undefined, availableCents: number | undefined) {
  return v.pipe(
    topupSelfSchema,
    v.forward(
      v.check(
        (input) => {
          if (!plan) return true;
          const min = parseCents(plan.min_amount) ?? 0;
          const max = parseCents(plan.max_amount) ?? 0;
          return input.amount >= min && input.amount <= max;
        },
        plan ? TOPUP_MESSAGES.amountRange(plan.min_amount, plan.max_amount) : '',
      ),
      ['amount'],
    ),
    v.forward(
      v.check(
        (input) => availableCents === undefined || input.amount <= availableCents,
        shortWalletText(availableCents ?? 0),
      ),
      ['amount'],
    ),
  );
}
