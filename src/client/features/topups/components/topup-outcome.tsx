import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import type { Topup } from '../../../../shared/topups.ts';
import { WALLET_MESSAGES } from '../../../../shared/wallets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { Modal } from '../../../ui/modal.tsx';
import { RiskNote } from '../../../ui/risk-note.tsx';

// The three steps around money leaving the Active Wallet, as the transfer form has them: a review
// before, then the receipt or the refusal with its reason. What was typed stays in the form.

export const who = (member: { fullname: string; username: string }) =>
  `${member.fullname} (${member.username})`;

/** "Invest $100.00 in Starter from Active Wallet" (for another member: "... for Bob Stone (bob)"). */
export function reviewLine(amountCents: number, planName: string, beneficiary?: string): string {
  const amount = formatUsd(amountCents);
  return beneficiary
    ? `Invest ${amount} in ${planName} for ${beneficiary} from Active Wallet`
    : `Invest ${amount} in ${planName} from Active Wallet`;
}

export function ReviewModal({
  open,
  title,
  summary,
  children,
  busy,
  confirmLabel = 'Confirm',
  onConfirm,
  onEdit,
}: {
  open: boolean;
  title: string;
  summary: string;
  children?: ReactNode;
  busy: boolean;
  confirmLabel?: string;
  onConfirm: () => void;
  onEdit: () => void;
}) {
  // The request cannot be called back once sent: while it runs, the dialog stays.
  const close = () => (busy ? undefined : onEdit());
  return (
    <Modal open={open} title={title} onClose={close}>
      <p className="topup-summary" data-testid="topup-review">
        {summary}
      </p>
      {children}
      <RiskNote className="compact" />
      <div className="modal-actions">
        <button type="button" className="button" onClick={onEdit} disabled={busy}>
          Edit
        </button>
        <button type="button" className="button primary" onClick={onConfirm} disabled={busy}>
          {busy ? 'Processing...' : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/** The receipt: plan, amount, for whom, paid by, date, reference. */
export function ReceiptModal({
  topup,
  title,
  onClose,
}: {
  topup: Topup | null;
  title: string;
  onClose: () => void;
}) {
  return (
    <Modal open={topup !== null} title={title} onClose={onClose} tone="success">
      {topup ? (
        <>
          <dl className="facts" aria-label="Receipt" data-testid="topup-receipt">
            <div>
              <dt>Plan</dt>
              <dd>{topup.plan_name}</dd>
            </div>
            <div>
              <dt>Amount</dt>
              <dd>{formatUsd(topup.amount)}</dd>
            </div>
            <div>
              <dt>For</dt>
              <dd className="topup-wrap">
                {who({ fullname: topup.user_name, username: topup.user_username })}
              </dd>
            </div>
            <div>
              <dt>Paid by</dt>
              <dd className="topup-wrap">
                {topup.userby_name && topup.userby_username
                  ? `${who({ fullname: topup.userby_name, username: topup.userby_username })}, Active Wallet`
                  : 'Activation code'}
              </dd>
            </div>
            <div>
              <dt>Date</dt>
              <dd>{formatDateTime(topup.created_at)}</dd>
            </div>
            <div>
              <dt>Reference</dt>
              <dd className="topup-wrap">{topup.id}</dd>
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

export type Failure = { reason: string; retry: boolean };

/**
 * The refusal, in the server's words. "Try again" is offered only where it can help (no answer, a
 * server fault); a short Active Wallet names it and links to Deposit.
 */
export function FailedModal({
  failure,
  title,
  onClose,
}: {
  failure: Failure | null;
  title: string;
  onClose: () => void;
}) {
  const short = failure?.reason === WALLET_MESSAGES.insufficient;
  return (
    <Modal open={failure !== null} title={title} onClose={onClose} tone="error">
      <p role="alert" data-testid="topup-failure">
        {short ? 'Not enough in your Active Wallet for this amount.' : failure?.reason}
      </p>
      {/* Without an answer the payment may still have gone through: the list and balance tell. */}
      {failure?.retry ? (
        <p className="muted">
          Check your investments and your balance first: if it is not there, you can try again in a moment.
        </p>
      ) : null}
      <p className="muted">What you typed is kept in the form.</p>
      <div className="modal-actions">
        {short ? (
          <Link to="/user/add-money" className="button primary">
            Add money
          </Link>
        ) : null}
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
