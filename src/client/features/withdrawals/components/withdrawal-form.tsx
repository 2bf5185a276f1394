import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import * as v from 'valibot';
import { ACCOUNT_TEXT } from '../../../../shared/account.ts';
import { formatCents, formatUsd, parseCents } from '../../../../shared/money.ts';
import { NETWORK_LABELS } from '../../../../shared/profile.ts';
import { TOPUP_MESSAGES } from '../../../../shared/topups.ts';
import { amountRefusal, type Refusal } from '../../../../shared/withdrawal-rules.ts';
import {
  compoundWithdrawalSchema,
  incomeWithdrawalSchema,
  principalWithdrawalSchema,
  roiWithdrawalSchema,
  WITHDRAWAL_TEXT,
  type WithdrawalKind,
  type WithdrawalOptions,
  withdrawalRulesText,
} from '../../../../shared/withdrawals.ts';
import { validateForm } from '../../../lib/field-errors.ts';
import { errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { formatUtcDay } from '../../../lib/utc-days.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import type { GlossaryId } from '../../../ui/glossary.ts';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { Term } from '../../../ui/term.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { refreshAfterWithdrawal, requestWithdrawal, sendWithdrawalCode } from '../api.ts';
import { amountFactsOf, figuresOf, isUsable, type PayoutAddress } from '../figures.ts';

type Investment = WithdrawalOptions['investments'][number];
type Member = { id: string; email: string };

const cents = (decimal: string) => parseCents(decimal) ?? 0;

/** The investments a kind can draw on: ROI left to withdraw, or a matured principal still in place. */
export const investmentsFor = (kind: WithdrawalKind, options: WithdrawalOptions): Investment[] =>
  kind === 'roi'
    ? options.investments.filter((i) => cents(i.roi_withdrawable) > 0)
    : kind === 'principal'
      ? options.investments.filter((i) => i.principal_withdrawable)
      : [];

/** A request's fields after the shared schema: the amount in cents. */
type Checked = {
  otp: string;
  amount?: number;
  topup_id?: string;
  plan_id?: string;
  network?: 'bep20' | 'trc20';
};

/** Which field a refusal of the amount's rules shows on: its own, else the amount (the investment for a principal). */
const fieldOf = (kind: WithdrawalKind, refusal: Refusal) =>
  refusal.field ?? (kind === 'principal' ? 'topup_id' : 'amount');

/**
 * The shared request schema of the kind, plus the server's amount rules (src/shared/withdrawal-rules.ts)
 * on what the screen already knows (the balance, the minimum, the investment's ROI left) and the plan's
 * range, so a mistake shows on its field before a code is asked for. The server checks all of it again
 * and has the last word.
 */
/** The terms each kind of withdrawal is about, each with its "?" above the form. */
const KIND_TERMS: Record<WithdrawalKind, GlossaryId[]> = {
  income: ['incomeWorking'],
  roi: ['roi', 'incomeCap'],
  principal: [],
  compound: ['compound', 'incomeWorking'],
};

function schemaFor(kind: WithdrawalKind, options: WithdrawalOptions): v.GenericSchema<unknown, Checked> {
  const refusal = (i: Checked) => amountRefusal(kind, i.amount, amountFactsOf(options, i.topup_id));
  const onField = (field: 'amount' | 'topup_id') =>
    v.forward(
      v.check(
        (i: Checked) => {
          const r = refusal(i);
          return !r || fieldOf(kind, r) !== field;
        },
        (issue) => refusal(issue.input as Checked)?.message ?? '',
      ),
      [field],
    );
  const plan = (i: Checked) => options.plans.find((p) => p.id === i.plan_id);
  const inPlanRange = v.forward(
    v.check(
      (i: Checked) => {
        const p = plan(i);
        return (
          kind !== 'compound' ||
          !p ||
          ((i.amount ?? 0) >= cents(p.min_amount) && (i.amount ?? 0) <= cents(p.max_amount))
        );
      },
      (issue) =>
        TOPUP_MESSAGES.amountRange(
          plan(issue.input as Checked)?.min_amount ?? '',
          plan(issue.input as Checked)?.max_amount ?? '',
        ),
    ),
    ['amount'],
  );
  const base = {
    income: incomeWithdrawalSchema,
    roi: roiWithdrawalSchema,
    principal: principalWithdrawalSchema,
    compound: compoundWithdrawalSchema,
  }[kind] as v.GenericSchema<unknown, Checked>;
  return v.pipe(base, inPlanRange, onField('amount'), onField('topup_id'));
}

/**
 * One kind's request: its rules first, then what it draws on, the amount with the fee and the net as
 * they type, "Send code" (a code mailed for purpose withdrawal), the code, and Send. The server's
 * answers show as they come: field errors under their fields, anything else in the banner.
 */
export function WithdrawalForm({
  kind,
  options,
  member,
  refusal,
}: {
  kind: WithdrawalKind;
  options: WithdrawalOptions;
  member: Member;
  /** Why this kind cannot be asked for now (unverified e-mail, no usable address, an open request). */
  refusal?: string;
}) {
  const queryClient = useQueryClient();
  const investments = investmentsFor(kind, options);
  const usable = options.addresses.filter((a) => isUsable(a, Date.now()));
  const [fields, setFields] = useState({
    amount: '',
    otp: '',
    topup_id: investments.length === 1 ? (investments[0]?.topup_id ?? '') : '',
    plan_id: options.plans.length === 1 ? (options.plans[0]?.id ?? '') : '',
    network: (usable.find((a) => a.network === 'bep20') ?? usable[0])?.network ?? '',
  });
  const [codeSent, setCodeSent] = useState(false);
  const [sendingCode, setSendingCode] = useState(false);
  const banner = useAutoClearBanner();
  const { errors, setErrors, busy, submit } = useSchemaForm();
  const { offline } = useOffline();
  const refusalId = useId();

  const set = (name: keyof typeof fields) => (e: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: e.target.value }));

  const investment = investments.find((i) => i.topup_id === fields.topup_id);
  const promotional = options.investments.filter((i) => i.promotional);
  const plan = options.plans.find((p) => p.id === fields.plan_id);
  const amountText = kind === 'principal' ? (investment?.amount ?? '') : fields.amount;
  const figures = figuresOf(kind, amountText, options.fee_percent);
  const payout = kind !== 'compound';
  const address: PayoutAddress | undefined = usable.find((a) => a.network === fields.network);
  const blocked = Boolean(refusal) || offline;
  // Nothing this kind could be asked for, said instead of the form: no investment to draw on, no plan,
  // or an Income Working balance the amount rules refuse whole (the minimum, the fee).
  const fromBalance = kind === 'income' || kind === 'compound' ? kind : undefined;
  const balanceRefusal = fromBalance
    ? amountRefusal(fromBalance, cents(options.working_available), amountFactsOf(options, undefined))
    : undefined;
  const nothingToDrawOn =
    (kind === 'roi' || kind === 'principal') && investments.length === 0
      ? kind === 'roi'
        ? WITHDRAWAL_TEXT.noRoi
        : WITHDRAWAL_TEXT.noPrincipal
      : kind === 'compound' && options.plans.length === 0
        ? WITHDRAWAL_TEXT.noPlans
        : fromBalance && balanceRefusal
          ? WITHDRAWAL_TEXT.balanceTooLow(
              formatUsd(options.working_available),
              formatUsd(options.minimum),
              fromBalance,
            )
          : '';

  /** The request as typed, for the schema (the code as typed, or a stand-in to check the rest). */
  const requestInput = (otp: string) => {
    const network = payout && fields.network ? (fields.network as 'bep20' | 'trc20') : undefined;
    return {
      otp,
      ...(kind !== 'principal' ? { amount: fields.amount } : {}),
      ...(kind === 'roi' || kind === 'principal' ? { topup_id: fields.topup_id } : {}),
      ...(kind === 'compound' ? { plan_id: fields.plan_id } : {}),
      ...(network ? { network } : {}),
    };
  };

  async function sendCode() {
    // The request's rules first: a code is mailed only for a request the server would take.
    const checked = validateForm(schemaFor(kind, options), requestInput('000000'));
    setErrors(checked.errors ?? {});
    if (checked.errors) return;
    setSendingCode(true);
    try {
      banner.success((await sendWithdrawalCode(member)).message);
      setCodeSent(true);
    } catch (error) {
      banner.error(errorText(error));
    } finally {
      setSendingCode(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (blocked) return;
    void submit(
      schemaFor(kind, options),
      requestInput(fields.otp),
      async (input) => {
        try {
          const { message } = await requestWithdrawal(kind, {
            ...input,
            amount: input.amount === undefined ? undefined : formatCents(input.amount),
          });
          setFields((current) => ({ ...current, amount: '', otp: '' }));
          setCodeSent(false);
          banner.success(message);
        } finally {
          // Held or refused, the balance and the list may have moved meanwhile.
          void refreshAfterWithdrawal(queryClient);
        }
      },
      banner.error,
    );
  }

  return (
    <form className="form withdrawal-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
      {KIND_TERMS[kind].length > 0 ? (
        <p className="muted term-line" data-testid="withdrawal-terms">
          {KIND_TERMS[kind].map((id) => (
            <Term key={id} id={id} />
          ))}
        </p>
      ) : null}
      <p className="notice" data-testid="withdrawal-rules">
        {withdrawalRulesText(kind, options)}
      </p>
      {kind === 'principal' && promotional.length > 0 ? (
        <p className="muted" data-testid="principal-promotional">
          {WITHDRAWAL_TEXT.promotionalPrincipal(
            promotional.map((i) => `${i.plan_name} ${formatUsd(i.amount)}`).join(', '),
          )}
        </p>
      ) : null}
      {nothingToDrawOn ? (
        <p className="muted" data-testid="withdrawal-nothing">
          {nothingToDrawOn}
        </p>
      ) : (
        <>
          {kind === 'roi' || kind === 'principal' ? (
            <SelectField
              label={WITHDRAWAL_TEXT.investment}
              name="topup_id"
              value={fields.topup_id}
              onChange={set('topup_id')}
              error={errors.topup_id}
              disabled={busy}
            >
              <option value="">{WITHDRAWAL_TEXT.chooseInvestment}</option>
              {investments.map((i) => (
                <option key={i.topup_id} value={i.topup_id}>
                  {WITHDRAWAL_TEXT.investmentOption(
                    i.plan_name,
                    formatUsd(i.amount),
                    formatUtcDay(i.roi_end_date),
                  )}
                </option>
              ))}
            </SelectField>
          ) : null}
          {kind === 'roi' && investment ? (
            <dl className="facts">
              <div>
                <dt>{WITHDRAWAL_TEXT.roiLeft}</dt>
                <dd data-testid="roi-withdrawable">{formatUsd(investment.roi_withdrawable)}</dd>
              </div>
            </dl>
          ) : null}
          {kind === 'compound' ? (
            <SelectField
              label={WITHDRAWAL_TEXT.plan}
              name="plan_id"
              value={fields.plan_id}
              onChange={set('plan_id')}
              error={errors.plan_id}
              hint={
                plan
                  ? WITHDRAWAL_TEXT.planLimits(formatUsd(plan.min_amount), formatUsd(plan.max_amount))
                  : undefined
              }
              disabled={busy}
            >
              <option value="">{WITHDRAWAL_TEXT.choosePlan}</option>
              {options.plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </SelectField>
          ) : null}
          {kind !== 'principal' ? (
            <FormField
              label={WITHDRAWAL_TEXT.amount}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              value={fields.amount}
              onChange={set('amount')}
              error={errors.amount}
              hint={kind === 'compound' ? undefined : WITHDRAWAL_TEXT.amountHint(formatUsd(options.minimum))}
              disabled={busy}
            />
          ) : null}
          {payout && usable.length > 1 ? (
            <SelectField
              label={WITHDRAWAL_TEXT.network}
              name="network"
              value={fields.network}
              onChange={set('network')}
              error={errors.network}
              disabled={busy}
            >
              {usable.map((a) => (
                <option key={a.network} value={a.network}>
                  {NETWORK_LABELS[a.network]}
                </option>
              ))}
            </SelectField>
          ) : null}
          <section
            className="withdrawal-figures"
            aria-label={WITHDRAWAL_TEXT.figuresTitle}
            aria-live="polite"
          >
            <dl className="facts">
              <div>
                <dt>{WITHDRAWAL_TEXT.amount}</dt>
                <dd data-testid="figure-amount">{figures ? formatUsd(figures.amountCents) : '—'}</dd>
              </div>
              <div>
                <dt>
                  {WITHDRAWAL_TEXT.fee}
                  {payout ? ` (${WITHDRAWAL_TEXT.feeOf(options.fee_percent)})` : ''}
                </dt>
                <dd data-testid="figure-fee">
                  {!payout ? WITHDRAWAL_TEXT.noFee : figures ? formatUsd(figures.feeCents) : '—'}
                </dd>
              </div>
              <div>
                <dt>{payout ? WITHDRAWAL_TEXT.youReceive : WITHDRAWAL_TEXT.becomesInvestment}</dt>
                <dd data-testid="figure-net">{figures ? formatUsd(figures.netCents) : '—'}</dd>
              </div>
              {payout && address ? (
                <div>
                  <dt>{NETWORK_LABELS[address.network]}</dt>
                  <dd className="withdrawal-wrap">{address.address}</dd>
                </div>
              ) : null}
            </dl>
          </section>
          <p className="muted">{WITHDRAWAL_TEXT.codeIntro}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={sendingCode || busy || blocked}
              aria-describedby={refusal ? refusalId : undefined}
              onClick={() => void sendCode()}
            >
              {codeSent ? ACCOUNT_TEXT.sendCodeAgain : ACCOUNT_TEXT.sendCode}
            </button>
          </div>
          <FormField
            label={ACCOUNT_TEXT.code}
            name="otp"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={fields.otp}
            onChange={set('otp')}
            error={errors.otp}
            disabled={busy}
          />
        </>
      )}
      <MessageBanner banner={banner.banner} />
      {refusal ? (
        <p className="field-error" id={refusalId} data-testid="withdrawal-refusal">
          {refusal}
        </p>
      ) : null}
      <MoneyOfflineNote />
      {nothingToDrawOn ? null : (
        <button
          type="submit"
          className="button primary"
          disabled={busy || blocked}
          aria-describedby={refusal ? refusalId : undefined}
        >
          {busy ? WITHDRAWAL_TEXT.sending : WITHDRAWAL_TEXT.send}
        </button>
      )}
    </form>
  );
}
