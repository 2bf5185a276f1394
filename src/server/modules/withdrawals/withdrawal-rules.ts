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
