import { isFinalPaymentStatus, PAYMENT_MESSAGES, paymentStatusMessage } from '../../../../shared/payments.ts';
import { statusErrorText } from '../api.ts';
import { PaymentStatusBadge } from './payment-status-badge.tsx';

/** With seconds: checks come 10 s apart, so minutes alone would not show that one happened. */
const clockTime = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/**
 * The live status of spec 2: the badge and the spec's message for it, or why it could not be checked.
 * While the payment is open it says when the status was last read and can read it again at once.
 */
export function PaymentStatusPanel({
  status,
  error,
  checking,
  checkedAt,
  onCheck,
}: {
  status: string | undefined;
  error: unknown;
  checking: boolean;
  /** When the last answer arrived (ms since the epoch); 0 before any. */
  checkedAt: number;
  onCheck: () => void;
}) {
  const open = status !== undefined && !isFinalPaymentStatus(status);
  return (
    <section className="card" aria-labelledby="payment-status-title" data-testid="payment-status">
      <h2 id="payment-status-title">Payment status</h2>
      {status ? (
        <div aria-live="polite" aria-busy={checking}>
          <p>
            <PaymentStatusBadge status={status} />
          </p>
          <p data-testid="payment-status-message">{paymentStatusMessage(status)}</p>
        </div>
      ) : null}
      {open ? (
        <div className="status-check">
          {checkedAt > 0 ? (
            <p className="muted" data-testid="payment-last-checked">
              {PAYMENT_MESSAGES.lastChecked(clockTime.format(new Date(checkedAt)))}
            </p>
          ) : null}
          <button type="button" className="button" onClick={onCheck} disabled={checking}>
            {checking ? PAYMENT_MESSAGES.checking : PAYMENT_MESSAGES.checkNow}
          </button>
          <p className="muted" data-testid="payment-keep-open">
            {PAYMENT_MESSAGES.keepOpen}
          </p>
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
