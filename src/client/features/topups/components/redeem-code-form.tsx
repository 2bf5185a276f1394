import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type * as v from 'valibot';
import { CODE_MESSAGES, codeRedeemSchema, type Topup } from '../../../../shared/topups.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { payFailure, redeemCode, refreshAfterTopup } from '../api.ts';
import { FailedModal, type Failure, ReceiptModal, ReviewModal } from './topup-outcome.tsx';

type Redeem = v.InferOutput<typeof codeRedeemSchema>;

/** "Redeem a code": the code becomes the member's investment, paid by the platform, once. */
export function RedeemCodeForm() {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const { errors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const [review, setReview] = useState<Redeem | null>(null);
  const [receipt, setReceipt] = useState<Topup | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  const check = (then: (input: Redeem) => Promise<void>) =>
    submitWith(codeRedeemSchema, { code }, then, () => undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    void check(async (input) => setReview(input));
  }

  async function confirm() {
    if (!review || offline) return;
    await check(async (input) => {
      try {
        const result = await redeemCode(input.code);
        setReceipt(result.topup);
        setCode('');
        void refreshAfterTopup(queryClient);
      } catch (error) {
        setFailure(payFailure(error));
      }
    });
    setReview(null);
  }

  return (
    <section className="card" aria-labelledby="redeem-title">
      <h2 id="redeem-title">Redeem a code</h2>
      <p className="muted">
        An activation code is an investment already paid for: nothing leaves your wallets.
      </p>
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <FormField
          label="Activation code"
          name="code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={errors.code}
          disabled={busy}
        />
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={busy || offline}>
          Review
        </button>
      </form>
      <ReviewModal
        open={review !== null}
        title="Review your code"
        summary={review ? `Redeem activation code ${review.code}` : ''}
        confirmLabel="Redeem"
        busy={busy}
        onConfirm={() => void confirm()}
        onEdit={() => setReview(null)}
      >
        <p className="muted">It becomes your investment in the code's plan and amount; a code works once.</p>
      </ReviewModal>
      <ReceiptModal topup={receipt} title={CODE_MESSAGES.redeemed} onClose={() => setReceipt(null)} />
      <FailedModal failure={failure} title="Code not redeemed" onClose={() => setFailure(null)} />
    </section>
  );
}
