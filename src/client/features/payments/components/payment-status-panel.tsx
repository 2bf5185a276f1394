import { isFinalPaymentStatus, PAYMENT_MESSAGES, paymentStatusMessage } from '../../../../shared/payments.ts';
import { statusErrorText } from '../api.ts';
import { PaymentStatusBadge } from './payment-status-badge.tsx';

/** The live status of spec 2: the badge and the spec's message for it, or why it could not be checked. */
export function PaymentStatusPanel({
  status,
  error,
  checking,
}: {
  status: string | undefined;
  error: unknown;
  checking: boolean;
}) {
  return (
    <section className="card" aria-labelledby="payment-status-title" data-testid="payment-status">
      <h2 id="payment-status-title">Payment status</h2>
      {status ? (
        <div aria-live="polite" aria-busy={checking}>
          <p>
            <PaymentStatusBadge status={status} />
          </p>
          <p data-testid="payment-status-message">{paymentStatusMessage(status)}</p>
          {isFinalPaymentStatus(status) ? null : (
            <p className="muted" data-testid="payment-keep-open">
              {PAYMENT_MESSAGES.keepOpen}
            </p>
          )}
        </div>
      ) : null}
      {error ? (
        <div className="banner error" role="alert" data-testid="payment-status-error">
          <p>{statusErrorText(error)}</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {PAYMENT_MESSAGES.retry}
          </button>
        </div>
      ) : null}
    </section>
  );
}
