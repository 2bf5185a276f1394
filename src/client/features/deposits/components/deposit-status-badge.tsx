import { DEPOSIT_BADGE, DEPOSIT_STATUS_LABELS, type DepositStatus } from '../../../../shared/deposits.ts';

/** Spec 4 colours: approved green, pending yellow, rejected red, cancelled grey. */
export function DepositStatusBadge({ status }: { status: DepositStatus }) {
  return (
    <span className={`badge ${DEPOSIT_BADGE[status]}`} data-status={status}>
      {DEPOSIT_STATUS_LABELS[status]}
    </span>
  );
}
