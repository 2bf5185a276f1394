import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { coinAmount, manualCreditSchema } from '../../../../shared/payments.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, TextAreaField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { type AdminPayment, creditByHand, refreshAfterPayment } from '../api.ts';

/** USDT is worth a dollar: what was paid is the natural credit, when it reads as dollars and cents. */
const defaultAmount = (payment: AdminPayment) =>
  payment.actually_paid !== null && parseCents(payment.actually_paid) !== null ? payment.actually_paid : '';

/** Credits a partially paid payment to the member's Active Wallet, once, with a reason for the audit log. */
export function ManualCreditDialog({
  payment,
  onClose,
  onCredited,
}: {
  payment: AdminPayment | null;
  onClose: () => void;
  onCredited: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();

  useEffect(() => {
    setAmount(payment ? defaultAmount(payment) : '');
    setReason('');
    setFailure('');
    setErrors({});
  }, [payment, setErrors]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!payment || offline) return;
    setFailure('');
    void submitWith(
      manualCreditSchema,
      { amount, reason },
      async (input) => {
        const { message } = await creditByHand(payment.payment_id, input);
        void refreshAfterPayment(queryClient);
        onCredited(message);
      },
      (text) => {
        setFailure(text);
        // A 409 means someone credited it meanwhile: the list should say so.
        void refreshAfterPayment(queryClient);
      },
    );
  }

  return (
    <Modal open={payment !== null} title="Credit by hand" onClose={() => (busy ? undefined : onClose())}>
      {payment ? (
        <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
          <p>
            {payment.member_name} ({payment.member_email}) made a deposit of {formatUsd(payment.price_amount)}{' '}
            USD, was asked to send {coinAmount(payment.pay_amount)} and sent{' '}
            {coinAmount(payment.actually_paid ?? '0')}. The amount goes to their Active Wallet, once.
          </p>
          <FormField
            label="Amount to credit (USD)"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={errors.amount}
            disabled={busy}
          />
          <TextAreaField
            label="Reason"
            name="reason"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={errors.reason}
            hint="3 to 500 characters, kept in the audit log"
            disabled={busy}
          />
          {failure ? (
            <p className="field-error" role="alert">
              {failure}
            </p>
          ) : null}
          <MoneyOfflineNote />
          <div className="modal-actions">
            <button type="button" className="button" onClick={onClose} disabled={busy}>
              Go back
            </button>
            <button type="submit" className="button primary" disabled={busy || offline}>
              {busy ? 'Crediting...' : 'Credit'}
            </button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
