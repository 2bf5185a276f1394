import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import {
  amountToSend,
  coinAmount,
  PAY_COIN_LABEL,
  PAYMENT_MESSAGES,
  type Payment,
  processingFee,
} from '../../../../shared/payments.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { Spinner } from '../../../ui/spinner.tsx';
import { amountPaid, paymentStatusQuery, refreshAfterPayment } from '../api.ts';
import { CopyAddressButton } from './copy-address-button.tsx';
import { PaymentQr } from './payment-qr.tsx';
import { PaymentStatusPanel } from './payment-status-panel.tsx';
import { SandboxPay } from './sandbox-pay.tsx';

const FAILED_STATUSES = new Set(['failed', 'refunded', 'expired']);
/**
 * The sandbox takes a simulated transfer while the invoice waits with nothing arrived yet, and the rest
 * once it is partially paid.
 */
const sandboxPayable = (payment: Payment) =>
  payment.provider === 'sandbox' &&
  (payment.payment_status === 'partially_paid' ||
    (payment.payment_status === 'waiting' && /^0*(\.0*)?$/.test(payment.actually_paid ?? '0')));

/** One payment, from its creation to its end: the invoice, the live status, and the outcome. */
export function PaymentView({ paymentId, onNew }: { paymentId: string; onNew: () => void }) {
  const queryClient = useQueryClient();
  const query = useQuery(paymentStatusQuery(paymentId));
  const payment = query.data;
  const status = payment?.payment_status;

  // A finished payment credited the Active Wallet; a partial one shows in the history: both are stale now.
  useEffect(() => {
    if (status === 'finished' || status === 'partially_paid') void refreshAfterPayment(queryClient);
  }, [status, queryClient]);

  const newPayment = (
    <button type="button" className="button" onClick={onNew}>
      {PAYMENT_MESSAGES.createNew}
    </button>
  );

  const panel = (
    <PaymentStatusPanel
      status={status}
      error={query.error}
      checking={query.isFetching}
      checkedAt={query.dataUpdatedAt}
      onCheck={() => void query.refetch()}
    />
  );

  if (!payment) {
    if (query.isPending) return <Spinner label="Loading the payment" />;
    return (
      <div className="stack">
        {panel}
        {newPayment}
      </div>
    );
  }

  if (status === 'finished') return <PaymentSuccess payment={payment} />;

  if (status && FAILED_STATUSES.has(status))
    return (
      <div className="stack">
        <p className="failed-text" data-testid="payment-failed">
          {PAYMENT_MESSAGES.failed}
        </p>
        {panel}
        {newPayment}
      </div>
    );

  return (
    <div className="stack">
      <PaymentDetails payment={payment} />
      {panel}
      {sandboxPayable(payment) ? (
        <SandboxPay
          payment={payment}
          onPaid={(paid) => queryClient.setQueryData(paymentStatusQuery(paymentId).queryKey, paid)}
        />
      ) : null}
      {newPayment}
    </div>
  );
}

/**
 * Spec 2 "After creation": where and how much to send, before when. One amount to send: the invoice's
 * pay_amount (spec 9's rounded-up amount, see docs/rules.md), or what is still missing once partially paid.
 */
function PaymentDetails({ payment }: { payment: Payment }) {
  const toSend = amountToSend(payment);
  const partial = payment.payment_status === 'partially_paid';
  const fee = processingFee(payment);
  return (
    <section className="card" aria-labelledby="payment-created-title" data-testid="payment-details">
      <h2 id="payment-created-title" className="success-title">
        {PAYMENT_MESSAGES.created}
      </h2>
      <dl className="facts">
        <div>
          <dt>Pay before</dt>
          <dd data-testid="payment-deadline">{formatDateTime(payment.expires_at)}</dd>
        </div>
        <div>
          <dt>Payment ID</dt>
          <dd data-testid="payment-id" className="break">
            {payment.payment_id}
          </dd>
        </div>
        <div>
          <dt>Amount to send</dt>
          <dd data-testid="payment-amount">{coinAmount(payment.pay_amount)}</dd>
        </div>
        {partial ? (
          <>
            <div>
              <dt>Received so far</dt>
              <dd data-testid="payment-received">{coinAmount(payment.actually_paid ?? '0')}</dd>
            </div>
            <div>
              <dt>Still to send</dt>
              <dd data-testid="payment-remaining">
                <strong>{coinAmount(toSend)}</strong>
              </dd>
            </div>
          </>
        ) : null}
        <div>
          <dt>Credited to your Active Wallet (USD)</dt>
          <dd data-testid="payment-credit">{formatUsd(payment.price_amount)}</dd>
        </div>
      </dl>
      <h3 className="field-label">Pay address ({PAY_COIN_LABEL})</h3>
      <p className="copy-field break" data-testid="pay-address">
        {payment.pay_address}
      </p>
      <PaymentQr address={payment.pay_address} payAmount={toSend} />
      <div className="row">
        <CopyAddressButton address={payment.pay_address} />
      </div>
      <ul className="payment-notes">
        <li data-testid="send-exactly">
          <strong>
            {PAYMENT_MESSAGES.sendExactly} {coinAmount(toSend)}
          </strong>
        </li>
        <li>{PAYMENT_MESSAGES.networkFees}</li>
        <li data-testid="payment-credit-note">
          {PAYMENT_MESSAGES.creditNote(formatUsd(payment.price_amount), fee)}
        </li>
      </ul>
    </section>
  );
}

/** Spec 2 "When finished"; "Return Home" leads a signed-in member to their dashboard (docs/rules.md). */
function PaymentSuccess({ payment }: { payment: Payment }) {
  return (
    <section
      className="card success-view"
      aria-labelledby="payment-success-title"
      data-testid="payment-success"
    >
      <h2 id="payment-success-title" className="success-title">
        {PAYMENT_MESSAGES.successTitle}
      </h2>
      <dl className="facts">
        <div>
          <dt>Payment ID</dt>
          <dd className="break">{payment.payment_id}</dd>
        </div>
        <div>
          <dt>Amount paid</dt>
          <dd data-testid="amount-paid">{coinAmount(amountPaid(payment))}</dd>
        </div>
        {payment.order_id ? (
          <div>
            <dt>Order ID</dt>
            <dd className="break">{payment.order_id}</dd>
          </div>
        ) : null}
        {payment.credited_amount ? (
          <div>
            <dt>Credited to your Active Wallet (USD)</dt>
            <dd data-testid="credited-amount">{formatUsd(payment.credited_amount)}</dd>
          </div>
        ) : null}
      </dl>
      <Link to="/user/dashboard" className="button primary">
        {PAYMENT_MESSAGES.returnHome}
      </Link>
    </section>
  );
}
