import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Transfer } from '../../../../shared/transfers.ts';
import { WALLET_LABELS } from '../../../../shared/wallets.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useOffline } from '../../../lib/offline.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { decideTransfer, pendingTransfersQuery, refreshAfterTransfer, transferErrorText } from '../api.ts';

type Decision = { transfer: Transfer; status: 'completed' | 'failed' };

/** Transfers at or above the review threshold wait here; an admin completes or rejects each, once. */
export function PendingTransfers() {
  const queryClient = useQueryClient();
  const { data, isPending, error, refetch } = useQuery(pendingTransfersQuery);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState('');
  const { offline } = useOffline();

  async function confirm() {
    if (!decision || offline) return;
    setBusy(true);
    try {
      const { message } = await decideTransfer(decision.transfer.id, {
        status: decision.status,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      setDone(message);
      setDecision(null);
      setReason('');
    } catch (err) {
      setDecision(null);
      setFailure(transferErrorText(err));
    } finally {
      setBusy(false);
      void refreshAfterTransfer(queryClient);
    }
  }

  const approving = decision?.status === 'completed';
  return (
    <section className="card" aria-labelledby="pending-transfers-title">
      <h2 id="pending-transfers-title">Transfers waiting for review</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {isPending ? (
        <Spinner label="Loading pending transfers" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : data.alltransfer.length === 0 ? (
        <p className="muted">No transfers are waiting for review.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="pending-transfers">
            <caption className="visually-hidden">Pending transfers</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Amount</th>
                <th scope="col">Description</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {data.alltransfer.map((t) => (
                <tr key={t.id}>
                  <td>{formatDateTime(t.created_at)}</td>
                  <td>
                    {t.sender_name} <span className="muted">{t.sender_email}</span>
                    <br />
                    <span className="muted">{WALLET_LABELS[t.from]}</span>
                  </td>
                  <td>
                    {t.recipient_name} <span className="muted">{t.recipient_email}</span>
                    <br />
                    <span className="muted">{WALLET_LABELS[t.to]}</span>
                  </td>
                  <td>{formatMoney(t.amount)}</td>
                  <td>{t.description || '—'}</td>
                  <td className="row">
                    <button
                      type="button"
                      className="button primary"
                      onClick={() => setDecision({ transfer: t, status: 'completed' })}
                    >
                      Approve
                    </button>
                    <button
                      type="button"
                      className="button danger"
                      onClick={() => setDecision({ transfer: t, status: 'failed' })}
                    >
                      Reject
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.total > data.alltransfer.length ? (
            <p className="muted">
              Showing the {data.alltransfer.length} newest of {data.total} pending transfers.
            </p>
          ) : null}
        </div>
      )}
      <Modal
        open={decision !== null}
        title={approving ? 'Approve transfer' : 'Reject transfer'}
        onClose={() => (busy ? undefined : setDecision(null))}
        tone={approving ? 'success' : 'warning'}
      >
        {decision ? (
          <p>
            {approving
              ? `Send ${formatMoney(decision.transfer.amount)} from ${decision.transfer.sender_name} to ${decision.transfer.recipient_name}?`
              : `Return ${formatMoney(decision.transfer.amount)} to ${decision.transfer.sender_name}? The transfer will show as failed.`}
          </p>
        ) : null}
        <FormField
          label="Note for the audit log (optional)"
          name="reason"
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          disabled={busy}
        />
        <MoneyOfflineNote />
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setDecision(null)} disabled={busy}>
            Go back
          </button>
          <button
            type="button"
            className={`button ${approving ? 'primary' : 'danger'}`}
            onClick={confirm}
            disabled={busy || offline}
          >
            {busy ? 'Saving...' : approving ? 'Approve' : 'Reject'}
          </button>
        </div>
      </Modal>
      <ErrorDialog open={failure !== ''} error={failure} onClose={() => setFailure('')} />
    </section>
  );
}
