import { type PaymentStatus, paymentBadgeColour } from '../../../../shared/payments.ts';

const STATUS_LABEL: Record<PaymentStatus, string> = {
  waiting: 'Waiting',
  confirming: 'Confirming',
  confirmed: 'Confirmed',
  sending: 'Sending',
  partially_paid: 'Partially paid',
  finished: 'Finished',
  failed: 'Failed',
  refunded: 'Refunded',
  expired: 'Expired',
};

export const paymentStatusLabel = (status: string) => STATUS_LABEL[status as PaymentStatus] ?? status;

/** Spec 4: finished green, failed and expired red, refunded yellow, others blue. */
export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${paymentBadgeColour(status)}`} data-status={status}>
      {paymentStatusLabel(status)}
    </span>
  );
}
