import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { MAX_TRANSFER_DESCRIPTION_LENGTH } from '../../../../shared/constants.ts';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { parseQrPayload, QR_MESSAGES } from '../../../../shared/qr.ts';
import {
  limitText,
  TRANSFER_MESSAGES,
  type TransferRequest,
  transferFormSchema,
} from '../../../../shared/transfers.ts';
import {
  WALLET_LABELS,
  WALLET_MESSAGES,
  WALLET_NOTES,
  WALLETS,
  type Wallet,
} from '../../../../shared/wallets.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { QrScannerButton } from '../../../ui/qr-scanner-button.tsx';
import {
  availableBalanceQuery,
  memberStandingQuery,
  type Recipient,
  refreshAfterTransfer,
  sendTransfer,
  type TransferResult,
  transferFailure,
  transferLimitsQuery,
} from '../api.ts';
import { clearDraft, type DraftFields, readDraft, saveDraft } from '../draft.ts';
import '../transfers.css';
import { useRecipientLookup } from '../use-recipient-lookup.ts';
import { SenderNotice, type Standing, sendRefusal } from './sender-notice.tsx';
import { FailedModal, ReceiptModal, ReviewModal } from './transfer-outcome.tsx';

const hundredths = (amount: string) => parseCents(amount) ?? 0;

type Fields = DraftFields;

type Sent = { result: TransferResult; recipient: Recipient };

/** The wallet that can send the most now; none when both are empty (there is nothing to send). */
function richerWallet(availableCents: Record<Wallet, number>): Wallet | '' {
  const [first, second] = WALLETS;
  if (availableCents[first] === 0 && availableCents[second] === 0) return '';
  return availableCents[second] > availableCents[first] ? second : first;
}

/**
 * Spec 2 "Transfer form", fields in the spec's order (recipient e-mail, amount, from, to, description),
 * then a review step before the money leaves and a receipt after (issue 22).
 */
