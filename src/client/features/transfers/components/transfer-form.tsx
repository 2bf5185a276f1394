import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { MAX_TRANSFER_DESCRIPTION_LENGTH, RECIPIENT_SEARCH_DELAY_MS } from '../../../../shared/constants.ts';
import { parseCents } from '../../../../shared/money.ts';
import { parseQrPayload, QR_MESSAGES } from '../../../../shared/qr.ts';
import { TRANSFER_MESSAGES, transferFormSchema } from '../../../../shared/transfers.ts';
import { WALLET_LABELS, WALLET_MESSAGES, WALLETS } from '../../../../shared/wallets.ts';
import { formatMoney } from '../../../lib/format.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { QrScannerButton } from '../../../ui/qr-scanner-button.tsx';
import {
  availableBalanceQuery,
  findRecipient,
  type Recipient,
  refreshAfterTransfer,
  sendTransfer,
  type TransferResult,
} from '../api.ts';

type Fields = { email: string; from: string; to: string; amount: string; desc: string };
const EMPTY: Fields = { email: '', from: '', to: '', amount: '', desc: '' };

type Lookup =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'found'; user: Recipient }
  | { state: 'missing'; message: string };

type Outcome = { kind: 'success'; result: TransferResult } | { kind: 'error'; reason: string } | null;

