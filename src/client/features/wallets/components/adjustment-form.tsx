import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import * as v from 'valibot';
import {
  adjustmentSchema,
  emailLookupQuerySchema,
  WALLET_LABELS,
  WALLETS,
  type Wallet,
} from '../../../../shared/wallets.ts';
import { errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { applyAdjustment, type EmailUser, findUserByEmail, refreshAfterAdjustment } from '../api.ts';

type Direction = 'credit' | 'debit';
type Fields = { email: string; wallet: Wallet; direction: Direction; amount: string; reason: string };

const EMPTY: Fields = { email: '', wallet: 'business', direction: 'credit', amount: '', reason: '' };
const DIRECTIONS: [Direction, string][] = [
  ['credit', 'Credit'],
  ['debit', 'Debit'],
];

/** Support staff correct a member's balance: a ledger adjustment with a reason, kept in the audit log. */
export function AdjustmentForm() {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [member, setMember] = useState<EmailUser | null>(null);
  const [lookupError, setLookupError] = useState('');
  const [finding, setFinding] = useState(false);
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const [success, setSuccess] = useState('');
  const [serverError, setServerError] = useState('');

  const set =
    <K extends keyof Fields>(name: K) =>
    (e: { target: { value: string } }) =>
      setFields((current) => ({ ...current, [name]: e.target.value as Fields[K] }));

  function changeEmail(e: { target: { value: string } }) {
    set('email')(e);
    // A changed address no longer names the member found: never adjust someone the admin did not confirm.
    setMember(null);
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
      setMember(await findUserByEmail(parsed.output.email));
    } catch (error) {
      setMember(null);
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

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    void submitWith(
      adjustmentSchema,
      {
        user_id: member?.id ?? '',
        wallet: fields.wallet,
        direction: fields.direction,
        amount: fields.amount,
        reason: fields.reason,
      },
      async (input) => {
        const { message } = await applyAdjustment(input);
        setSuccess(message);
        setFields(EMPTY);
        setMember(null);
        void refreshAfterAdjustment(queryClient);
      },
      setServerError,
    );
  }

  const memberError = lookupError || errors.user_id;
  return (
    <section className="card" aria-labelledby="adjust-title">
      <h2 id="adjust-title">Adjust a member's balance</h2>
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
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
            disabled={busy}
          />
          <button type="button" className="button" onClick={find} disabled={busy || finding}>
            {finding ? 'Finding...' : 'Find'}
          </button>
        </div>
        {member ? (
          <dl className="facts" aria-label="Member found" data-testid="found-member">
            <div>
              <dt>Name</dt>
              <dd>{member.fullname}</dd>
            </div>
            <div>
              <dt>Username</dt>
              <dd>{member.username}</dd>
            </div>
            <div>
              <dt>E-mail</dt>
              <dd>{member.email}</dd>
            </div>
          </dl>
        ) : null}
        <SelectField
          label="Wallet"
          name="wallet"
          value={fields.wallet}
          onChange={set('wallet')}
          error={errors.wallet}
          disabled={busy}
        >
          {WALLETS.map((wallet) => (
            <option key={wallet} value={wallet}>
              {WALLET_LABELS[wallet]}
            </option>
          ))}
        </SelectField>
        <fieldset className="choice" disabled={busy}>
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
          disabled={busy}
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
          disabled={busy}
        />
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={busy || offline}>
          {busy ? 'Applying...' : 'Apply adjustment'}
        </button>
      </form>
      <SuccessDialog open={success !== ''} message={success} onClose={() => setSuccess('')} />
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}
