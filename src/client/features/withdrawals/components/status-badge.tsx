import { WITHDRAWAL_BADGE, WITHDRAWAL_TEXT, type WithdrawalStatus } from '../../../../shared/withdrawals.ts';

/** Spec 4's colours: approved green, pending yellow, rejected red, cancelled grey. */
export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  return (
    <span className={`badge ${WITHDRAWAL_BADGE[status]}`} data-testid="withdrawal-status">
      {WITHDRAWAL_TEXT.status[status]}
    </span>
  );
}
