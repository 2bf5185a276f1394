import { formatUsd } from '../../../../shared/money.ts';
import { reviewSummary, TRANSFER_MESSAGES, type TransferRequest } from '../../../../shared/transfers.ts';
import { WALLET_LABELS } from '../../../../shared/wallets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { Modal } from '../../../ui/modal.tsx';
import type { Recipient, TransferResult } from '../api.ts';

// The three steps around the money leaving (issue 22): the review before it, then the receipt or the
// refusal. The spec's modal texts stay as the titles and first lines.

const who = (recipient: Recipient) => `${recipient.fullname} (${recipient.username})`;

/** "Send $25.50 to Bob Stone (bob_ux) from Active Wallet", with Confirm and Edit. */
export function ReviewModal({
  reviewThresholdCents,
  input,
  recipient,
  busy,
  onConfirm,
  onEdit,
}: {
  /** From GET /transfer/limits; null while unknown (the receipt then says whether it waits). */
  reviewThresholdCents: number | null;
  input: TransferRequest | null;
  recipient: Recipient | null;
  busy: boolean;
  onConfirm: () => void;
  onEdit: () => void;
}) {
  // The request cannot be called back once sent: while it runs, the dialog stays.
  const close = () => (busy ? undefined : onEdit());
  return (
    <Modal open={input !== null && recipient !== null} title={TRANSFER_MESSAGES.reviewTitle} onClose={close}>
      {input && recipient ? (
        <>
          <p className="transfer-summary" data-testid="transfer-summary">
            {reviewSummary(
              formatUsd(input.amount),
              recipient.fullname,
              recipient.username,
              WALLET_LABELS[input.from],
            )}
          </p>
          <dl className="facts">
            <div>
              <dt>To wallet</dt>
              <dd>{WALLET_LABELS[input.to]}</dd>
            </div>
            <div>
              <dt>Recipient email</dt>
              <dd className="transfer-wrap">{recipient.email}</dd>
            </div>
            {input.desc ? (
              <div>
                <dt>Description</dt>
                <dd className="transfer-wrap">{input.desc}</dd>
              </div>
            ) : null}
          </dl>
          {reviewThresholdCents !== null && input.amount >= reviewThresholdCents ? (
            <p className="muted">{TRANSFER_MESSAGES.reviewHeld(reviewThresholdCents)}</p>
          ) : null}
          <div className="modal-actions">
            <button type="button" className="button" onClick={onEdit} disabled={busy}>
              {TRANSFER_MESSAGES.edit}
            </button>
            <button type="button" className="button primary" onClick={onConfirm} disabled={busy}>
              {busy ? TRANSFER_MESSAGES.processing : TRANSFER_MESSAGES.confirm}
            </button>
          </div>
        </>
      ) : null}
    </Modal>
  );
}

/** "Transfer Completed!" (or pending review) with what a receipt holds: amount, recipient, date, reference. */
export function ReceiptModal({
  result,
  recipient,
  onClose,
}: {
  result: TransferResult | null;
  recipient: Recipient | null;
  onClose: () => void;
}) {
  const transfer = result?.transfer;
  const pending = transfer?.status === 'pending';
  return (
    <Modal
      open={result !== null}
      title={pending ? TRANSFER_MESSAGES.pendingTitle : TRANSFER_MESSAGES.successTitle}
      onClose={onClose}
      tone="success"
    >
      {result && transfer ? (
        <>
          {/* A held transfer has not reached anyone yet: it says so rather than "transferred". */}
          <p>{pending ? result.message : TRANSFER_MESSAGES.successText}</p>
          <dl className="facts" aria-label="Receipt" data-testid="transfer-receipt">
            <div>
              <dt>Amount</dt>
              <dd>{formatUsd(transfer.amount)}</dd>
            </div>
            <div>
              <dt>Recipient</dt>
              <dd className="transfer-wrap">{recipient ? who(recipient) : transfer.recipient_name}</dd>
            </div>
            <div>
              <dt>From</dt>
              <dd>{`${WALLET_LABELS[transfer.from]} to ${WALLET_LABELS[transfer.to]}`}</dd>
            </div>
            <div>
              <dt>Date</dt>
              <dd>{formatDateTime(transfer.created_at)}</dd>
            </div>
            <div>
              <dt>Reference</dt>
              <dd className="transfer-wrap">{transfer.id}</dd>
            </div>
          </dl>
          <div className="modal-actions">
            <button type="button" className="button primary" onClick={onClose}>
              OK
            </button>
          </div>
        </>
      ) : null}
    </Modal>
  );
}

/**
 * "Transfer Failed". The spec's "Something went wrong. Please try again." shows only where sending
 * again can help (no answer, a server fault); a rule's refusal shows the server's reason alone.
 */
export function FailedModal({
  failure,
  onClose,
}: {
  failure: { reason: string; retry: boolean } | null;
  onClose: () => void;
}) {
  return (
    <Modal open={failure !== null} title={TRANSFER_MESSAGES.failedTitle} onClose={onClose} tone="error">
      <p role="alert">{failure?.retry ? TRANSFER_MESSAGES.failedText : failure?.reason}</p>
      {failure?.retry && failure.reason !== TRANSFER_MESSAGES.fallback ? (
        <p className="muted">{failure.reason}</p>
      ) : null}
      <p className="muted">{TRANSFER_MESSAGES.valuesKept}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
