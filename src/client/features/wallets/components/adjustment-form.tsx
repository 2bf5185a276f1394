import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import * as v from 'valibot';
import { DIALOG } from '../../../../shared/messages.ts';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { ADJUSTMENT_TEXT } from '../../../../shared/users.ts';
import {
  type AdjustmentInput,
  adjustmentSchema,
  emailLookupQuerySchema,
  WALLET_LABELS,
  WALLETS,
  type Wallet,
  type WalletBalance,
} from '../../../../shared/wallets.ts';
import { validateForm } from '../../../lib/field-errors.ts';
import { api, errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { applyAdjustment, type EmailUser, findUserByEmail, refreshAfterAdjustment } from '../api.ts';

type Direction = 'credit' | 'debit';
type Fields = { email: string; wallet: Wallet; direction: Direction; amount: string; reason: string };
/** Asked before any money moves: the checked input, the member, and the wallet's balance when it could be read. */
type Pending = {
  raw: Record<string, string>;
  input: AdjustmentInput;
  member: EmailUser;
  balance: WalletBalance | undefined;
};
type Done = { message: string; newBalance: string | null };

const EMPTY: Fields = { email: '', wallet: 'business', direction: 'credit', amount: '', reason: '' };
const DIRECTIONS: [Direction, string][] = [
  ['credit', 'Credit'],
  ['debit', 'Debit'],
];

/** The member's available balances from the admin's GET /users/{id}; undefined when it cannot be read. */
async function balanceOf(userId: string): Promise<WalletBalance | undefined> {
  try {
    const { singleuser } = await api<{ singleuser: { balance?: WalletBalance } }>(
      'GET',
      `/users/${encodeURIComponent(userId)}`,
    );
    return singleuser.balance;
  } catch {
    return undefined;
  }
}

/**
 * Support staff correct a member's balance: a ledger adjustment with a reason, kept in the audit log.
 * The admin confirms it in words first ("Credit $500.00 to Alice Walker's Active Wallet?", with the
 * balance before and after) and sees the balance it left. On the dashboard the member is found by
 * e-mail; on a member's profile `member` fixes who it is for.
 */
export function AdjustmentForm({ member: fixed }: { member?: EmailUser } = {}) {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [found, setFound] = useState<EmailUser | null>(null);
  const member = fixed ?? found;
  const [lookupError, setLookupError] = useState('');
  const [finding, setFinding] = useState(false);
  const [checking, setChecking] = useState(false);
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [serverError, setServerError] = useState('');

  const set =
    <K extends keyof Fields>(name: K) =>
    (e: { target: { value: string } }) =>
      setFields((current) => ({ ...current, [name]: e.target.value as Fields[K] }));

  function changeEmail(e: { target: { value: string } }) {
    set('email')(e);
    // A changed address no longer names the member found: never adjust someone the admin did not confirm.
    setFound(null);
    setLookupError('');
  }

  async function find() {
    const parsed = v.safeParse(emailLookupQuerySchema, { email: fields.email });
    if (!parsed.success) {
      setLookupError(parsed.issues[0].message);
      return;
    }
    setFinding(true);
    setLookupError('');
    setErrors(({ user_id: _, ...rest }) => rest);
    try {
      setFound(await findUserByEmail(parsed.output.email ?? fields.email));
    } catch (error) {
      setFound(null);
      setLookupError(errorText(error));
    } finally {
      setFinding(false);
    }
  }

  function findOnEnter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void find();
  }

  const input = () => ({
    user_id: member?.id ?? '',
    wallet: fields.wallet,
    direction: fields.direction,
    amount: fields.amount,
    reason: fields.reason,
  });

  /** The first press checks the form and asks; nothing is sent until the admin confirms. */
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    const raw = input();
    const parsed = validateForm(adjustmentSchema, raw);
    if (parsed.errors) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    if (!member) return;
    setChecking(true);
    const balance = await balanceOf(member.id);
    setChecking(false);
    setPending({ raw, input: parsed.output, member, balance });
  }

  function confirm() {
    if (!pending || offline) return;
    const { member: target, input: checked, raw } = pending;
    setPending(null);
    void submitWith(
      adjustmentSchema,
      raw,
      async (valid) => {
        // applyAdjustment makes a new Idempotency-Key for this one submission.
        const { message } = await applyAdjustment(valid);
        const after = await balanceOf(target.id);
        setDone({
          message,
          newBalance: after
            ? ADJUSTMENT_TEXT.newBalance(
                target.fullname,
                WALLET_LABELS[checked.wallet],
                formatUsd(after[checked.wallet]),
              )
            : null,
        });
        setFields(fixed ? { ...EMPTY, wallet: fields.wallet } : EMPTY);
        setFound(null);
        void refreshAfterAdjustment(queryClient);
      },
      setServerError,
    );
  }

  const memberError = lookupError || errors.user_id;
  const titleId = fixed ? 'adjust-member-title' : 'adjust-title';
  const working = busy || checking;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{fixed ? 'Adjust the balance' : "Adjust a member's balance"}</h2>
      <form className="form" onSubmit={submit} noValidate aria-busy={working}>
        {fixed ? null : (
          <>
            <div className="lookup">
              <FormField
                label="Member e-mail"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="off"
                value={fields.email}
                onChange={changeEmail}
                onKeyDown={findOnEnter}
                error={memberError}
                disabled={working}
              />
              <button type="button" className="button" onClick={find} disabled={working || finding}>
                {finding ? 'Finding...' : 'Find'}
              </button>
            </div>
            {found ? (
              <dl className="facts" aria-label="Member found" data-testid="found-member">
                <div>
                  <dt>Name</dt>
                  <dd>{found.fullname}</dd>
                </div>
                <div>
                  <dt>Username</dt>
                  <dd>{found.username}</dd>
                </div>
                <div>
                  <dt>E-mail</dt>
                  <dd>{found.email}</dd>
                </div>
              </dl>
            ) : null}
          </>
        )}
        <SelectField
          label="Wallet"
          name="wallet"
          value={fields.wallet}
          onChange={set('wallet')}
          error={errors.wallet}
          disabled={working}
        >
          {WALLETS.map((wallet) => (
            <option key={wallet} value={wallet}>
              {WALLET_LABELS[wallet]}
            </option>
          ))}
        </SelectField>
        <fieldset className="choice" disabled={working}>
          <legend>Direction</legend>
          {DIRECTIONS.map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name="direction"
                value={value}
                checked={fields.direction === value}
                onChange={set('direction')}
              />{' '}
              {label}
            </label>
          ))}
          {errors.direction ? <p className="field-error">{errors.direction}</p> : null}
        </fieldset>
        <FormField
          label="Amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          hint="US dollars, at most 2 decimals"
          value={fields.amount}
          onChange={set('amount')}
          error={errors.amount}
          disabled={working}
        />
        <TextAreaField
          label="Reason"
          name="reason"
          rows={3}
          maxLength={500}
          hint="3 to 500 characters; kept in the audit log"
          value={fields.reason}
          onChange={set('reason')}
          error={errors.reason}
          disabled={working}
        />
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={working || offline}>
          {busy ? 'Applying...' : checking ? 'Checking...' : 'Apply adjustment'}
        </button>
      </form>
      <ConfirmAdjustment pending={pending} onCancel={() => setPending(null)} onConfirm={confirm} />
      <Modal open={done !== null} title={DIALOG.successTitle} onClose={() => setDone(null)} tone="success">
        <p>{done?.message}</p>
        {done?.newBalance ? <p data-testid="adjustment-new-balance">{done.newBalance}</p> : null}
        <div className="modal-actions">
          <button type="button" className="button primary" onClick={() => setDone(null)}>
            {DIALOG.goBack}
          </button>
        </div>
      </Modal>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}