/** Spec 2 "Transfer form": recipient by e-mail, source and destination wallets, amount, optional description. */
export function TransferForm({ selfId, initialEmail }: { selfId: string; initialEmail?: string }) {
  const queryClient = useQueryClient();
  const balance = useQuery(availableBalanceQuery).data;
  // A member's Receive QR (or a link) can bring the recipient: the lookup below runs on it as if typed.
  const [fields, setFields] = useState<Fields>({ ...EMPTY, email: initialEmail ?? '' });
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const { errors, busy, submit: submitWith } = useSchemaForm();
  // Money moves only online: offline the button is disabled with the reason, and nothing is queued.
  const { offline } = useOffline();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const latestEmail = useRef('');

  // Spec 9: the lookup fires after a 1 s pause in typing; an answer for an older address is dropped.
  useEffect(() => {
    const email = fields.email.trim().toLowerCase();
    latestEmail.current = email;
    if (!email) {
      setLookup({ state: 'idle' });
      return;
    }
    const timer = setTimeout(async () => {
      setLookup({ state: 'searching' });
      try {
        const user = await findRecipient(email);
        if (latestEmail.current === email) setLookup({ state: 'found', user });
      } catch (error) {
        const message =
          error instanceof ApiError && error.status === 404
            ? WALLET_MESSAGES.noUserWithEmail
            : errorText(error);
        if (latestEmail.current === email) setLookup({ state: 'missing', message });
      }
    }, RECIPIENT_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fields.email]);

  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setFields((current) => ({ ...current, [name]: value }));
    if (name === 'email') setLookup({ state: 'idle' });
  };

  // Only a member code of this app fills the recipient; anything else is named for what it is not.
  const takeScan = (text: string) => {
    const payload = parseQrPayload(text, window.location.origin);
    if (payload.kind !== 'member') return QR_MESSAGES.notMemberCode;
    setFields((current) => ({ ...current, email: payload.email }));
    setLookup({ state: 'idle' });
    return undefined;
  };

  const availableCents = Object.fromEntries(
    WALLETS.map((wallet) => [wallet, balance ? (parseCents(balance[wallet]) ?? 0) : 0]),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    // The shared schema plus the balance the form can see: every message of spec 5 shows before any request.
    void submitWith(
      transferFormSchema({ availableCents, selfId }),
      {
        userto_id: lookup.state === 'found' ? lookup.user.id : '',
        user_id: selfId,
        amount: fields.amount,
        from: fields.from,
        to: fields.to,
        desc: fields.desc,
      },
      async (input) => {
        const result = await sendTransfer(input);
        setOutcome({ kind: 'success', result });
        setFields(EMPTY);
        setLookup({ state: 'idle' });
        void refreshAfterTransfer(queryClient);
      },
      (reason) => setOutcome({ kind: 'error', reason }),
    );
  }

  // Spec 2: closing either modal reloads the page.
  const closeAndReload = () => {
    setOutcome(null);
    window.location.reload();
  };

  const recipientError =
    lookup.state === 'missing' ? lookup.message : lookup.state === 'found' ? undefined : errors.userto_id;
  const insufficient = errors.amount === WALLET_MESSAGES.insufficient;
  const sourceBalance = fields.from && balance ? balance[fields.from as keyof typeof balance] : undefined;
  const pending = outcome?.kind === 'success' && outcome.result.transfer.status === 'pending';

  return (
    <section className="card" aria-labelledby="transfer-form-title">
      <h2 id="transfer-form-title">Send money</h2>
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <FormField
          label="Recipient email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="off"
          value={fields.email}
          onChange={set('email')}
          error={recipientError}
          disabled={busy}
        />
        <QrScannerButton onResult={takeScan} disabled={busy} />
        <div aria-live="polite" data-testid="recipient-lookup">
          {lookup.state === 'searching' ? <p className="muted">{TRANSFER_MESSAGES.searching}</p> : null}
          {lookup.state === 'found' ? (
            <dl className="facts" aria-label="Recipient">
              <div>
                <dt>Name</dt>
                <dd>{lookup.user.fullname}</dd>
              </div>
              <div>
                <dt>Username</dt>
                <dd>{lookup.user.username}</dd>
              </div>
              <div>
                <dt>Email</dt>
                <dd>{lookup.user.email}</dd>
              </div>
            </dl>
          ) : null}
        </div>
        <SelectField
          label="From account"
          name="from"
          value={fields.from}
          onChange={set('from')}
          error={errors.from}
          disabled={busy}
        >
          <option value="">Select source account</option>
          {WALLETS.map((wallet) => (
            <option key={wallet} value={wallet}>
              {WALLET_LABELS[wallet]}
              {balance ? ` (${formatMoney(balance[wallet])})` : ''}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="To account"
          name="to"
          value={fields.to}
          onChange={set('to')}
          error={errors.to}
          disabled={busy}
        >
          <option value="">Select destination account</option>
          {WALLETS.map((wallet) => (
            <option key={wallet} value={wallet}>
              {WALLET_LABELS[wallet]}
            </option>
          ))}
        </SelectField>
        <FormField
          label="Amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={fields.amount}
          onChange={set('amount')}
          error={
            insufficient && sourceBalance
              ? `${errors.amount} (available ${formatMoney(sourceBalance)})`
              : errors.amount
          }
          hint="US dollars, up to $10,000 per transfer; $5,000 or more waits for an admin review"
          disabled={busy}
        />
        <TextAreaField
          label="Description (optional)"
          name="desc"
          rows={3}
          value={fields.desc}
          onChange={set('desc')}
          error={errors.desc}
          hint={`${fields.desc.length}/${MAX_TRANSFER_DESCRIPTION_LENGTH}`}
          disabled={busy}
        />
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={busy || offline}>
          {busy ? TRANSFER_MESSAGES.processing : 'Send Transfer'}
        </button>
      </form>
      <Modal
        open={outcome?.kind === 'success'}
        title={pending ? 'Transfer Pending Review' : TRANSFER_MESSAGES.successTitle}
        onClose={closeAndReload}
        tone="success"
      >
        {/* A held transfer has not reached anyone yet: it says so rather than "transferred". */}
        <p>
          {pending && outcome?.kind === 'success' ? outcome.result.message : TRANSFER_MESSAGES.successText}
        </p>
        <div className="modal-actions">
          <button type="button" className="button primary" onClick={closeAndReload}>
            OK
          </button>
        </div>
      </Modal>
      <Modal
        open={outcome?.kind === 'error'}
        title={TRANSFER_MESSAGES.failedTitle}
        onClose={closeAndReload}
        tone="error"
      >
        <p>{TRANSFER_MESSAGES.failedText}</p>
        {outcome?.kind === 'error' ? (
          <p role="alert" className="muted">
            {outcome.reason}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={closeAndReload}>
            Close
          </button>
        </div>
      </Modal>
    </section>
  );
}
