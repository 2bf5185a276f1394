import { useQueryClient } from '@tanstack/react-query';
import '../payments.css';
import { PAYMENT_MESSAGES, type Payment } from '../../../../shared/payments.ts';
import { paymentStatusQuery } from '../api.ts';
import { PaymentForm } from './payment-form.tsx';
import { PaymentView } from './payment-view.tsx';

/**
 * Spec 2 "Crypto payment page". The payment being shown is named in the address (?payment=), so the
 * spec's Retry (a page reload) and a reopened tab come back to the same invoice instead of an empty form.
 */
export function CryptoPaymentPage({
  memberId,
  paymentId,
  onShow,
}: {
  memberId: string;
  paymentId: string | undefined;
  onShow: (paymentId: string | undefined) => void;
}) {
  const queryClient = useQueryClient();
  function created(payment: Payment) {
    // The answer is the first status; the view still checks again at once (spec 4).
    queryClient.setQueryData(paymentStatusQuery(payment.payment_id).queryKey, payment);
    onShow(payment.payment_id);
  }
  return (
    <div className="stack">
      <h1>{PAYMENT_MESSAGES.title}</h1>
      {paymentId ? (
        <PaymentView key={paymentId} paymentId={paymentId} onNew={() => onShow(undefined)} />
      ) : (
        <PaymentForm memberId={memberId} onCreated={created} />
      )}
    </div>
  );
}
