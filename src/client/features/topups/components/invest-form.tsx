import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import type { Plan } from '../../../../shared/plans.ts';
import type { Topup, TopupSelfInput } from '../../../../shared/topups.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { payFailure, payTopup, refreshAfterTopup } from '../api.ts';
import { shortWalletText, topupFormSchema } from '../topup-form-schema.ts';
import { planRange } from './plan-facts.tsx';
import { FailedModal, type Failure, ReceiptModal, ReviewModal, reviewLine } from './topup-outcome.tsx';

/**
 * "Invest" on one plan: the amount (within the plan's range and the Active Wallet, checked before any
 * request), the review, then the receipt or the reason it failed. A fixed-price plan fills its price.
 */
export function InvestForm({
  plan,
  memberId,
  availableCents,
  holdsOwnTopup,
  onDone,
}: {
  plan: Plan;
  memberId: string;
  availableCents: number | undefined;
  holdsOwnTopup: boolean;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const fixed = plan.min_amount === plan.max_amount;
  const [amount, setAmount] = useState(fixed ? plan.min_amount : '');
  const { errors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const [review, setReview] = useState<TopupSelfInput | null>(null);
  const [receipt, setReceipt] = useState<Topup | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  const check = (then: (input: TopupSelfInput) => Promise<void>) =>
    submitWith(topupFormSchema(plan, availableCents), { plan_id: plan.id, amount }, then, () => undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    void check(async (input) => setReview(input));
  }

  async function confirm() {
    if (!review || offline) return;
    await check(async (input) => {
      try {
        const result = await payTopup(
          { memberId, payerId: memberId, planId: input.plan_id, amountCents: input.amount },
          holdsOwnTopup,
        );
        setReceipt(result.topup);
        void refreshAfterTopup(queryClient);
      } catch (error) {
        setFailure(payFailure(error));
      }
    });
    setReview(null);
  }

  const short = availableCents !== undefined && errors.amount === shortWalletText(availableCents);
  return (
    <form
      className="form"
      onSubmit={submit}
      noValidate
      aria-busy={busy}
      aria-label={`Invest in ${plan.name}`}
    >
      <FormField
        label="Amount (USD)"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        readOnly={fixed}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amount ?? errors.plan_id}
        hint={fixed ? 'This plan has one price' : `US dollars, ${planRange(plan)}`}
        disabled={busy}
      />
      {short ? (
        <p>
          <Link to="/user/add-money" className="button">
            Add money to your Active Wallet
          </Link>
        </p>
      ) : null}
      <MoneyOfflineNote />
      <div className="row">
        <button type="submit" className="button primary" disabled={busy || offline}>
          Review
        </button>
        <button type="button" className="button" onClick={onDone} disabled={busy}>
          Cancel
        </button>
      </div>
      <ReviewModal
        open={review !== null}
        title="Review your investment"
        summary={review ? reviewLine(review.amount, plan.name) : ''}
        busy={busy}
        onConfirm={() => void confirm()}
        onEdit={() => setReview(null)}
      />
      <ReceiptModal
        topup={receipt}
        title="Investment made"
        onClose={() => {
          setReceipt(null);
          onDone();
        }}
      />
      <FailedModal failure={failure} title="Investment not made" onClose={() => setFailure(null)} />
    </form>
  );
}
