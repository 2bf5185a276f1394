import type { AmountFacts, SavedAddress } from '../../../shared/withdrawal-rules.ts';
import type { UserTable } from '../../db/schema.ts';
import type { MemberInvestment } from './withdrawals.repository.ts';

// What an investment allows to withdraw, for the checks and for the screen's options alike.

/** Matured: it has earned its last ROI day (or the run closed it at its cap). */
export const matured = (inv: MemberInvestment, now: Date) =>
  inv.status === 'completed' || inv.roi_end_date < now.toISOString().slice(0, 10);

/** The ROI it has paid that no pending or approved ROI request has taken yet. */
export const roiLeftCents = (inv: MemberInvestment) =>
  Number(inv.roi_paid_cents) - Number(inv.roi_withdrawn_cents ?? 0);

/** Paid by a promotional activation code: the platform gave the principal, so it is never paid out. */
export const promotional = (inv: MemberInvestment) => Number(inv.promotional) === 1;

/** The member's saved payout addresses and when each may be paid to (set before changes were recorded: at once). */
export function savedAddresses(
  user: Pick<UserTable, 'bep20' | 'trc20' | 'created_at'>,
  changes: readonly { network: string; usable_from: string }[],
): SavedAddress[] {
  return (['bep20', 'trc20'] as const).flatMap((network) => {
    const address = user[network];
    if (!address) return [];
    const change = changes.find((c) => c.network === network);
    return [{ network, address, usable_from: change?.usable_from ?? user.created_at }];
  });
}

/** An investment as the shared amount rules read it (src/shared/withdrawal-rules.ts). */
export const investmentFacts = (
  inv: MemberInvestment,
  now: Date,
): NonNullable<AmountFacts['investment']> => ({
  amountCents: Number(inv.amount_cents),
  roiLeftCents: roiLeftCents(inv),
  promotional: promotional(inv),
  matured: matured(inv, now),
  principalTaken: Number(inv.principal_taken ?? 0) > 0,
});
