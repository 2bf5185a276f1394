import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { formatPercent, formatUsd, parseCents } from '../../../../shared/money.ts';
import {
  TOPUP_MESSAGES,
  type Topup,
  type TopupSelfInput,
  topupMemberQuerySchema,
} from '../../../../shared/topups.ts';
import { validateForm } from '../../../lib/field-errors.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import {
  activePlansQuery,
  balanceQuery,
  findTopupMember,
  holdsOwnTopup,
  payFailure,
  payTopup,
  refreshAfterTopup,
  type TopupMember,
  topupListQuery,
} from '../api.ts';
import { shortWalletText, topupFormSchema } from '../topup-form-schema.ts';
import { planRange } from './plan-facts.tsx';
import { FailedModal, type Failure, ReceiptModal, ReviewModal, reviewLine, who } from './topup-outcome.tsx';

type Fields = { who: 'self' | 'other'; q: string; plan_id: string; amount: string };
type Review = { input: TopupSelfInput; member: TopupMember | null };

/**
 * /user/topup: a top-up for myself or for another member, found by exact e-mail or username and shown
 * by name before anything is paid; then plan and amount, the review (naming the member again), and
 * the receipt. The Active Wallet pays.
 */
export function TopupForm({ self }: { self: { id: string; fullname: string; username: string } }) {
  const queryClient = useQueryClient();
  const plans = useQuery(activePlansQuery);
  const balance = useQuery(balanceQuery).data;
  const list = useQuery(topupListQuery).data;
  const [fields, setFields] = useState<Fields>({ who: 'self', q: '', plan_id: '', amount: '' });
  const [found, setFound] = useState<TopupMember | null>(null);
  const [lookupError, setLookupError] = useState<string | undefined>();
  const [looking, setLooking] = useState(false);
  const { errors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const [review, setReview] = useState<Review | null>(null);
  const [receipt, setReceipt] = useState<Topup | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  const plan = plans.data?.find((p) => p.id === fields.plan_id);
  const availableCents = balance ? (parseCents(balance.business) ?? 0) : undefined;
  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setFields((current) => ({ ...current, [name]: value }));
    // A changed e-mail or username is a different member: found again before paying.
    if (name === 'q') {
      setFound(null);
      setLookupError(undefined);
    }
    // A fixed-price plan has one amount: it is filled in.
    if (name === 'plan_id') {
      const chosen = plans.data?.find((p) => p.id === value);
      if (chosen && chosen.min_amount === chosen.max_amount)
        setFields((current) => ({ ...current, amount: chosen.min_amount }));
    }
  };

  async function lookUp() {
    const parsed = validateForm(topupMemberQuerySchema, { q: fields.q });
    if (parsed.errors) {
      setLookupError(parsed.errors.q);
      return;
    }
    setLooking(true);
    setLookupError(undefined);
    try {
      setFound(await findTopupMember(parsed.output.q));
    } catch (error) {
      setFound(null);
      setLookupError(
        error instanceof ApiError && error.status === 404 ? TOPUP_MESSAGES.memberNotFound : errorText(error),
      );
    } finally {
      setLooking(false);
    }
  }

  const beneficiary = fields.who === 'self' ? null : found;
  const check = (then: (input: TopupSelfInput) => Promise<void>) =>
    submitWith(
      topupFormSchema(plan, availableCents),
      { plan_id: fields.plan_id, amount: fields.amount },
      then,
      () => undefined,
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    // Another member must be found (and so shown by name) before the review.
    if (fields.who === 'other' && !found) {
      setLookupError(lookupError ?? TOPUP_MESSAGES.memberRequired);
      return;
    }
    void check(async (input) => setReview({ input, member: beneficiary }));
  }

  async function confirm() {
    if (!review || offline) return;
    const member = review.member;
    await check(async (input) => {
      try {
        const result = await payTopup(
          {
            memberId: member?.id ?? self.id,
            payerId: self.id,
            planId: input.plan_id,
            amountCents: input.amount,
          },
          holdsOwnTopup(list, self.id),
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
    <section className="card" aria-labelledby="topup-form-title">
      <h2 id="topup-form-title">Invest in a plan</h2>
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <fieldset className="choice" disabled={busy}>
          <legend>Who is it for?</legend>
          <label>
            <input
              type="radio"
              name="who"
              value="self"
              checked={fields.who === 'self'}
              onChange={set('who')}
            />{' '}
            Myself
          </label>
          <label>
            <input
              type="radio"
              name="who"
              value="other"
              checked={fields.who === 'other'}
              onChange={set('who')}
            />{' '}
            Another member
          </label>
        </fieldset>
        {fields.who === 'other' ? (
          <>
            <FormField
              label="Member's e-mail or username"
              name="q"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={fields.q}
              onChange={set('q')}
              onKeyDown={(e) => {
                // Enter here finds the member; it does not submit the payment form.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void lookUp();
                }
              }}
              error={lookupError}
              disabled={busy || looking}
            />
            <button type="button" className="button" onClick={() => void lookUp()} disabled={busy || looking}>
              {looking ? 'Finding...' : 'Find member'}
            </button>
            <div aria-live="polite" data-testid="topup-member">
              {found ? (
                <div className="topup-found">
                  <p className="muted">Check that this is the member you mean:</p>
                  <dl className="facts" aria-label="Member to invest for">
                    <div>
                      <dt>Name</dt>
                      <dd className="topup-wrap">{found.fullname}</dd>
                    </div>
                    <div>
                      <dt>Username</dt>
                      <dd className="topup-wrap">{found.username}</dd>
                    </div>
                  </dl>
                </div>
              ) : null}
            </div>
          </>
        ) : null}
        <SelectField
          label="Plan"
          name="plan_id"
          value={fields.plan_id}
          onChange={set('plan_id')}
          error={errors.plan_id}
          hint={
            plan
              ? `Daily ROI rate ${formatPercent(plan.roi_percent)} at most (not guaranteed), paid on at most ${plan.duration_days} days`
              : undefined
          }
          disabled={busy || !plans.data}
        >
          <option value="">{plans.isPending ? 'Loading the plans...' : 'Select a plan'}</option>
          {plans.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {`${p.name} (${planRange(p)})`}
            </option>
          ))}
        </SelectField>
        {plans.error ? <p className="field-error">{errorText(plans.error)}</p> : null}
        {plans.data?.length === 0 ? <p className="muted">No plans are open right now.</p> : null}
        <FormField
          label="Amount (USD)"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={fields.amount}
          onChange={set('amount')}
          error={errors.amount}
          hint={
            balance ? `Paid from your Active Wallet (${formatUsd(balance.business)} available)` : undefined
          }
          disabled={busy}
        />
        {short ? (
          <Link to="/user/add-money" className="button">
            Add money to your Active Wallet
          </Link>
        ) : null}
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={busy || offline}>
          Review
        </button>
      </form>
      <ReviewModal
        open={review !== null}
        title="Review your investment"
        summary={
          review && plan
            ? reviewLine(review.input.amount, plan.name, review.member ? who(review.member) : undefined)
            : ''
        }
        busy={busy}
        onConfirm={() => void confirm()}
        onEdit={() => setReview(null)}
      >
        <dl className="facts">
          <div>
            <dt>For</dt>
            <dd className="topup-wrap" data-testid="review-for">
              {review?.member ? who(review.member) : `${who(self)} (you)`}
            </dd>
          </div>
        </dl>
      </ReviewModal>
      <ReceiptModal
        topup={receipt}
        title={TOPUP_MESSAGES.created}
        onClose={() => {
          setReceipt(null);
          setFields((current) => ({ ...current, amount: '' }));
        }}
      />
      <FailedModal failure={failure} title="Investment not made" onClose={() => setFailure(null)} />
    </section>
  );
}
