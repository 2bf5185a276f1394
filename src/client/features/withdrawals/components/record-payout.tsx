import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatCents, formatUsd } from '../../../../shared/money.ts';
import { WITHDRAWAL_TEXT, withdrawalDebitSchema } from '../../../../shared/withdrawals.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { settingsQuery } from '../../../lib/settings.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, TextAreaField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { type FoundMember, findMemberByEmail, recordPayout, refreshAfterWithdrawal } from '../api.ts';
import { figuresOf } from '../figures.ts';

/**
 * POST /withdrawalrequest/debit: support records money already sent to a member outside a request. The
 * member is found by e-mail first, so the admin sees whose balance it is before anything moves.
 */
export function RecordPayout() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [member, setMember] = useState<FoundMember | null>(null);
  const [lookupError, setLookupError] = useState('');
  const [finding, setFinding] = useState(false);
  const [fields, setFields] = useState({ amount: '', tx_hash: '', reason: '' });
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState('');
  const { errors, setErrors, busy, submit } = useSchemaForm();
  const { offline } = useOffline();
  // The fee in force (the Settings screen's); the server computes it again when the payout is recorded.
  const feePercent = useQuery(settingsQuery).data?.settings.withdrawal_fee_percent;
  const figures = feePercent ? figuresOf('income', fields.amount, feePercent) : null;

  async function find(event: FormEvent) {
    event.preventDefault();
    setFinding(true);
    setLookupError('');
    setMember(null);
    try {
      setMember(await findMemberByEmail(email.trim()));
    } catch (error) {
      setLookupError(error instanceof ApiError ? error.display : errorText(error));
    } finally {
      setFinding(false);
    }
  }

  function record(event: FormEvent) {
    event.preventDefault();
    if (!member || offline) return;
    setFailure('');
    setDone('');
    void submit(
      withdrawalDebitSchema,
      { user_id: member.id, ...fields },
      async (input) => {
        const { message } = await recordPayout({ ...input, amount: formatCents(input.amount) });
        setDone(message);
        setFields({ amount: '', tx_hash: '', reason: '' });
        setErrors({});
        void refreshAfterWithdrawal(queryClient);
      },
      setFailure,
    );
  }

  const set = (name: keyof typeof fields) => (e: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: e.target.value }));

  return (
    <section className="card" aria-labelledby="record-payout-title">
      <h2 id="record-payout-title">{WITHDRAWAL_TEXT.payoutTitle}</h2>
      <p className="muted">{WITHDRAWAL_TEXT.payoutIntro}</p>
      {done ? (
        <p className="notice" role="status" data-testid="payout-done">
          {done}
        </p>
      ) : null}
      {!open ? (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          {WITHDRAWAL_TEXT.payoutOpen}
        </button>
      ) : (
        <>
          <form className="form record-payout-find" onSubmit={find} noValidate aria-busy={finding}>
            <FormField
              label={WITHDRAWAL_TEXT.memberEmail}
              name="email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setMember(null);
              }}
              error={lookupError || undefined}
              disabled={finding || busy}
            />
            <button type="submit" className="button" disabled={finding || busy || !email.trim()}>
              {WITHDRAWAL_TEXT.findMember}
            </button>
          </form>
          {member ? (
            <form className="form" onSubmit={record} noValidate aria-busy={busy}>
              <p data-testid="payout-member">
                {member.fullname} <span className="muted">@{member.username}</span> {member.email}
              </p>
              <FormField
                label={WITHDRAWAL_TEXT.amount}
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                value={fields.amount}
                onChange={set('amount')}
                error={errors.amount}
                hint={
                  figures
                    ? `Fee ${formatUsd(figures.feeCents)}, net ${formatUsd(figures.netCents)}`
                    : undefined
                }
                disabled={busy}
              />
              <FormField
                label={WITHDRAWAL_TEXT.txHash}
                name="tx_hash"
                autoComplete="off"
                spellCheck={false}
                value={fields.tx_hash}
                onChange={set('tx_hash')}
                error={errors.tx_hash}
                disabled={busy}
              />
              <TextAreaField
                label={WITHDRAWAL_TEXT.auditReason}
                name="reason"
                rows={2}
                maxLength={500}
                value={fields.reason}
                onChange={set('reason')}
                error={errors.reason}
                hint={WITHDRAWAL_TEXT.auditReasonHint}
                disabled={busy}
              />
              {failure ? (
                <p className="field-error" role="alert" data-testid="payout-error">
                  {failure}
                </p>
              ) : null}
              <MoneyOfflineNote />
              <button type="submit" className="button primary" disabled={busy || offline}>
                {busy ? WITHDRAWAL_TEXT.saving : WITHDRAWAL_TEXT.payoutSubmit}
              </button>
            </form>
          ) : null}
        </>
      )}
    </section>
  );
}