export function TransferForm({
  member,
  initialEmail,
}: {
  member: { id: string } & Standing;
  initialEmail?: string;
}) {
  const selfId = member.id;
  const queryClient = useQueryClient();
  const balance = useQuery(availableBalanceQuery).data;
  const limits = useQuery(transferLimitsQuery).data;
  // The server's word on whether this member may send; the session's copy until it answers.
  const standing = useQuery(memberStandingQuery(selfId)).data ?? member;
  const refusal = sendRefusal(standing);
  // A failed transfer's values come back after the spec's reload; a Receive QR (or a link) can bring
  // the recipient. The To wallet defaults to the recipient's Active Wallet.
  const [fields, setFields] = useState<Fields>(
    () => readDraft(selfId) ?? { email: initialEmail ?? '', amount: '', from: '', to: 'business', desc: '' },
  );
  useEffect(clearDraft, []);
  const touched = useRef(new Set<keyof Fields>());
  const { errors, busy, submit: submitWith } = useSchemaForm();
  // Money moves only online: offline the button is disabled with the reason, and nothing is queued.
  const { offline } = useOffline();
  const [review, setReview] = useState<{ input: TransferRequest; recipient: Recipient } | null>(null);
  const [sent, setSent] = useState<Sent | null>(null);
  const [failure, setFailure] = useState<{ reason: string; retry: boolean } | null>(null);
  const noticeId = useId();
  // The recipient's wallet is an advanced choice: folded until opened, or until it is not the default.
  const [advanced, setAdvanced] = useState(false);

  const availableCents = Object.fromEntries(
    WALLETS.map((wallet) => [wallet, balance ? (parseCents(balance[wallet]) ?? 0) : 0]),
  ) as Record<Wallet, number>;
  const defaultFrom = balance ? richerWallet(availableCents) : '';

  // From defaults to the wallet that holds the money, once the balances are known, unless chosen.
  useEffect(() => {
    if (!defaultFrom || touched.current.has('from')) return;
    setFields((current) => (current.from ? current : { ...current, from: defaultFrom }));
  }, [defaultFrom]);

  const lookup = useRecipientLookup(fields.email, (user) => {
    // Sending to oneself needs the other wallet: an untouched To moves off the source.
    if (user.id !== selfId || touched.current.has('to')) return;
    setFields((current) =>
      current.from && current.to === current.from
        ? { ...current, to: current.from === 'business' ? 'working' : 'business' }
        : current,
    );
  });

  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    touched.current.add(name);
    setFields((current) => ({ ...current, [name]: value }));
  };

  // Only a member code of this app fills the recipient; anything else is named for what it is not.
  const takeScan = (text: string) => {
    const payload = parseQrPayload(text, window.location.origin);
    if (payload.kind !== 'member') return QR_MESSAGES.notMemberCode;
    setFields((current) => ({ ...current, email: payload.email }));
    return undefined;
  };

  // The shared schema plus the balance the form can see: every message of spec 5 shows before any
  // request. Checked again (and sent) on Confirm, so the review shows only what may be sent.
  const check = (send: (input: TransferRequest) => Promise<void>) =>
    submitWith(
      transferFormSchema({ availableCents, selfId }),
      {
        userto_id: lookup.state === 'found' ? lookup.user.id : '',
        user_id: selfId,
        amount: fields.amount,
        from: fields.from,
        to: fields.to,
        desc: fields.desc,
      },
      send,
      () => undefined,
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline || refusal) return;
    // Without a found recipient the schema refuses (no userto_id) and says so on the e-mail field.
    void check(async (input) => {
      if (lookup.state === 'found') setReview({ input, recipient: lookup.user });
    });
  }

  async function confirm() {
    if (!review || offline) return;
    const { recipient } = review;
    await check(async (input) => {
      try {
        const result = await sendTransfer(input);
        clearDraft();
        setSent({ result, recipient });
        void refreshAfterTransfer(queryClient);
      } catch (error) {
        saveDraft(selfId, fields);
        setFailure(transferFailure(error));
      }
    });
    // Sent, refused, or no longer valid (the balances changed meanwhile): the review is over.
    setReview(null);
  }

  // Spec 2: closing either modal reloads the page; a failure's values come back (see draft.ts).
  const closeAndReload = () => {
    setSent(null);
    setFailure(null);
    window.location.reload();
  };

  const recipientError =
    lookup.state === 'missing' ? lookup.message : lookup.state === 'found' ? undefined : errors.userto_id;
  const insufficient = errors.amount === WALLET_MESSAGES.insufficient;
  const sourceBalance = fields.from && balance ? balance[fields.from as Wallet] : undefined;
  const note = (wallet: string) => (wallet ? WALLET_NOTES[wallet as Wallet] : undefined);

  return (
    <section className="card" aria-labelledby="transfer-form-title">
      <h2 id="transfer-form-title">Send money</h2>
      {refusal ? <SenderNotice id={noticeId} refusal={refusal} /> : null}
      {limits ? (
        <p className="muted" data-testid="transfer-limits">
          {TRANSFER_MESSAGES.limits(
            limitText(hundredths(limits.daily_limit)),
            limitText(hundredths(limits.left_today)),
            limitText(hundredths(limits.review_threshold)),
          )}
        </p>
      ) : null}
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <FormField
          label="Recipient email or username"
          name="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
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
              {lookup.user.email ? (
                <div>
                  <dt>Email</dt>
                  <dd className="transfer-wrap">{lookup.user.email}</dd>
                </div>
              ) : null}
            </dl>
          ) : null}
        </div>
        <FormField
          label="Amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={fields.amount}
          onChange={set('amount')}
          error={
            insufficient && sourceBalance
              ? `${errors.amount} (available ${formatUsd(sourceBalance)})`
              : errors.amount
          }
          hint="US dollars, up to $10,000 per transfer; $5,000 or more waits for an admin review"
          disabled={busy}
        />
        <SelectField
          label="From account"
          name="from"
          value={fields.from}
          onChange={set('from')}
          error={errors.from}
          hint={note(fields.from)}
          disabled={busy}
        >
          <option value="">Select source account</option>
          {WALLETS.map((wallet) => (
            <option key={wallet} value={wallet}>
              {WALLET_LABELS[wallet]}
              {balance ? ` (${formatUsd(balance[wallet])})` : ''}
            </option>
          ))}
        </SelectField>
        {/* The recipient's Active Wallet unless the payer chooses otherwise: an advanced choice. */}
        <details
          className="advanced"
          open={advanced || fields.to !== 'business' || Boolean(errors.to)}
          onToggle={(event) => setAdvanced(event.currentTarget.open)}
        >
          <summary>
            Goes to: <strong data-testid="transfer-to">{WALLET_LABELS[fields.to as Wallet] ?? '—'}</strong>
          </summary>
          <SelectField
            label="To account"
            name="to"
            value={fields.to}
            onChange={set('to')}
            error={errors.to}
            hint={note(fields.to)}
            disabled={busy}
          >
            <option value="">Select destination account</option>
            {WALLETS.map((wallet) => (
              <option key={wallet} value={wallet}>
                {WALLET_LABELS[wallet]}
              </option>
            ))}
          </SelectField>
        </details>
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
        <button
          type="submit"
          className="button primary"
          disabled={busy || offline || Boolean(refusal)}
          aria-describedby={refusal ? noticeId : undefined}
        >
          {busy ? TRANSFER_MESSAGES.processing : TRANSFER_MESSAGES.send}
        </button>
      </form>
      <ReviewModal
        reviewThresholdCents={limits ? hundredths(limits.review_threshold) : null}
        input={review?.input ?? null}
        recipient={review?.recipient ?? null}
        busy={busy}
        onConfirm={() => void confirm()}
        onEdit={() => setReview(null)}
      />
      <ReceiptModal
        result={sent?.result ?? null}
        recipient={sent?.recipient ?? null}
        onClose={closeAndReload}
      />
      <FailedModal failure={failure} onClose={closeAndReload} />
    </section>
  );
}