/** "Credit $500.00 to Alice Walker's Active Wallet?", the wallet's balance now and after, and the reason. */
function ConfirmAdjustment({
  pending,
  onCancel,
  onConfirm,
}: {
  pending: Pending | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const wallet = pending ? WALLET_LABELS[pending.input.wallet] : '';
  const nowText = pending?.balance?.[pending.input.wallet];
  const nowCents = nowText === undefined ? null : parseCents(nowText);
  const afterCents =
    pending && nowCents !== null
      ? nowCents + (pending.input.direction === 'credit' ? pending.input.amount : -pending.input.amount)
      : null;
  return (
    <Modal open={pending !== null} title={ADJUSTMENT_TEXT.confirmTitle} onClose={onCancel} tone="warning">
      {pending ? (
        <>
          <p className="confirm-question" data-testid="adjustment-question">
            {ADJUSTMENT_TEXT.question(
              pending.input.direction,
              formatUsd(pending.input.amount),
              pending.member.fullname,
              wallet,
            )}
          </p>
          {nowCents === null || afterCents === null ? (
            <p className="muted">{ADJUSTMENT_TEXT.balanceUnknown}</p>
          ) : (
            <>
              <p data-testid="adjustment-balance-now">
                {ADJUSTMENT_TEXT.balanceNow(wallet, formatUsd(nowCents))}
              </p>
              <p data-testid="adjustment-balance-after">
                {afterCents < 0
                  ? ADJUSTMENT_TEXT.tooLarge(wallet, formatUsd(nowCents))
                  : ADJUSTMENT_TEXT.balanceAfter(formatUsd(afterCents))}
              </p>
            </>
          )}
          <p className="muted">Reason: {pending.input.reason}</p>
        </>
      ) : null}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onCancel}>
          {DIALOG.goBack}
        </button>
        <button type="button" className="button primary" onClick={onConfirm}>
          {ADJUSTMENT_TEXT.confirmButton}
        </button>
      </div>
    </Modal>
  );
}
