import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import type { Transfer } from '../../../../shared/transfers.ts';
import { WALLET_LABELS } from '../../../../shared/wallets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useOffline } from '../../../lib/offline.ts';
import { BreakPoints, LongWordBreaks } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { decideTransfer, pendingTransfersQuery, refreshAfterTransfer, transferErrorText } from '../api.ts';

type Decision = { transfer: Transfer; status: 'completed' | 'failed' };

/** A member and the wallet, each on a line of its own, the e-mail breaking only at its dots. */
function Party({ name, email, wallet }: { name: string; email: string; wallet: string }) {
  return (
    <>
      <LongWordBreaks text={name} /> <span className="muted">{<BreakPoints text={email} />}</span>
      <br />
      <span className="muted">{wallet}</span>
    </>
  );
}

function pendingColumns(decide: (decision: Decision) => void): DataColumn<Transfer>[] {
  return [
    {
      id: 'date',
      header: 'Date',
      sortValue: (t) => t.created_at,
      descFirst: true,
      className: 'nowrap',
      cell: (t) => formatDateTime(t.created_at),
    },
    {
      id: 'from',
      header: 'From',
      cell: (t) => <Party name={t.sender_name} email={t.sender_email} wallet={WALLET_LABELS[t.from]} />,
    },
    {
      id: 'to',
      header: 'To',
      cell: (t) => <Party name={t.recipient_name} email={t.recipient_email} wallet={WALLET_LABELS[t.to]} />,
    },
    {
      id: 'amount',
      header: 'Amount',
      className: 'num',
      sortValue: (t) => Number(t.amount),
      descFirst: true,
      cell: (t) => formatUsd(t.amount),
    },
    {
      id: 'description',
      header: 'Description',
      cell: (t) => (t.description ? <LongWordBreaks text={t.description} /> : '—'),
    },
    {
      id: 'decision',
      header: 'Decision',
      cell: (t) => (
        <div className="row nowrap">
          <button
            type="button"
            className="button small primary"
            onClick={() => decide({ transfer: t, status: 'completed' })}
          >
            Approve
          </button>
          <button
            type="button"
            className="button small danger"
            onClick={() => decide({ transfer: t, status: 'failed' })}
          >
            Reject
          </button>
        </div>
      ),
    },
  ];
}

/**
 * Transfers to review: those at or above the review threshold wait here, each with its sender and
 * recipient; an admin completes or rejects each, once (the dashboard and /admin/topup?tab=review).
 */
export function PendingTransfers() {
  const queryClient = useQueryClient();
  const query = useQuery(pendingTransfersQuery);
  const { data } = query;
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

  const [columns] = useState(() => pendingColumns(setDecision));
  const approving = decision?.status === 'completed';
  return (
    <section className="card" aria-labelledby="pending-transfers-title">
      <h2 id="pending-transfers-title">Transfers to review</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption="Transfers to review"
        columns={columns}
        rows={data?.alltransfer}
        rowKey={(t) => t.id}
        status={query}
        empty="No transfers are waiting for review."
        noun={['pending transfer', 'pending transfers']}
        testId="pending-transfers"
      />
      {data && data.total > data.alltransfer.length ? (
        <p className="muted">
          Showing the {data.alltransfer.length} newest of {data.total} pending transfers.
        </p>
      ) : null}
      <Modal
        open={decision !== null}
        title={approving ? 'Approve transfer' : 'Reject transfer'}
        onClose={() => (busy ? undefined : setDecision(null))}
        tone={approving ? 'success' : 'warning'}
      >
        {decision ? (
          <p>
            {approving
              ? `Send ${formatUsd(decision.transfer.amount)} from ${decision.transfer.sender_name} to ${decision.transfer.recipient_name}?`
              : `Return ${formatUsd(decision.transfer.amount)} to ${decision.transfer.sender_name}? The transfer will show as failed.`}
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
